import { Link, useFetcher, useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useRootData } from "~/components/root-data";
import type { Board, BoardJob, BoardMember } from "~/services/schedule/board.server";
import type { PackedBoard } from "~/services/schedule/packed-board";
import { ClockSinceIn } from "~/components/job-field";
import { Kept, useKeptMarkup } from "~/components/kept-markup";
import {
  addDays,
  atMinute,
  clock,
  clockRange,
  minuteOfDay,
  minutesBetween,
  shortDate,
  snap,
  SNAP_MINUTES,
  weekdayName,
} from "~/services/schedule/days";
import { dayHours, lanes, markOverlaps, spanOn } from "~/services/schedule/layout";
import { outsideWindow } from "~/services/schedule/windows";
import { humanize } from "~/utils/format";
import { VISIT_STATUSES } from "../../../db/enums";
import { EmptyState } from "../layout";

// The dispatch board: visits by technician and time. A crew visit shows in each member's row,
// marked with the others' names. Without JavaScript every card links to its schedule form
// (/visits/<id>/schedule; a job with no visit yet: /jobs/<id>/schedule); with JavaScript a card
// can be dragged to a technician and a time (dragging a crew visit from X's row to Y's puts Y in
// X's place on the crew), and on the day view its right edge resized: the change shows at once,
// a fetcher posts the same form, and a refused change puts the card back with the server's
// message. Keyboard users move a visit through the card's form.

/** A change on its way to the server: the card drawn where it was dropped meanwhile. */
type Move = {
  key: number;
  /** The card's id: the visit's, or the job's for a job with no visit yet. */
  cardId: string;
  visitId: string | null;
  jobId: string;
  crew: string[];
  start: string | null;
  end: string | null;
};
type MoveReply =
  { ok: true; message: string } | { ok?: false; result?: { error?: Record<string, string[] | null> | null } };
type Notice = { tone: "success" | "error"; text: string; cardId: string };
type Drop = { assigneeId: string | null; date: string; minute: number | null };
/** The card being dragged, and the row and day it was picked up from. */
type Dragged = { card: PlacedJob; rowId: string | null; date: string | null };

const DEFAULT_MINUTES = 60;
const DEFAULT_START = 9 * 60;
const LANE_PX = 74;

type PlacedJob = Omit<BoardJob, "visitId" | "start" | "end"> & {
  /** The card's key: its visit's id, or its job's. */
  id: string;
  visitId: string | null;
  start: string | null;
  end: string | null;
  pending?: boolean;
  /** The row this copy of the card sits in (a crew visit has one copy per member). */
  rowId?: string | null;
  /** The other crew members' names, for a crew visit. */
  others?: string[];
  overlaps: boolean;
};
type PlacedRow = { id: string | null; name: string; role: string | null; jobs: PlacedJob[] };

/** The card's key: its visit's id, or the job's for a job with no visit yet. */
const cardKey = (j: Pick<BoardJob, "visitId" | "jobId">) => j.visitId ?? j.jobId;

/** The card's time: "9:00–11:00 AM", or across days "Mon 8:00 AM – Wed 5:00 PM". */
export function cardTime(start: string, end: string): string {
  if (start.slice(0, 10) === end.slice(0, 10)) return clockRange(start, end);
  return `${weekdayName(start.slice(0, 10))} ${clock(start)} – ${weekdayName(end.slice(0, 10))} ${clock(end)}`;
}

/** A multi-day visit on one of its days: "From 8:00 AM", "All day", "Until 5:00 PM", and "Day 2 of 3". */
function dayPart(start: string, end: string, date: string): { label: string; day: string } {
  const first = start.slice(0, 10);
  // An end at midnight finishes the day before.
  const last = end.slice(11) === "00:00" ? addDays(end.slice(0, 10), -1) : end.slice(0, 10);
  const label = date === first ? `From ${clock(start)}` : date === last ? `Until ${clock(end)}` : "All day";
  return { label, day: `Day ${daysBetween(first, date) + 1} of ${daysBetween(first, last) + 1}` };
}

/** Whether a card covers the day `date` (it starts on it, or started before and runs into it). */
const coversDay = (j: { start: string | null; end: string | null }, date: string) =>
  !!j.start && (j.start.slice(0, 10) === date || (j.start.slice(0, 10) < date && j.end! > `${date}T00:00`));

/** Whole days from one date to another. */
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);

