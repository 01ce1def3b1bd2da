// How the board lays jobs out, shared by the server (overlap marks) and the browser (the same
// marks and lanes again while a move is on its way). Times are wall clock in the tenant's zone.
import { minuteOfDay } from "./days";

export type Placed = { id: string; status: string; start: string | null; end: string | null; overlaps: boolean };

/** Marks each job that shares time with another of the same row (cancelled ones take no time). */
export function markOverlaps<J extends Placed>(jobs: J[]): J[] {
  for (const j of jobs) j.overlaps = false;
  const live = jobs
    .filter((j) => j.start && j.end && j.status !== "cancelled")
    .sort((a, b) => a.start!.localeCompare(b.start!));
  for (let i = 0; i < live.length; i++) {
    // Sorted by start: once one starts after this one ends, so do all the later ones.
    for (let k = i + 1; k < live.length && live[k].start! < live[i].end!; k++) {
      live[i].overlaps = true;
      live[k].overlaps = true;
    }
  }
  return jobs;
}

/** Minutes of `date` a job covers: [from, to), clipped to the day. */
export function spanOn(job: { start: string | null; end: string | null }, date: string): [number, number] {
  const from = job.start!.slice(0, 10) < date ? 0 : minuteOfDay(job.start!);
  const to = job.end!.slice(0, 10) > date ? 1440 : minuteOfDay(job.end!);
  return [from, Math.max(to, from + 15)];
}

/** Lanes for a day's jobs of one row, so jobs at the same time sit one above the other. */
export function lanes<J extends { id: string; start: string | null; end: string | null }>(
  jobs: J[],
  date: string,
): { lane: Map<string, number>; count: number } {
  const ends: number[] = [];
  const lane = new Map<string, number>();
  const sorted = [...jobs].sort((a, b) => spanOn(a, date)[0] - spanOn(b, date)[0] || a.id.localeCompare(b.id));
  for (const j of sorted) {
    const [from, to] = spanOn(j, date);
    let i = ends.findIndex((end) => end <= from);
    if (i === -1) i = ends.push(to) - 1;
    else ends[i] = to;
    lane.set(j.id, i);
  }
  return { lane, count: Math.max(1, ends.length) };
}

/** The hours a day view shows: 6 AM to 8 PM, widened to fit every job of the day. */
export function dayHours(jobs: Array<{ start: string | null; end: string | null }>, date: string): [number, number] {
  let from = 6 * 60;
  let to = 20 * 60;
  for (const j of jobs) {
    // A visit of several days widens the day only by the ends that fall on it (with an hour
    // beside them): its middle days are covered edge to edge anyway.
    const [a, b] = spanOn(j, date);
    const starts = j.start!.slice(0, 10) === date;
    const ends = j.end!.slice(0, 10) === date;
    if (starts) from = Math.min(from, Math.floor(a / 60) * 60);
    if (ends) to = Math.max(to, Math.ceil(b / 60) * 60);
    if (starts && !ends) to = Math.max(to, Math.min(1440, Math.floor(a / 60) * 60 + 60));
    if (ends && !starts) from = Math.min(from, Math.max(0, Math.ceil(b / 60) * 60 - 60));
  }
  return [from, Math.min(to, 1440)];
}
