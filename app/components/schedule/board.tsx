import { Link, useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useRootData } from "~/components/root-data";
import type { Board, BoardJob, BoardRow } from "~/services/schedule/board.server";
import { ClockSince } from "~/components/job-field";
import { atMinute, clock, clockRange, minuteOfDay, shortDate, snap, weekdayName } from "~/services/schedule/days";
import { dayHours, lanes, markOverlaps, spanOn } from "~/services/schedule/layout";
import { minutesBetween } from "~/services/schedule/schemas";
import { outsideWindow } from "~/services/schedule/windows";
import { humanize } from "~/utils/format";
import { VISIT_STATUSES } from "../../../db/enums";
import { EmptyState } from "../layout";

// The dispatch board. Without JavaScript every card links to its schedule form
// (/jobs/<id>/schedule); with JavaScript a card can be dragged to a technician and a time:
// the move shows at once, a fetcher posts the same form, and a refused move puts the card
// back with the server's message. Keyboard users move a job through the card's form.

/** A move on its way to the server: the job drawn where it was dropped meanwhile. */
type Move = { key: number; jobId: string; assigneeId: string | null; start: string | null; end: string | null };
type MoveReply =
  { ok: true; message: string } | { ok?: false; result?: { error?: Record<string, string[] | null> | null } };
type Notice = { tone: "success" | "error"; text: string; jobId: string };
type Drop = { assigneeId: string | null; date: string; minute: number | null };

const DEFAULT_MINUTES = 60;
const DEFAULT_START = 9 * 60;
const LANE_PX = 74;

type JsonBoard = Board;

export function ScheduleBoard({ board, returnTo }: { board: JsonBoard; returnTo: string }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [moves, setMoves] = useState<Move[]>([]);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [hover, setHover] = useState<Drop | null>(null);
  const dragged = useRef<BoardJob | null>(null);
  const nextKey = useRef(1);
  const canDrag = hydrated && board.canMove;

  // The server's jobs with the moves still on their way laid over them.
  const { rows, unscheduled } = useMemo(() => place(board, moves), [board, moves]);

  const drop = useCallback((target: Drop | "unscheduled") => {
    const job = dragged.current;
    dragged.current = null;
    setHover(null);
    if (!job) return;
    const duration = job.start && job.end ? Math.max(15, minutesBetween(job.start, job.end)) : DEFAULT_MINUTES;
    let move: Omit<Move, "key">;
    if (target === "unscheduled") {
      if (!job.start) return;
      move = { jobId: job.id, assigneeId: null, start: null, end: null };
    } else {
      const minute = target.minute ?? (job.start ? minuteOfDay(job.start) : DEFAULT_START);
      const start = atMinute(target.date, minute);
      if (start === job.start && target.assigneeId === job.assigneeId) return;
      move = { jobId: job.id, assigneeId: target.assigneeId, start, end: atMinute(target.date, minute + duration) };
    }
    setNotice(null);
    setMoves((m) => [...m.filter((x) => x.jobId !== move.jobId), { ...move, key: nextKey.current++ }]);
  }, []);

  const settled = useCallback((move: Move, reply: MoveReply) => {
    setMoves((m) => m.filter((x) => x.key !== move.key));
    if (reply.ok) setNotice({ tone: "success", text: reply.message, jobId: move.jobId });
    else {
      const messages = Object.values(reply.result?.error ?? {}).flatMap((m) => m ?? []);
      setNotice({
        tone: "error",
        text: messages.join(" ") || "The move could not be saved. Please try again.",
        jobId: move.jobId,
      });
    }
  }, []);

  const dragProps = (job: PlacedJob) =>
    canDrag && !job.pending
      ? {
          draggable: true,
          onDragStart: (e: React.DragEvent) => {
            dragged.current = job;
            e.dataTransfer.effectAllowed = "move";
            e.dataTransfer.setData("text/plain", job.id);
          },
          onDragEnd: () => {
            dragged.current = null;
            setHover(null);
          },
        }
      : {};

  const card = (job: PlacedJob, style?: React.CSSProperties) => (
    <JobCard
      key={job.id}
      job={job}
      style={style}
      returnTo={returnTo}
      canMove={board.canMove}
      refused={notice?.tone === "error" && notice.jobId === job.id}
      {...dragProps(job)}
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
      <div className={`board-layout${board.ownOnly ? " board-own" : ""}`}>
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
                <li key={j.id}>{card(j)}</li>
              ))}
            </ul>
          ) : (
            <p className="muted small">Every open job has a time. New jobs and converted requests wait here.</p>
          )}
          {board.unscheduledTotal > board.unscheduled.length ? (
            <p className="muted small">
              Showing the {board.unscheduled.length} oldest.{" "}
              <Link to="/jobs?status=unscheduled">All unscheduled jobs</Link>
            </p>
          ) : null}
        </section>
        <section
          className={`board board-${board.view}`}
          aria-label={board.view === "day" ? "Day schedule by technician" : "Week schedule by technician"}
        >
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
      </div>
      <Legend />
    </>
  );
}