/** The crew after a card of row `from` is dropped on row `to`: `to` takes `from`'s place. */
export function crewAfterDrop(crew: string[], from: string | null, to: string | null): string[] {
  if (from === to) return crew;
  if (from === null) return to ? [to, ...crew.filter((id) => id !== to)] : crew;
  const out: string[] = [];
  for (const id of crew) {
    if (id === from) {
      if (to && !crew.includes(to)) out.push(to);
    } else out.push(id);
  }
  return out;
}

export function ScheduleBoard({ board, packed, returnTo }: { board: Board; packed: PackedBoard; returnTo: string }) {
  const navigate = useNavigate();
  // The cards' links are plain anchors (a Link each costs hundreds of cards their render time):
  // a plain click on one is followed in the app, as a Link's would be.
  const followLinks = useCallback(
    (e: React.MouseEvent) => {
      const a = (e.target as HTMLElement).closest?.("a");
      const href = a?.getAttribute("href");
      if (!a || !href?.startsWith("/") || a.target || e.defaultPrevented) return;
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      navigate(href);
    },
    [navigate],
  );
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [moves, setMoves] = useState<Move[]>([]);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [hover, setHover] = useState<Drop | null>(null);
  const [resizing, setResizing] = useState<{ cardId: string; end: string } | null>(null);
  const dragged = useRef<Dragged | null>(null);
  const nextKey = useRef(1);
  const canDrag = hydrated && board.canMove;
  // Where each card's Move form comes back to, escaped once (only what a query value must escape).
  const back = useMemo(
    () => encodeURIComponent(returnTo).replace(/%2F/g, "/").replace(/%3F/g, "?").replace(/%3D/g, "="),
    [returnTo],
  );

  // On the server the week's board (the unscheduled list and the grid) is rendered once per
  // content and kept: its markup is a function of the board and of the Move links' return
  // address, exactly what its key hashes (the board as the loader sent it: `board` is that
  // unpacked). The browser hydrates that markup with the board drawn as usual
  // (docs/decisions/465-week-grid-rendered-once-per-content.md).
  const keep = useKeptMarkup();
  const keepBoard = !!keep && !hydrated && board.view === "week" && board.members.some((m) => !m.nameOnly);
  // The server's visits with the changes still on their way laid over them (none to place here
  // when the board is kept: its render places them).
  const shown = useMemo(
    () => (keepBoard ? [] : placeCards(board, moves, resizing)),
    [keepBoard, board, moves, resizing],
  );
  const unscheduled = useMemo(() => shown.filter((j) => !j.start), [shown]);

  const queue = useCallback((move: Omit<Move, "key">) => {
    setNotice(null);
    setMoves((m) => [...m.filter((x) => x.cardId !== move.cardId), { ...move, key: nextKey.current++ }]);
  }, []);

  const drop = useCallback(
    (target: Drop | "unscheduled") => {
      const from = dragged.current;
      dragged.current = null;
      setHover(null);
      if (!from) return;
      const { card } = from;
      const duration =
        card.start && card.end
          ? Math.max(SNAP_MINUTES, minutesBetween(card.start, card.end))
          : (card.minutes ?? DEFAULT_MINUTES);
      const base = { cardId: card.id, visitId: card.visitId, jobId: card.jobId };
      if (target === "unscheduled") {
        if (!card.start || !card.visitId) return;
        queue({ ...base, crew: [], start: null, end: null });
        return;
      }
      let start: string;
      if (target.minute !== null) start = atMinute(target.date, target.minute);
      else if (card.start && from.date)
        start = `${addDays(card.start.slice(0, 10), daysBetween(from.date, target.date))}${card.start.slice(10)}`;
      else start = atMinute(target.date, DEFAULT_START);
      const crew = card.visitId
        ? crewAfterDrop(card.crew, from.rowId ?? null, target.assigneeId)
        : target.assigneeId
          ? [target.assigneeId]
          : [];
      const sameCrew = crew.length === card.crew.length && crew.every((id, i) => id === card.crew[i]);
      if (start === card.start && sameCrew) return;
      const end = atMinute(start.slice(0, 10), minuteOfDay(start) + duration);
      queue({ ...base, crew, start, end });
    },
    [queue],
  );

  const settled = useCallback((move: Move, reply: MoveReply) => {
    setMoves((m) => m.filter((x) => x.key !== move.key));
    if (reply.ok) setNotice({ tone: "success", text: reply.message, cardId: move.cardId });
    else {
      const messages = Object.values(reply.result?.error ?? {}).flatMap((m) => m ?? []);
      setNotice({
        tone: "error",
        text: messages.join(" ") || "The change could not be saved. Please try again.",
        cardId: move.cardId,
      });
    }
  }, []);

  // Resizing a card on the day view: its right edge follows the pointer on the 15-minute grid.
  const resizeHandle = (job: PlacedJob) => {
    if (!canDrag || job.pending || !job.visitId || !job.start || !job.end) return null;
    if (job.status === "completed" || job.status === "cancelled") return null;
    const onPointerDown = (e: React.PointerEvent<HTMLSpanElement>) => {
      e.preventDefault();
      e.stopPropagation();
      const handle = e.currentTarget;
      const track = handle.closest(".track") as HTMLElement | null;
      if (!track) return;
      handle.setPointerCapture(e.pointerId);
      const date = track.dataset.date!;
      const from = Number(track.dataset.from);
      const to = Number(track.dataset.to);
      const startMinute = job.start!.slice(0, 10) < date ? 0 : minuteOfDay(job.start!);
      const endAt = (clientX: number) => {
        const rect = track.getBoundingClientRect();
        const minute = snap(from + ((clientX - rect.left) / rect.width) * (to - from));
        return atMinute(date, Math.min(to, Math.max(startMinute + SNAP_MINUTES, minute)));
      };
      let last = job.end!;
      const move = (ev: PointerEvent) => {
        last = endAt(ev.clientX);
        setResizing({ cardId: job.id, end: last });
      };
      const up = () => {
        handle.removeEventListener("pointermove", move);
        handle.removeEventListener("pointerup", up);
        handle.removeEventListener("pointercancel", up);
        setResizing(null);
        if (last !== job.end)
          queue({
            cardId: job.id,
            visitId: job.visitId,
            jobId: job.jobId,
            crew: job.crew,
            start: job.start,
            end: last,
          });
      };
      handle.addEventListener("pointermove", move);
      handle.addEventListener("pointerup", up);
      handle.addEventListener("pointercancel", up);
    };
    return (
      <span
        className="job-resize"
        role="presentation"
        title="Drag to change the end time"
        onPointerDown={onPointerDown}
        onDragStart={(e) => e.preventDefault()}
      />
    );
  };

  const dragProps = (job: PlacedJob, date: string | null) =>
    canDrag && !job.pending
      ? {
          draggable: true,
          onDragStart: (e: React.DragEvent) => {
            if ((e.target as HTMLElement).classList?.contains("job-resize")) {
              e.preventDefault();
              return;
            }
            dragged.current = { card: job, rowId: job.rowId ?? null, date };
            e.dataTransfer.effectAllowed = "move";
            e.dataTransfer.setData("text/plain", job.id);
          },
          onDragEnd: () => {
            dragged.current = null;
            setHover(null);
          },
        }
      : {};

  const card = (job: PlacedJob, date: string | null, style?: React.CSSProperties, resizable = false) => (
    <JobCard
      key={`${job.id}-${job.rowId ?? ""}`}
      job={job}
      date={date}
      compact={board.view === "week" && date !== null}
      style={style}
      returnTo={back}
      timeZone={board.timeZone}
      canMove={board.canMove}
      refused={notice?.tone === "error" && notice.cardId === job.id}
      resize={resizable ? resizeHandle(job) : null}
      {...dragProps(job, date)}
    />
  );

  const dropZone = (target: Drop, measure?: (e: React.DragEvent) => number) =>
    canDrag
      ? {
          onDragOver: (e: React.DragEvent) => {
            if (!dragged.current) return;
            e.preventDefault();
            e.dataTransfer.dropEffect = "move";
            const next = { ...target, minute: measure ? measure(e) : null };
            setHover((h) =>
              h && h.assigneeId === next.assigneeId && h.date === next.date && h.minute === next.minute ? h : next,
            );
          },
          onDragLeave: (e: React.DragEvent) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setHover(null);
          },
          onDrop: (e: React.DragEvent) => {
            e.preventDefault();
            drop({ ...target, minute: measure ? measure(e) : null });
          },
        }
      : {};

  const isHover = (assigneeId: string | null, date: string) =>
    hover && hover.assigneeId === assigneeId && hover.date === date;

  const rows = useMemo(() => (keepBoard ? [] : placeRows(board, shown)), [keepBoard, board, shown]);
  const boardLabel = board.view === "day" ? "Day schedule by technician" : "Week schedule by technician";
  // The board's two parts: the unscheduled list and the grid. Rendered apart from the router on
  // the server when kept, so its links are plain anchors the board follows (see `followLinks`).
  const layout = (rows: PlacedRow[], unscheduled: PlacedJob[]) => (
    <>
      <section
        className="unscheduled"
        aria-labelledby="unscheduled-title"
        {...(canDrag ? unscheduledZone(drop, dragged, setHover) : {})}
      >
        <div className="unscheduled-head">
          <h2 id="unscheduled-title">
            Unscheduled{" "}
            <span className="count">
              {unscheduled.length < board.unscheduled.length ? unscheduled.length : board.unscheduledTotal}
            </span>
          </h2>
          {board.canMove ? (
            <p className="muted small board-tip">
              Drag a card onto a technician and a time, or use its <em>Move</em> link. Drop a card here to unschedule
              it.
            </p>
          ) : null}
        </div>
        {unscheduled.length ? (
          <ul className="unscheduled-list">
            {unscheduled.map((j) => (
              <li key={j.id}>{card(j, null)}</li>
            ))}
          </ul>
        ) : (
          <p className="muted small">Every open job has a time. New jobs and converted requests wait here.</p>
        )}
        {board.unscheduledTotal > board.unscheduled.length ? (
          <p className="muted small">
            Showing the {board.unscheduled.length} oldest. <a href="/jobs?status=unscheduled">All unscheduled jobs</a>
          </p>
        ) : null}
      </section>
      <section className={`board board-${board.view}`} aria-label={boardLabel}>
        {rows.length === 0 ? (
          <EmptyState title="No technicians yet">
            <p>
              Add technicians on the <Link to="/team">Team</Link> page; each gets a row here.
            </p>
          </EmptyState>
        ) : board.view === "week" ? (
          <WeekGrid board={board} rows={rows} card={card} dropZone={dropZone} isHover={isHover} />
        ) : (
          <DayGrid board={board} rows={rows} card={card} dropZone={dropZone} hover={hover} />
        )}
      </section>
    </>
  );

  return (
    <>
      <div className="board-notices" aria-live="polite">
        {notice ? (
          <div
            className={`alert alert-${notice.tone === "error" ? "error" : "success"} board-notice`}
            role={notice.tone === "error" ? "alert" : "status"}
          >
            <p>{notice.text}</p>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setNotice(null)}>
              Dismiss
            </button>
          </div>
        ) : null}
      </div>
      {moves.map((m) => (
        <PendingMove key={m.key} move={m} onSettled={settled} />
      ))}
      {keep && keepBoard ? (
        <Kept
          tag="div"
          className={`board-layout${board.ownOnly ? " board-own" : ""}`}
          keep={keep}
          kind="week-board"
          inputs={{ packed, back }}
          render={() => {
            const placed = placeCards(board, moves, resizing);
            return layout(
              placeRows(board, placed),
              placed.filter((j) => !j.start),
            );
          }}
        />
      ) : (
        // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- the links inside are the controls; this only routes their clicks in the app
        <div className={`board-layout${board.ownOnly ? " board-own" : ""}`} onClick={followLinks}>
          {layout(rows, unscheduled)}
        </div>
      )}
      <Legend />
    </>
  );
}

