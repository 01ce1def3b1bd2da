/**
 * What the field page shows: the server's jobs with the actions still waiting in the outbox
 * laid over them (a status already changed, a note not yet sent), grouped for the day.
 */
import { actionLabel, canMoveTo, NEXT_STATUSES, STATUS_LABELS, type FieldJob, type FieldStatus, type JobStatus } from "~/services/sync/protocol";
import type { Queued } from "./sync-store";
import { dateTimeFormat } from "~/utils/format";

export type ShownJob = FieldJob & {
  pendingNotes: Array<{ id: number; body: string; occurredAt: string }>;
  pendingEntries: number;
  pendingMinutes: number;
  pendingStatus: boolean;
};

export type DayGroups = { now: ShownJob[]; today: ShownJob[]; upcoming: ShownJob[]; unscheduled: ShownJob[]; done: ShownJob[] };

const minutesBetween = (a: string, b: string) => Math.max(0, Math.round((Date.parse(b) - Date.parse(a)) / 60_000));

export function project(open: FieldJob[], doneToday: FieldJob[], pending: Queued[]): ShownJob[] {
  const shown = new Map<string, ShownJob>();
  for (const j of [...open, ...doneToday]) shown.set(j.id, { ...j, pendingNotes: [], pendingEntries: 0, pendingMinutes: 0, pendingStatus: false });
  for (const m of pending) {
    const job = shown.get(String(m.args.jobId));
    if (!job) continue;
    if (m.type === "job.status") {
      const to = m.args.status as FieldStatus;
      if (canMoveTo(job.status, to)) {
        job.status = to;
        job.nextStatuses = [...NEXT_STATUSES[to]];
        job.pendingStatus = true;
      }
    } else if (m.type === "job.note") {
      job.pendingNotes.push({ id: m.id, body: String(m.args.body), occurredAt: m.occurredAt });
    } else if (m.type === "job.time_entry") {
      job.pendingEntries++;
      job.pendingMinutes += minutesBetween(String(m.args.startedAt), String(m.args.endedAt));
    }
  }
  return [...shown.values()];
}

/** The calendar day of an instant in a time zone, as YYYY-MM-DD. */
export function dayKey(iso: string, timeZone: string): string {
  return dateTimeFormat({ timeZone, year: "numeric", month: "2-digit", day: "2-digit" }, "en-CA").format(new Date(iso));
}

const ACTIVE: JobStatus[] = ["en_route", "in_progress", "on_hold"];

export function groupDay(jobs: ShownJob[], now: string, timeZone: string): DayGroups {
  const today = dayKey(now, timeZone);
  const g: DayGroups = { now: [], today: [], upcoming: [], unscheduled: [], done: [] };
  for (const j of jobs) {
    if (j.status === "completed" || j.status === "cancelled") g.done.push(j);
    else if (ACTIVE.includes(j.status)) g.now.push(j);
    else if (!j.scheduledStart) g.unscheduled.push(j);
    else if (dayKey(j.scheduledStart, timeZone) <= today) g.today.push(j);
    else g.upcoming.push(j);
  }
  return g;
}

/**
 * The coming days of a technician's list, one group per calendar day in the tenant's zone,
 * soonest first: "Tomorrow", then "Thursday, November 26" (what the schedule gave them).
 */
export function nextDays(upcoming: ShownJob[], now: string, timeZone: string): Array<{ day: string; label: string; jobs: ShownJob[] }> {
  const tomorrow = nextDayKey(now, timeZone);
  const days = new Map<string, ShownJob[]>();
  const sorted = [...upcoming].sort((a, b) => Date.parse(a.scheduledStart!) - Date.parse(b.scheduledStart!));
  for (const j of sorted) {
    const day = dayKey(j.scheduledStart!, timeZone);
    days.set(day, [...(days.get(day) ?? []), j]);
  }
  return [...days].map(([day, jobs]) => ({
    day,
    label: day === tomorrow ? "Tomorrow" : dateTimeFormat({ weekday: "long", month: "long", day: "numeric", timeZone }).format(new Date(jobs[0].scheduledStart!)),
    jobs,
  }));
}

/** The calendar day after `now`'s in a zone (noon-safe across clock changes). */
function nextDayKey(now: string, timeZone: string): string {
  const today = dayKey(now, timeZone);
  const [y, m, d] = today.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

export function formatTime(iso: string, timeZone: string) {
  return dateTimeFormat({ hour: "numeric", minute: "2-digit", timeZone }).format(new Date(iso));
}

export function formatDay(iso: string, timeZone: string) {
  return dateTimeFormat({ weekday: "short", month: "short", day: "numeric", timeZone }).format(new Date(iso));
}

export function formatMinutes(total: number) {
  const h = Math.floor(total / 60);
  const m = total % 60;
  return h ? `${h} h${m ? ` ${m} min` : ""}` : m ? `${m} min` : "under a minute";
}

/** One line for an action in the outbox, e.g. “Start work” for “Water heater replacement”. */
export function describeAction(m: Queued, jobs: FieldJob[]): string {
  const job = jobs.find((j) => j.id === m.args.jobId);
  const title = job ? `“${job.title}”` : "a job";
  if (m.type === "job.status") {
    const to = m.args.status as FieldStatus;
    return `“${job ? actionLabel(job.status, to) : STATUS_LABELS[to]}” for ${title}`;
  }
  return `${m.type === "job.note" ? "A note" : "A time entry"} for ${title}`;
}
