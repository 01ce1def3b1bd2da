// A booking request's preferred window (day and time of day, as the customer chose it on the
// portal) against a job's scheduled start, both wall clock in the tenant's zone. Shared by the
// server (the board's marks) and the browser (the same mark again while a move is on its way).
// The window is an arrival window: a job is inside it when it starts on the preferred day and
// within the chosen part of the day (docs/decisions/134).
import type { TimeWindow } from "../../../db/enums";
import { TIME_WINDOW_LABELS } from "~/services/portal/types";
import { longDate, minuteOfDay } from "./days";

/** What the customer asked for: a day (or none) and a part of the day ("any" = all day). */
export type PreferredWindow = { date: string | null; timeWindow: TimeWindow };

/** Minutes since midnight each part of the day covers, [from, to), as the portal's labels say. */
export const TIME_WINDOW_MINUTES: Record<Exclude<TimeWindow, "any">, [number, number]> = {
  morning: [8 * 60, 12 * 60],
  afternoon: [12 * 60, 17 * 60],
  evening: [17 * 60, 20 * 60],
};

/** Words for the window: "Tuesday, June 16, 2026, morning (8 am – 12 pm)". */
export function describeWindow(w: PreferredWindow): string {
  const part = w.timeWindow === "any" ? null : TIME_WINDOW_LABELS[w.timeWindow].toLowerCase();
  return [w.date ? longDate(w.date) : null, part].filter(Boolean).join(", ") || "any time";
}

/**
 * Why a job starting at `start` ("YYYY-MM-DDTHH:MM" in the tenant's zone) is outside the
 * preferred window, or null when it is inside (or nothing was asked, or it has no time yet).
 */
export function outsideWindow(start: string | null, w: PreferredWindow | null): string | null {
  if (!start || !w) return null;
  const wrongDay = !!w.date && start.slice(0, 10) !== w.date;
  let wrongTime = false;
  if (w.timeWindow !== "any") {
    const [from, to] = TIME_WINDOW_MINUTES[w.timeWindow];
    const m = minuteOfDay(start);
    wrongTime = m < from || m >= to;
  }
  if (!wrongDay && !wrongTime) return null;
  return `Outside the customer's preferred window: they asked for ${describeWindow(w)}.`;
}