function unscheduledZone(
  drop: (t: "unscheduled") => void,
  dragged: React.MutableRefObject<Dragged | null>,
  setHover: (h: null) => void,
) {
  return {
    onDragOver: (e: React.DragEvent) => {
      if (!dragged.current?.card.start || !dragged.current.card.visitId) return;
      e.preventDefault();
      setHover(null);
    },
    onDrop: (e: React.DragEvent) => {
      e.preventDefault();
      drop("unscheduled");
    },
  };
}

/** The board's cards (visits and unscheduled jobs) with the changes on their way applied. */
function placeCards(board: Board, moves: Move[], resizing: { cardId: string; end: string } | null): PlacedJob[] {
  const moved = new Map(moves.map((m) => [m.cardId, m]));
  return [...board.visits, ...board.unscheduled].map((j) => {
    const id = cardKey(j);
    const m = moved.get(id);
    const placed: PlacedJob = m
      ? {
          ...j,
          id,
          visitId: j.visitId ?? null,
          crew: m.crew,
          start: m.start,
          end: m.end,
          outsideWindow: outsideWindow(m.start, j.preferred ?? null) ?? undefined,
          pending: true,
          overlaps: false,
        }
      : { ...j, id, visitId: j.visitId ?? null, start: j.start ?? null, end: j.end ?? null, overlaps: false };
    if (resizing?.cardId === id) placed.end = resizing.end;
    return placed;
  });
}

