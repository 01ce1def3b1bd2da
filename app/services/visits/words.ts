import { clock, clockRange, longDate } from "~/services/schedule/days";

// How a visit reads, on its pages, in its job's history and in the board's messages.

/** A visit's time in words: "Tuesday, June 16, 2026, 9:00–11:00 AM" (an end days later is named). */
export function visitWhen(start: string, end: string | null): string {
  if (!end) return `${longDate(start.slice(0, 10))}, ${clock(start)}`;
  if (start.slice(0, 10) === end.slice(0, 10)) return `${longDate(start.slice(0, 10))}, ${clockRange(start, end)}`;
  return `${longDate(start.slice(0, 10))}, ${clock(start)} to ${longDate(end.slice(0, 10))}, ${clock(end)}`;
}

/** "with Dana Diaz and Eli Moreau", or "unassigned". */
export function crewWords(names: string[]): string {
  if (!names.length) return "unassigned";
  if (names.length === 1) return `with ${names[0]}`;
  return `with ${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
