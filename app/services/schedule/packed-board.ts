// The board as the loader sends it: the same `Board`, written short. The week of a big firm is
// hundreds of cards, and its data is serialised several times per request (the loader's JSON,
// read back by the router, then written into the page for hydration) and sent in the page, so
// each card is a tuple: its crew are indexes into the board's members, its times minutes from
// the board's first day, and a field that is usually the same (the status, the address, the
// preferred window, the running clock, the booking length) is sent only when it has something
// (docs/decisions/476-the-week-board-sends-its-data-short.md). `unpackBoard` gives back exactly
// the `Board` that `packBoard` was given: the server renders from it, the browser hydrates from
// it, so the two render the same markup.
import type { Board, BoardJob } from "./board.server";
import { addDays, minuteOfDay, minutesBetween } from "./days";
import { outsideWindow } from "./windows";

/** The fields a card has only sometimes (a visit's status only when it is not "scheduled"). */
type CardRest = Partial<Pick<BoardJob, "status" | "address" | "preferred" | "clock" | "minutes">>;
/** A crew member: the index of their row in `members`, or their id when they have none. */
type CrewRef = number | string;
/**
 * A visit: its id, its job's id, title and customer, crew, start and length in minutes, and the
 * rare fields when set. Two forms rather than an optional last element: the loader data's JSON
 * type turns an optional tuple element into a rest array, which the unpacking does not take.
 */
export type PackedVisit =
  | [
      visitId: string,
      jobId: string,
      title: string,
      customerName: string,
      crew: CrewRef[],
      start: number,
      minutes: number,
    ]
  | [
      visitId: string,
      jobId: string,
      title: string,
      customerName: string,
      crew: CrewRef[],
      start: number,
      minutes: number,
      rest: CardRest,
    ];
/** A job waiting for its first visit: its id, title, customer and crew (its assignee). */
export type PackedJob =
  | [jobId: string, title: string, customerName: string, crew: CrewRef[]]
  | [jobId: string, title: string, customerName: string, crew: CrewRef[], rest: CardRest];
export type PackedBoard = Omit<Board, "visits" | "unscheduled"> & { visits: PackedVisit[]; unscheduled: PackedJob[] };

/** The status most cards of each list have, left out of them. */
const VISIT_STATUS = "scheduled";
const WAITING_STATUS = "unscheduled";

export function packBoard(board: Board): PackedBoard {
  const { visits, unscheduled, ...rest } = board;
  const row = new Map(board.members.map((m, i) => [m.id, i]));
  const crewOf = (crew: string[]): CrewRef[] => crew.map((id) => row.get(id) ?? id);
  const midnight = `${board.days[0]}T00:00`;
  // Minutes from the first day's midnight, each date's offset worked out once (a week has few).
  const days = new Map<string, number>();
  const minuteOf = (local: string) => {
    const date = local.slice(0, 10);
    let day = days.get(date);
    if (day === undefined) days.set(date, (day = minutesBetween(midnight, `${date}T00:00`)));
    return day + minuteOfDay(local);
  };
  const restOf = (j: BoardJob, status: string): CardRest | null => {
    const r: CardRest = {};
    if (j.status !== status) r.status = j.status;
    if (j.address !== undefined) r.address = j.address;
    if (j.preferred !== undefined) r.preferred = j.preferred;
    if (j.clock !== undefined) r.clock = j.clock;
    if (j.minutes !== undefined) r.minutes = j.minutes;
    return Object.keys(r).length ? r : null;
  };
  return {
    ...rest,
    visits: visits.map((v): PackedVisit => {
      const packed: PackedVisit = [
        v.visitId!,
        v.jobId,
        v.title,
        v.customerName,
        crewOf(v.crew),
        minuteOf(v.start!),
        minuteOf(v.end!) - minuteOf(v.start!),
      ];
      const r = restOf(v, VISIT_STATUS);
      return r ? [...packed, r] : packed;
    }),
    unscheduled: unscheduled.map((j): PackedJob => {
      const packed: PackedJob = [j.jobId, j.title, j.customerName, crewOf(j.crew)];
      const r = restOf(j, WAITING_STATUS);
      return r ? [...packed, r] : packed;
    }),
  };
}

/** The card's fields in the order `BoardJob` lists them (the board renders from these objects). */
function card(
  visitId: string | undefined,
  jobId: string,
  title: string,
  customerName: string,
  crew: string[],
  start: string | undefined,
  end: string | undefined,
  status: string,
  rest: CardRest | undefined,
): BoardJob {
  const c: BoardJob = { jobId, title, status: rest?.status ?? status, customerName, crew };
  if (visitId !== undefined) c.visitId = visitId;
  if (rest?.address !== undefined) c.address = rest.address;
  if (start !== undefined) {
    c.start = start;
    c.end = end;
  }
  if (rest?.preferred !== undefined) {
    c.preferred = rest.preferred;
    const outside = outsideWindow(start ?? null, rest.preferred);
    if (outside) c.outsideWindow = outside;
  }
  if (rest?.clock !== undefined) c.clock = rest.clock;
  if (rest?.minutes !== undefined) c.minutes = rest.minutes;
  return c;
}

export function unpackBoard(packed: PackedBoard): Board {
  const { visits, unscheduled, ...rest } = packed;
  const crewOf = (crew: CrewRef[]) => crew.map((r) => (typeof r === "number" ? packed.members[r].id : r));
  // "YYYY-MM-DDTHH:MM" of minutes from the first day's midnight, each date made once.
  const dates = new Map<number, string>();
  const two = (n: number) => String(n).padStart(2, "0");
  const at = (minutes: number) => {
    const day = Math.floor(minutes / 1440);
    let date = dates.get(day);
    if (date === undefined) dates.set(day, (date = addDays(packed.days[0], day)));
    const m = minutes - day * 1440;
    return `${date}T${two(Math.floor(m / 60))}:${two(m % 60)}`;
  };
  return {
    ...rest,
    visits: visits.map(([visitId, jobId, title, customerName, crew, start, minutes, r]) =>
      card(visitId, jobId, title, customerName, crewOf(crew), at(start), at(start + minutes), VISIT_STATUS, r),
    ),
    unscheduled: unscheduled.map(([jobId, title, customerName, crew, r]) =>
      card(undefined, jobId, title, customerName, crewOf(crew), undefined, undefined, WAITING_STATUS, r),
    ),
  };
}