/**
 * The board's rows: each placed card in the row of each crew member (a visit with no crew in
 * "Unassigned"), overlaps marked per row.
 */
function placeRows(board: Board, shown: PlacedJob[]): PlacedRow[] {
  const names = new Map(board.members.map((m) => [m.id, m.name]));
  const first = board.days[0];
  const after = board.days[board.days.length - 1] + "T24:00";
  const inWindow = shown.filter((j) => j.start && j.start < after && j.end! > `${first}T00:00`);
  const rowOf = (id: string | null, name: string, role: string | null): PlacedRow => ({
    id,
    name,
    role,
    jobs: markOverlaps(
      inWindow
        .filter((j) => (id === null ? j.crew.length === 0 : j.crew.includes(id)))
        .map((j) => ({
          ...j,
          rowId: id,
          others: id === null ? [] : j.crew.filter((c) => c !== id).map((c) => names.get(c) ?? "a former member"),
        })),
    ),
  });
  const rows = board.members.filter((m: BoardMember) => !m.nameOnly).map((m) => rowOf(m.id, m.name, m.role));
  if (!board.ownOnly && inWindow.some((j) => j.crew.length === 0)) {
    const unassigned = rowOf(null, "Unassigned", null);
    // Unassigned visits have no technician to overlap.
    for (const j of unassigned.jobs) j.overlaps = false;
    rows.push(unassigned);
  }
  return rows;
}

