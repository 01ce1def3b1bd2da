// The time zones a business may choose (signup, company settings). Shared with the browser:
// the signup page preselects the browser's own zone when it is one of these.
import { z } from "zod";

/** The IANA time zones the runtime knows, plus UTC (which Intl does not always list). */
export function timeZones(): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
}

/** One of the listed time zones. */
export const timeZoneField = z
  .string({ required_error: "Choose a time zone." })
  .trim()
  .refine((tz) => timeZones().includes(tz), "Choose a time zone from the list.");

/** The browser's own zone when it is one of the list, else UTC. */
export function browserTimeZone(): string {
  try {
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return tz && timeZones().includes(tz) ? tz : "UTC";
  } catch {
    return "UTC";
  }
}
