import { dateTimeFormat } from "./format";

/**
 * A visit's date and time window in the business's zone, with the zone named:
 * "Tuesday, June 16, 9:00 AM – 11:00 AM CDT"; a visit over several days names both days:
 * "Monday, June 15, 8:00 AM – Wednesday, June 17, 5:00 PM CDT"; one without an end its start.
 */
export function visitWindow(startAt: Date | string, endAt: Date | string | null, timeZone: string): string {
  const start = new Date(startAt);
  const end = endAt ? new Date(endAt) : null;
  const day = dateTimeFormat({ weekday: "long", month: "long", day: "numeric", timeZone });
  const time = dateTimeFormat({ hour: "numeric", minute: "2-digit", timeZone });
  const zoned = dateTimeFormat({ hour: "numeric", minute: "2-digit", timeZone, timeZoneName: "short" });
  const key = dateTimeFormat({ year: "numeric", month: "2-digit", day: "2-digit", timeZone }, "en-CA");
  if (!end) return `${day.format(start)}, ${zoned.format(start)}`;
  if (key.format(start) === key.format(end))
    return `${day.format(start)}, ${time.format(start)} – ${zoned.format(end)}`;
  return `${day.format(start)}, ${time.format(start)} – ${day.format(end)}, ${zoned.format(end)}`;
}

/** "Ann", "Ann and Ben", "Ann, Ben and Cal": the crew's first names. */
export function firstNames(names: string[]): string {
  const first = names.map((n) => n.trim().split(/\s+/)[0]).filter(Boolean);
  if (first.length <= 1) return first[0] ?? "";
  return `${first.slice(0, -1).join(", ")} and ${first[first.length - 1]}`;
}