function PendingMove({ move, onSettled }: { move: Move; onSettled: (m: Move, reply: MoveReply) => void }) {
  const fetcher = useFetcher<MoveReply>();
  const csrf = useRootData()?.csrf ?? "";
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const form = new FormData();
    form.set("_csrf", csrf);
    form.set("via", "board");
    if (move.visitId) {
      for (const id of move.crew) form.append("assigneeIds", id);
      form.set("start", move.start ?? "");
      form.set("end", move.end ?? "");
      fetcher.submit(form, { method: "post", action: `/visits/${move.visitId}/schedule` });
    } else {
      // A job with no visit yet: its own schedule action makes its first visit.
      form.set("assigneeId", move.crew[0] ?? "");
      form.set("scheduledStart", move.start ?? "");
      form.set("scheduledEnd", move.end ?? "");
      fetcher.submit(form, { method: "post", action: `/jobs/${move.jobId}/schedule` });
    }
  }, [csrf, fetcher, move]);
  useEffect(() => {
    if (sent.current && fetcher.state === "idle" && fetcher.data) onSettled(move, fetcher.data);
  }, [fetcher.state, fetcher.data, move, onSettled]);
  return null;
}

type CardFn = (
  job: PlacedJob,
  date: string | null,
  style?: React.CSSProperties,
  resizable?: boolean,
) => React.ReactNode;
type ZoneFn = (target: Drop, measure?: (e: React.DragEvent) => number) => Record<string, unknown>;