function unscheduledZone(
  drop: (t: "unscheduled") => void,
  dragged: React.MutableRefObject<BoardJob | null>,
  setHover: (h: null) => void,
) {
  return {
    onDragOver: (e: React.DragEvent) => {
      if (!dragged.current?.start) return;
      e.preventDefault();
      setHover(null);
    },
    onDrop: (e: React.DragEvent) => {
      e.preventDefault();
      drop("unscheduled");
    },
  };
}

type PlacedJob = BoardJob & { pending?: boolean };
type PlacedRow = Omit<BoardRow, "jobs"> & { jobs: PlacedJob[] };

/** The board's rows and unscheduled list with the moves on their way applied. */
function place(board: JsonBoard, moves: Move[]): { rows: PlacedRow[]; unscheduled: PlacedJob[] } {
  const moved = new Map(moves.map((m) => [m.jobId, m]));
  const all = new Map<string, PlacedJob>();
  for (const j of [...board.rows.flatMap((r) => r.jobs), ...board.unscheduled]) all.set(j.id, j);
  const shown = [...all.values()].map((j): PlacedJob => {
    const m = moved.get(j.id);
    return m
      ? {
          ...j,
          assigneeId: m.assigneeId,
          start: m.start,
          end: m.end,
          outsideWindow: outsideWindow(m.start, j.preferred),
          pending: true,
        }
      : j;
  });
  const first = board.days[0];
  const after = board.days[board.days.length - 1] + "T24:00";
  const rows = board.rows.map((r) => ({
    ...r,
    jobs: markOverlaps(
      shown
        .filter((j) => j.start && j.assigneeId === r.id && j.start < after && j.end! > `${first}T00:00`)
        .map((j) => ({ ...j })),
    ),
  }));
  // Unassigned jobs have no row of technician to overlap in.
  for (const r of rows) if (!r.id) for (const j of r.jobs) j.overlaps = false;
  const unscheduled = shown.filter((j) => !j.start);
  return { rows, unscheduled };
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
    form.set("assigneeId", move.assigneeId ?? "");
    form.set("scheduledStart", move.start ?? "");
    form.set("scheduledEnd", move.end ?? "");
    fetcher.submit(form, { method: "post", action: `/jobs/${move.jobId}/schedule` });
  }, [csrf, fetcher, move]);
  useEffect(() => {
    if (sent.current && fetcher.state === "idle" && fetcher.data) onSettled(move, fetcher.data);
  }, [fetcher.state, fetcher.data, move, onSettled]);
  return null;
}

type CardFn = (job: PlacedJob, style?: React.CSSProperties) => React.ReactNode;
type ZoneFn = (target: Drop, measure?: (e: React.DragEvent) => number) => Record<string, unknown>;

