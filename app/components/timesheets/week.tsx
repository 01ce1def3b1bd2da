import { Form, Link } from "@remix-run/react";
import { TIME_ENTRY_KINDS } from "../../../db/enums";
import type { SerializeFrom } from "@remix-run/node";
import { CsrfInput, Field } from "~/components/forms";
import { SelectField } from "~/components/settings";
import { utcToZoned } from "~/services/jobs/local-time";
import { decimalHours, hoursAndMinutes } from "~/services/timesheets/hours";
import type { PersonWeek, TeamRow } from "~/services/timesheets/timesheets.server";
import { dateTimeFormat } from "~/utils/format";

// The timesheet pages: the team's week (one row per person; cards on a phone) and a person's
// week (days with their lines, totals, pending entries, corrections and the history).

type Week = SerializeFrom<PersonWeek>;
type Line = Week["days"][number]["lines"][number];

const KIND_LABELS = { work: "Work", travel: "Travel", break: "Break" } as const;
const KIND_OPTIONS = TIME_ENTRY_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }));

const dayName = (date: string, style: "long" | "short" = "long") =>
  dateTimeFormat({
    weekday: style,
    day: "numeric",
    month: style === "long" ? "long" : "short",
    timeZone: "UTC",
  }).format(new Date(`${date}T12:00:00Z`));

/** A column's day on two short lines: "Mon" over "Nov 2". */
function DayHeading({ date }: { date: string }) {
  const [weekday, ...rest] = dayName(date, "short").split(", ");
  return (
    <>
      <span className="dow">{weekday}</span> <span className="dom">{rest.join(", ")}</span>
    </>
  );
}

const weekLabel = (start: string, end: string) => `${dayName(start, "short")} – ${dayName(end, "short")}`;

const clock = (iso: string, timeZone: string) => utcToZoned(iso, timeZone).slice(11);

function WeekNav({ base, previous, next, label }: { base: string; previous: string; next: string; label: string }) {
  return (
    <nav className="week-nav" aria-label="Weeks">
      <Link to={`${base}week=${previous}`} className="btn btn-secondary" rel="prev">
        <span aria-hidden="true">‹</span> Previous<span className="visually-hidden"> week</span>
      </Link>
      <strong className="week-label">{label}</strong>
      <Link to={`${base}week=${next}`} className="btn btn-secondary" rel="next">
        Next<span className="visually-hidden"> week</span> <span aria-hidden="true">›</span>
      </Link>
    </nav>
  );
}

const Hours = ({ minutes }: { minutes: number }) => <>{minutes ? decimalHours(minutes) : "–"}</>;