function WeekGrid({
  board,
  rows,
  card,
  dropZone,
  isHover,
}: {
  board: Board;
  rows: PlacedRow[];
  card: CardFn;
  dropZone: ZoneFn;
  isHover: (a: string | null, d: string) => boolean | null;
}) {
  return (
    <div className="board-scroll">
      <table className="week-grid">
        <caption className="visually-hidden">Visits by technician and day</caption>
        <thead>
          <tr>
            <th scope="col" className="tech-col">
              Technician
            </th>
            {board.days.map((d) => (
              <th key={d} scope="col" className={d === board.today ? "is-today" : undefined}>
                {/* A plain anchor, followed in the app by the board's click handler (see `followLinks`):
                    the grid is rendered apart from the router on the server. */}
                <a href={`/schedule?view=day&date=${d}`} aria-label={`${weekdayName(d)} ${shortDate(d)}, day view`}>
                  <span className="day-name">{weekdayName(d)}</span> <span className="day-date">{shortDate(d)}</span>
                </a>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id ?? "unassigned"} data-assignee={r.id ?? ""}>
              <th scope="row" className="tech-col">
                <TechName row={r} />
              </th>
              {board.days.map((d) => {
                const jobs = r.jobs.filter((j) => coversDay(j, d));
                return (
                  <td
                    key={d}
                    data-date={d}
                    className={`${d === board.today ? "is-today " : ""}${isHover(r.id, d) ? "is-drop" : ""}`}
                    {...dropZone({ assigneeId: r.id, date: d, minute: null })}
                  >
                    {jobs.length ? (
                      <ul className="cell-jobs">
                        {jobs.map((j) => (
                          <li key={j.id}>{card(j, d)}</li>
                        ))}
                      </ul>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DayGrid({
  board,
  rows,
  card,
  dropZone,
  hover,
}: {
  board: Board;
  rows: PlacedRow[];
  card: CardFn;
  dropZone: ZoneFn;
  hover: Drop | null;
}) {
  const date = board.days[0];
  const [from, to] = dayHours(
    rows.flatMap((r) => r.jobs),
    date,
  );
  const span = to - from;
  const hours = Array.from({ length: span / 60 }, (_, i) => from + i * 60);
  const pct = (minute: number) => `${((minute - from) / span) * 100}%`;
  const measure = (e: React.DragEvent) => {
    const rect = (e.currentTarget as HTMLElement).getBoundingClientRect();
    const minute = from + ((e.clientX - rect.left) / rect.width) * span;
    return Math.min(to - 15, Math.max(from, snap(minute)));
  };
  return (
    <div className="board-scroll">
      <div className="day-grid" style={{ ["--hours" as string]: hours.length }}>
        <div className="day-head" aria-hidden="true">
          <div className="tech-col">Technician</div>
          <div className="hour-axis">
            {hours.map((h) => (
              <span key={h} style={{ left: pct(h) }}>
                {clock(atMinute(date, h)).replace(":00", "")}
              </span>
            ))}
          </div>
        </div>
        {rows.map((r) => {
          const dayJobs = r.jobs;
          const { lane, count } = lanes(dayJobs, date);
          const dropping =
            hover && hover.assigneeId === r.id && hover.date === date && hover.minute !== null ? hover.minute : null;
          return (
            <div key={r.id ?? "unassigned"} className="day-row" data-assignee={r.id ?? ""}>
              <div className="tech-col">
                <TechName row={r} />
              </div>
              <div
                className="track"
                data-date={date}
                data-from={from}
                data-to={to}
                style={{ height: count * LANE_PX + 12 }}
                {...dropZone({ assigneeId: r.id, date, minute: null }, measure)}
              >
                {hours.map((h) => (
                  <span key={h} className="hour-line" style={{ left: pct(h) }} aria-hidden="true" />
                ))}
                {dropping !== null ? (
                  <span className="drop-marker" style={{ left: pct(dropping) }} aria-hidden="true">
                    {clock(atMinute(date, dropping))}
                  </span>
                ) : null}
                {dayJobs.length === 0 ? <span className="track-empty">No visits</span> : null}
                {dayJobs.map((j) => {
                  const [a, b] = spanOn(j, date);
                  const left = Math.max(a, from);
                  return card(
                    j,
                    date,
                    {
                      left: pct(left),
                      width: `calc(${((Math.min(b, to) - left) / span) * 100}% - 3px)`,
                      top: 6 + (lane.get(j.id) ?? 0) * LANE_PX,
                    },
                    true,
                  );
                })}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

function TechName({ row }: { row: PlacedRow }) {
  const count = row.jobs.filter((j) => j.status !== "cancelled").length;
  const initials = row.name
    .split(/\s+/)
    .map((p) => p[0])
    .slice(0, 2)
    .join("")
    .toUpperCase();
  return (
    <span className="tech">
      <span className={`avatar${row.id ? "" : " avatar-none"}`} aria-hidden="true">
        {row.id ? initials : "?"}
      </span>
      <span className="tech-text">
        <span className="tech-name">{row.name}</span>
        <span className="tech-meta">{count === 1 ? "1 visit" : `${count} visits`}</span>
      </span>
    </span>
  );
}

/**
 * A card, kept small: a week of a big firm is hundreds of them. Its links are plain anchors (the
 * board follows them in the app, see `followLinks`), its data sits in the attributes the board's
 * scripts and tests read, and on the week view it leaves out what that view does not show (the
 * address and the status word: the colour and the legend say it).
 */
function JobCard({
  job,
  date,
  compact,
  style,
  returnTo,
  timeZone,
  canMove,
  refused,
  resize,
  ...drag
}: {
  job: PlacedJob;
  date: string | null;
  compact: boolean;
  style?: React.CSSProperties;
  returnTo: string;
  /** The viewer's zone (the board's), for the running clock. */
  timeZone: string;
  canMove: boolean;
  refused: boolean;
  resize: React.ReactNode;
  draggable?: boolean;
  onDragStart?: (e: React.DragEvent) => void;
  onDragEnd?: () => void;
}) {
  const crew = (job.others?.length ?? 0) > 0;
  const multiDay = !!job.start && !!job.end && job.start.slice(0, 10) !== job.end.slice(0, 10);
  // A scheduled visit's colour is the card's own (the legend's first).
  let classes = job.status === "scheduled" ? "job-card" : `job-card status-${job.status}`;
  if (job.overlaps) classes += " is-overlap";
  if (job.outsideWindow) classes += " is-outside";
  if (job.pending) classes += " is-pending";
  if (refused) classes += " is-refused";
  if (crew) classes += " is-crew";
  if (multiDay) {
    classes += " is-multi-day";
    if (date && job.start!.slice(0, 10) < date) classes += " continues-before";
    if (date && job.end!.slice(0, 10) > date) classes += " continues-after";
  }
  const time = job.start ? cardTime(job.start, job.end!) : "No time yet";
  const part = multiDay && date ? dayPart(job.start!, job.end!, date) : null;
  const moveTo = job.visitId ? `/visits/${job.visitId}/schedule` : `/jobs/${job.jobId}/schedule`;
  const movable = canMove && job.status !== "completed" && job.status !== "cancelled";
  const flags = job.overlaps || job.outsideWindow || movable;
  return (
    <article
      className={classes}
      style={style}
      data-job-id={job.jobId}
      data-start={job.start ?? ""}
      data-end={compact ? undefined : (job.end ?? "")}
      data-visit-id={job.visitId ?? undefined}
      data-minutes={job.minutes ?? undefined}
      {...drag}
    >
      {part ? (
        <b>
          {part.label}
          <span className="visually-hidden">, {time}</span>
        </b>
      ) : (
        <b>{time}</b>
      )}
      {part ? <small>{part.day}</small> : null}
      {!compact && job.status !== "unscheduled" ? <small className="job-status">{humanize(job.status)}</small> : null}
      <a href={`/jobs/${job.jobId}`} draggable={drag.draggable ? false : undefined}>
        {job.title}
      </a>
      <p>{job.customerName}</p>
      {job.address && !compact ? <p className="job-address">{job.address}</p> : null}
      {crew ? (
        <p className="job-crew">
          <em className="flag flag-crew">Crew</em> with {job.others!.join(", ")}
        </p>
      ) : null}
      {job.clock ? (
        <p className="job-clock small">
          <ClockSinceIn startedAt={job.clock.startedAt} onSiteAt={job.clock.onSiteAt} timeZone={timeZone} />
        </p>
      ) : null}
      {job.outsideWindow ? <p className="visually-hidden">{job.outsideWindow}</p> : null}
      {flags ? (
        <div className="job-foot">
          {job.overlaps ? <em className="flag flag-overlap">Overlap</em> : null}
          {job.outsideWindow ? (
            <em className="flag flag-window" title={job.outsideWindow}>
              Outside window
            </em>
          ) : null}
          {movable ? (
            // "Move" beside the title in the card's list item names which visit it moves.
            <a
              className="job-move"
              href={`${moveTo}?returnTo=${returnTo}`}
              draggable={drag.draggable ? false : undefined}
            >
              Move
            </a>
          ) : null}
        </div>
      ) : null}
      {job.pending ? (
        <span className="job-saving" role="status">
          Saving…
        </span>
      ) : null}
      {resize}
    </article>
  );
}

function Legend() {
  const items = VISIT_STATUSES;
  return (
    <ul className="board-legend" aria-label="Legend">
      {items.map((s) => (
        <li key={s}>
          <span className={`swatch status-${s}`} aria-hidden="true" />
          {humanize(s)}
        </li>
      ))}
      <li>
        <span className="flag flag-overlap">Overlap</span> two visits of one technician at once
      </li>
      <li>
        <span className="flag flag-crew">Crew</span> a visit with several technicians
      </li>
      <li>
        <span className="flag flag-window">Outside window</span> not in the time the customer asked for
      </li>
    </ul>
  );
}
