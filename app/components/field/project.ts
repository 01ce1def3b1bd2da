/**
 * What the field page shows: the server's jobs with the actions still waiting in the outbox
 * laid over them (a status already changed, a note not yet sent), grouped for the day.
 */
import {
  actionLabel,
  canMoveTo,
  clockEffect,
  NEXT_STATUSES,
  STATUS_LABELS,
  type FieldJob,
  type FieldStatus,
  type JobStatus,
} from "~/services/field/protocol";
import type { Queued } from "./sync-store";
import { UNDER_WAY_STATUSES } from "../../../db/enums";
import { dateTimeFormat } from "~/utils/format";

export type ShownJob = FieldJob & {
  pendingNotes: Array<{ id: number; body: string; occurredAt: string }>;
  pendingEntries: number;
  pendingMinutes: number;
  pendingStatus: boolean;
  /** The clock, checklist or signature changed here and not yet synced. */
  pendingClock: boolean;
  pendingChecklist: Set<string>;
  pendingSignature: boolean;
};

export type DayGroups = {
  now: ShownJob[];
  today: ShownJob[];
  upcoming: ShownJob[];
  unscheduled: ShownJob[];
  done: ShownJob[];
};

const minutesBetween = (a: string, b: string) => Math.max(0, Math.round((Date.parse(b) - Date.parse(a)) / 60_000));

export function project(open: FieldJob[], doneToday: FieldJob[], pending: Queued[]): ShownJob[] {
  const shown = new Map<string, ShownJob>();
  for (const j of [...open, ...doneToday]) {
    shown.set(j.id, {
      ...j,
      checklist: j.checklist.map((i) => ({ ...i })),
      pendingNotes: [],
      pendingEntries: 0,
      pendingMinutes: 0,
      pendingStatus: false,
      pendingClock: false,
      pendingChecklist: new Set(),
      pendingSignature: false,
    });
  }
  // The clock as the server will run it (migration 0084): started on the way or at work, stopped into a time entry.
  const startClock = (job: ShownJob, at: string, onSite: boolean) => {
    if (!job.clock) job.clock = { startedAt: at, onSiteAt: onSite ? at : null };
    else if (onSite && !job.clock.onSiteAt) job.clock = { ...job.clock, onSiteAt: at };
    job.pendingClock = true;
  };
  const stopClock = (job: ShownJob, at: string) => {
    if (!job.clock) return;
    job.pendingEntries++;
    job.pendingMinutes += minutesBetween(job.clock.startedAt, at);
    job.clock = null;
    job.pendingClock = true;
  };
  for (const m of pending) {
    const job = shown.get(String(m.args.jobId));
    if (!job) continue;
    if (m.type === "job.status") {
      const to = m.args.status as FieldStatus;
      if (canMoveTo(job.status, to)) {
        job.status = to;
        job.nextStatuses = [...NEXT_STATUSES[to]];
        job.pendingStatus = true;
        if (clockEffect(to) === "start") startClock(job, m.occurredAt, to === "in_progress");
        else stopClock(job, m.occurredAt);
      }
    } else if (m.type === "job.clock") {
      if (m.args.action === "stop") stopClock(job, m.occurredAt);
      else if (!job.clock && (job.status === "en_route" || job.status === "in_progress"))
        startClock(job, m.occurredAt, job.status === "in_progress");
    } else if (m.type === "job.checklist") {
      const item = job.checklist.find((i) => i.id === m.args.itemId);
      if (item) {
        item.done = m.args.done === true;
        job.pendingChecklist.add(item.id);
      }
    } else if (m.type === "job.signature") {
      job.signature = { name: String(m.args.name), signedAt: m.occurredAt, drawn: typeof m.args.image === "string" };
      job.pendingSignature = true;
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

const ACTIVE: readonly JobStatus[] = UNDER_WAY_STATUSES;

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
export function nextDays(
  upcoming: ShownJob[],
  now: string,
  timeZone: string,
): Array<{ day: string; label: string; jobs: ShownJob[] }> {
  const tomorrow = nextDayKey(now, timeZone);
  const days = new Map<string, ShownJob[]>();
  const sorted = [...upcoming].sort((a, b) => Date.parse(a.scheduledStart!) - Date.parse(b.scheduledStart!));
  for (const j of sorted) {
    const day = dayKey(j.scheduledStart!, timeZone);
    days.set(day, [...(days.get(day) ?? []), j]);
  }
  return [...days].map(([day, jobs]) => ({
    day,
    label:
      day === tomorrow
        ? "Tomorrow"
        : dateTimeFormat({ weekday: "long", month: "long", day: "numeric", timeZone }).format(
            new Date(jobs[0].scheduledStart!),
          ),
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
  if (m.type === "job.clock") return `${m.args.action === "stop" ? "Stopping" : "Starting"} the clock for ${title}`;
  if (m.type === "job.checklist") {
    const label = job?.checklist.find((i) => i.id === m.args.itemId)?.label;
    return `${m.args.done ? "Ticking" : "Unticking"} ${label ? `“${label}”` : "a checklist item"} for ${title}`;
  }
  if (m.type === "job.signature") return `The customer's signature for ${title}`;
  return `${m.type === "job.note" ? "A note" : "A time entry"} for ${title}`;
}

/** Whether the job may be completed now, and if not why (the business requires the checklist). */
export function completionBlock(job: ShownJob): string | null {
  if (!job.checklistRequired) return null;
  const open = job.checklist.filter((i) => !i.done);
  if (!open.length) return null;
  return `Tick every checklist item before completing: ${open.length === 1 ? "1 item is" : `${open.length} items are`} not ticked.`;
}