function WeekGrid({
  board,
  rows,
  card,
  dropZone,
  isHover,
}: {
  board: JsonBoard;
  rows: PlacedRow[];
  card: CardFn;
  dropZone: ZoneFn;
  isHover: (a: string | null, d: string) => boolean | null;
}) {
  return (
    <div className="board-scroll">
      <table className="week-grid">
        <caption className="visually-hidden">Jobs by technician and day</caption>
        <thead>
          <tr>
            <th scope="col" className="tech-col">
              Technician
            </th>
            {board.days.map((d) => (
              <th key={d} scope="col" className={d === board.today ? "is-today" : undefined}>
                <Link to={`/schedule?view=day&date=${d}`} aria-label={`${weekdayName(d)} ${shortDate(d)}, day view`}>
                  <span className="day-name">{weekdayName(d)}</span> <span className="day-date">{shortDate(d)}</span>
                </Link>
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
                const jobs = r.jobs.filter(
                  (j) => j.start!.slice(0, 10) === d || (j.start!.slice(0, 10) < d && d === board.days[0]),
                );
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
                          <li key={j.id}>{card(j)}</li>
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
  board: JsonBoard;
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
                {dayJobs.length === 0 ? <span className="track-empty">No jobs</span> : null}
                {dayJobs.map((j) => {
                  const [a, b] = spanOn(j, date);
                  const left = Math.max(a, from);
                  return card(j, {
                    left: pct(left),
                    width: `calc(${((Math.min(b, to) - left) / span) * 100}% - 3px)`,
                    top: 6 + (lane.get(j.id) ?? 0) * LANE_PX,
                  });
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
        <span className="tech-meta">{count === 1 ? "1 job" : `${count} jobs`}</span>
      </span>
    </span>
  );
}

function JobCard({
  job,
  style,
  returnTo,
  canMove,
  refused,
  ...drag
}: {
  job: PlacedJob;
  style?: React.CSSProperties;
  returnTo: string;
  canMove: boolean;
  refused: boolean;
  draggable?: boolean;
  onDragStart?: (e: React.DragEvent) => void;
  onDragEnd?: () => void;
}) {
  const classes = [
    "job-card",
    `status-${job.status}`,
    job.overlaps ? "is-overlap" : "",
    job.outsideWindow ? "is-outside" : "",
    job.pending ? "is-pending" : "",
    refused ? "is-refused" : "",
  ];
  const titleId = `job-${job.id}-title`;
  return (
    <article
      className={classes.filter(Boolean).join(" ")}
      style={style}
      data-job-id={job.id}
      data-start={job.start ?? ""}
      aria-labelledby={titleId}
      title={`${job.start ? `${clock(job.start)}–${clock(job.end!)} · ` : ""}${job.title} · ${job.customerName}${job.address ? ` · ${job.address}` : ""}`}
      {...drag}
    >
      <div className="job-top">
        <span className="job-time">{job.start ? clockRange(job.start, job.end!) : "No time yet"}</span>
        {job.status !== "unscheduled" ? <span className="job-status">{humanize(job.status)}</span> : null}
      </div>
      <Link id={titleId} to={`/jobs/${job.id}`} className="job-title" draggable={false}>
        {job.title}
      </Link>
      <div className="job-customer">{job.customerName}</div>
      {job.address ? <div className="job-address">{job.address}</div> : null}
      {job.clock ? (
        <div className="job-clock small">
          <ClockSince startedAt={job.clock.startedAt} onSiteAt={job.clock.onSiteAt} />
        </div>
      ) : null}
      {job.outsideWindow ? <p className="visually-hidden">{job.outsideWindow}</p> : null}
      <div className="job-foot">
        {job.overlaps ? (
          <span className="flag flag-overlap" title="Overlaps another job of this technician">
            Overlap
          </span>
        ) : null}
        {job.outsideWindow ? (
          <span className="flag flag-window" title={job.outsideWindow}>
            Outside window
          </span>
        ) : null}
        {canMove && job.status !== "completed" && job.status !== "cancelled" ? (
          <Link
            className="job-move"
            to={`/jobs/${job.id}/schedule?returnTo=${encodeURIComponent(returnTo)}`}
            draggable={false}
          >
            Move<span className="visually-hidden"> {job.title}</span>
          </Link>
        ) : null}
      </div>
      {job.pending ? (
        <span className="job-saving" role="status">
          Saving…
        </span>
      ) : null}
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
        <span className="flag flag-overlap">Overlap</span> two jobs of one technician at once
      </li>
      <li>
        <span className="flag flag-window">Outside window</span> not in the time the customer asked for
      </li>
    </ul>
  );
}