export function TeamWeekView({
  team,
}: {
  team: SerializeFrom<{
    weekStart: string;
    weekEnd: string;
    previousWeek: string;
    nextWeek: string;
    dates: string[];
    team: TeamRow[];
    mayExport: boolean;
    rules: { weeklyMinutes: number; dailyMinutes: number | null };
  }>;
}) {
  const totals = team.team.reduce(
    (n, r) => ({ paid: n.paid + r.paidMinutes, overtime: n.overtime + r.overtimeMinutes }),
    { paid: 0, overtime: 0 },
  );
  return (
    <>
      <header className="page-header">
        <div>
          <h1>Timesheets</h1>
          <p className="muted">
            Overtime after {decimalHours(team.rules.weeklyMinutes).replace(/\.00$/, "")} h a week
            {team.rules.dailyMinutes != null
              ? ` or ${decimalHours(team.rules.dailyMinutes).replace(/\.00$/, "")} h a day`
              : ""}
            .{" "}
          </p>
        </div>
        {team.mayExport ? (
          <a className="btn btn-secondary" href={`/timesheets/export.csv?week=${team.weekStart}`} download>
            Export for payroll (CSV)
          </a>
        ) : null}
      </header>
      <WeekNav
        base="/timesheets?"
        previous={team.previousWeek}
        next={team.nextWeek}
        label={weekLabel(team.weekStart, team.weekEnd)}
      />
      <p className="team-summary muted">
        {team.team.length} {team.team.length === 1 ? "person" : "people"} · {decimalHours(totals.paid)} h paid ·{" "}
        {decimalHours(totals.overtime)} h overtime
      </p>
      {team.team.length === 0 ? (
        <div className="empty-state">
          <h2>No one to show</h2>
          <p>Technicians and anyone with time this week appear here.</p>
        </div>
      ) : (
        <div className="table-wrap team-week">
          <table>
            <caption className="visually-hidden">Hours per person and day, week of {team.weekStart}</caption>
            <thead>
              <tr>
                <th scope="col">Person</th>
                {team.dates.map((d) => (
                  <th scope="col" className="num day" key={d}>
                    <DayHeading date={d} />
                  </th>
                ))}
                <th scope="col" className="num">
                  Total
                </th>
                <th scope="col" className="num">
                  Regular
                </th>
                <th scope="col" className="num">
                  Overtime
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {team.team.map((r) => (
                <tr key={r.userId}>
                  <th scope="row">
                    <Link to={`/timesheets?userId=${r.userId}&week=${team.weekStart}`}>{r.name}</Link>
                  </th>
                  {r.days.map((d) => (
                    <td className="num day" data-label={dayName(d.date, "short")} key={d.date}>
                      <Hours minutes={d.paidMinutes} />
                    </td>
                  ))}
                  <td className="num total" data-label="Total">
                    <strong>{decimalHours(r.paidMinutes)}</strong>
                  </td>
                  <td className="num" data-label="Regular">
                    {decimalHours(r.regularMinutes)}
                  </td>
                  <td className="num" data-label="Overtime">
                    {decimalHours(r.overtimeMinutes)}
                  </td>
                  <td data-label="Status">
                    <span className={`badge ${r.approved ? "badge-success" : "badge-muted"}`}>
                      {r.approved ? "Approved" : "Open"}
                    </span>{" "}
                    {r.pendingCount ? <span className="badge badge-warning">{r.pendingCount} pending</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function EntryForm({ week, line, idPrefix }: { week: Week; line?: Line; idPrefix: string }) {
  const local = (iso?: string) => (iso ? utcToZoned(iso, week.timeZone) : "");
  // A correction changes the whole entry (travel and work of a field clock's entry together).
  const entry = line?.entry;
  return (
    <Form
      method="post"
      action={line ? `/timesheets/entries/${line.entryId}` : "/timesheets/entries"}
      className="stack entry-form"
    >
      <CsrfInput />
      <input type="hidden" name="userId" value={week.person.id} />
      {line ? <input type="hidden" name="intent" value="update" /> : null}
      <div className="form-grid">
        <SelectField
          id={`${idPrefix}-kind`}
          name="kind"
          label="Kind"
          options={KIND_OPTIONS}
          value={entry?.kind ?? "work"}
        />
        <Field
          id={`${idPrefix}-start`}
          name="start"
          label="Start"
          type="datetime-local"
          required
          defaultValue={entry ? local(entry.start) : `${week.weekStart}T08:00`}
        />
        <Field
          id={`${idPrefix}-end`}
          name="end"
          label="End"
          type="datetime-local"
          required
          defaultValue={entry ? local(entry.end) : `${week.weekStart}T12:00`}
        />
        <SelectField
          id={`${idPrefix}-visit`}
          name="visitId"
          label="Visit"
          options={[{ value: "", label: "No visit" }, ...week.visits.map((v) => ({ value: v.id, label: v.label }))]}
          value={line?.visitId ?? ""}
        />
      </div>
      <Field
        id={`${idPrefix}-reason`}
        name="reason"
        label={line ? "Reason for the change" : "Reason (optional)"}
        maxLength={500}
        required={!!line}
      />
      <div>
        <button type="submit" className="btn btn-primary">
          {line ? "Save correction" : "Add entry"}
        </button>
      </div>
    </Form>
  );
}

function ReasonForm({
  entryId,
  intent,
  label,
  idPrefix,
  required = true,
  tone = "secondary",
}: {
  entryId: string;
  intent: "delete" | "accept" | "discard";
  label: string;
  idPrefix: string;
  required?: boolean;
  tone?: "primary" | "secondary" | "danger";
}) {
  return (
    <Form method="post" action={`/timesheets/entries/${entryId}`} className="reason-form">
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      {required ? <Field id={`${idPrefix}-reason`} name="reason" label="Reason" maxLength={500} required /> : null}
      <button type="submit" className={`btn btn-${tone}`}>
        {label}
      </button>
    </Form>
  );
}

function LineRow({ week, line, index }: { week: Week; line: Line; index: number }) {
  const id = `line-${index}`;
  return (
    <li className={`ts-line kind-${line.kind}${line.state === "pending" ? " is-pending" : ""}`}>
      <div className="ts-line-main">
        <span className="ts-time">
          {clock(line.start, week.timeZone)}–{clock(line.end, week.timeZone)}
        </span>
        <span className={`badge ts-kind-${line.kind}`}>{KIND_LABELS[line.kind]}</span>
        <span className="ts-what">
          {line.job ? <Link to={`/jobs/${line.job.id}`}>{line.job.title}</Link> : <span className="muted">No job</span>}
        </span>
        <span className="ts-minutes">{hoursAndMinutes(line.minutes)}</span>
      </div>
      {line.state === "pending" || line.overlaps || line.origin !== "field" || line.note ? (
        <div className="ts-flags">
          {line.state === "pending" ? (
            <span className="badge badge-warning">
              {line.late ? "Pending: arrived after approval" : "Pending: manual entry"}
            </span>
          ) : null}
          {line.overlaps ? <span className="badge badge-danger">Overlaps another entry</span> : null}
          {line.origin === "office" ? <span className="badge badge-muted">Added by the office</span> : null}
          {line.origin === "technician" && line.state === "counted" ? (
            <span className="badge badge-muted">Manual, accepted</span>
          ) : null}
          {line.note ? <span className="muted small">{line.note}</span> : null}
        </div>
      ) : null}
      {week.mayManage && !week.approval && line.state === "counted" && line.lastPart ? (
        <details className="ts-correct">
          <summary>
            Correct
            {line.entry.start !== line.start ? (
              <span className="muted small">
                {" "}
                (travel and work, {clock(line.entry.start, week.timeZone)}–{clock(line.entry.end, week.timeZone)})
              </span>
            ) : null}
          </summary>
          <EntryForm week={week} line={line} idPrefix={`${id}-edit`} />
          <ReasonForm
            entryId={line.entryId}
            intent="delete"
            label="Delete entry"
            idPrefix={`${id}-delete`}
            tone="danger"
          />
        </details>
      ) : null}
    </li>
  );
}

export function PersonWeekView({ week }: { week: Week }) {
  const base = `/timesheets?userId=${week.person.id}&`;
  let index = 0;
  return (
    <div className="stack timesheet">
      <WeekNav
        base={base}
        previous={week.previousWeek}
        next={week.nextWeek}
        label={weekLabel(week.weekStart, week.weekEnd)}
      />
      <section className="card ts-summary" aria-labelledby="ts-totals">
        <h2 id="ts-totals" className="visually-hidden">
          Week totals
        </h2>
        <dl className="ts-figures">
          <div>
            <dt>Paid</dt>
            <dd>{decimalHours(week.totals.paidMinutes)} h</dd>
          </div>
          <div>
            <dt>Regular</dt>
            <dd>{decimalHours(week.totals.regularMinutes)} h</dd>
          </div>
          <div>
            <dt>Overtime</dt>
            <dd>{decimalHours(week.totals.overtimeMinutes)} h</dd>
          </div>
          <div>
            <dt>Breaks</dt>
            <dd>{hoursAndMinutes(week.totals.breakMinutes)}</dd>
          </div>
        </dl>
        <p className="ts-status">
          {week.approval ? (
            <>
              <span className="badge badge-success">Approved</span> by {week.approval.by} on{" "}
              {utcToZoned(week.approval.at, week.timeZone).replace("T", " at ")}
            </>
          ) : (
            <span className="badge badge-muted">Open</span>
          )}
        </p>
        {week.mayManage ? (
          <Form
            method="post"
            action={week.approval ? "/timesheets/reopen" : "/timesheets/approve"}
            className="week-action"
          >
            <CsrfInput />
            <input type="hidden" name="userId" value={week.person.id} />
            <input type="hidden" name="week" value={week.weekStart} />
            <button type="submit" className={`btn ${week.approval ? "btn-secondary" : "btn-primary"}`}>
              {week.approval ? "Reopen week" : "Approve week"}
            </button>
          </Form>
        ) : null}
      </section>

      {week.overlapCount ? (
        <div className="alert alert-warning" role="status">
          <p>Some entries overlap: one person cannot be in two places. Correct or delete one of each pair.</p>
        </div>
      ) : null}

      {week.pending.length ? (
        <section className="card stack" aria-labelledby="ts-pending">
          <h2 id="ts-pending">Waiting for the office</h2>
          <p className="muted small">
            Pending entries do not count in the totals until accepted.
            {week.approval ? " Accepting one that arrived after approval reopens the week." : ""}
          </p>
          <ul className="ts-pending-list">
            {week.pending.map((p) => {
              const id = `pending-${index++}`;
              return (
                <li key={`${p.entryId}-${p.kind}`}>
                  <p>
                    <strong>{dayName(utcToZoned(p.start, week.timeZone).slice(0, 10), "short")}</strong>{" "}
                    {clock(p.start, week.timeZone)}–{clock(p.end, week.timeZone)} · {KIND_LABELS[p.kind]} ·{" "}
                    {hoursAndMinutes(p.minutes)}
                    {p.job ? ` · ${p.job.title}` : ""}
                    {p.late ? " · arrived after approval" : " · manual entry"}
                  </p>
                  {week.mayManage ? (
                    <div className="ts-pending-actions">
                      <ReasonForm
                        entryId={p.entryId}
                        intent="accept"
                        label="Accept"
                        idPrefix={`${id}-accept`}
                        required={false}
                        tone="primary"
                      />
                      <ReasonForm entryId={p.entryId} intent="discard" label="Discard" idPrefix={`${id}-discard`} />
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}

      {week.days.map((d) => (
        <section className="card ts-day" key={d.date} aria-labelledby={`day-${d.date}`}>
          <header className="ts-day-head">
            <h2 id={`day-${d.date}`}>{dayName(d.date)}</h2>
            <p className="ts-day-totals">
              <span>{decimalHours(d.paidMinutes)} h</span>
              {d.overtimeMinutes ? (
                <span className="ts-ot">incl. {decimalHours(d.overtimeMinutes)} h overtime</span>
              ) : null}
              {d.breakMinutes ? <span className="muted">break {hoursAndMinutes(d.breakMinutes)}</span> : null}
            </p>
          </header>
          {d.lines.length ? (
            <ul className="ts-lines">
              {d.lines.map((l) => (
                <LineRow key={`${l.entryId}-${l.kind}-${l.start}`} week={week} line={l} index={index++} />
              ))}
            </ul>
          ) : (
            <p className="muted small">No time.</p>
          )}
        </section>
      ))}

      {!week.approval && (week.mayManage || week.isSelf) ? (
        <details className="card ts-add">
          <summary>
            <strong>{week.mayManage ? "Add an entry" : "Add a manual entry"}</strong>
          </summary>
          {!week.mayManage ? (
            <p className="muted small">A manual entry shows as pending until the office accepts it.</p>
          ) : null}
          <EntryForm week={week} idPrefix="add" />
        </details>
      ) : null}

      {week.history.length ? (
        <section className="card stack" aria-labelledby="ts-history">
          <h2 id="ts-history">History</h2>
          <ul className="ts-history">
            {week.history.map((h, i) => (
              <li key={i}>
                <span className="muted">{utcToZoned(h.at, week.timeZone).replace("T", " ")}</span> {h.by}{" "}
                <strong>{HISTORY_WORDS[h.action]}</strong>
                {h.before?.start && h.after?.start && h.action === "update"
                  ? ` (${clock(h.before.start, week.timeZone)}–${clock(h.before.end!, week.timeZone)} → ${clock(h.after.start, week.timeZone)}–${clock(h.after.end!, week.timeZone)})`
                  : ""}
                {h.reason ? <>: “{h.reason}”</> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

const HISTORY_WORDS = {
  add: "added an entry",
  update: "corrected an entry",
  delete: "deleted an entry",
  accept: "accepted a pending entry",
  discard: "discarded a pending entry",
  approve: "approved the week",
  reopen: "reopened the week",
} as const;
