import { CsrfInput, FieldErrors, FormError } from "~/components/forms";
import { actionLabel, NOTE_MAX, STATUS_LABELS, type FieldStatus, type FieldTimer, type JobStatus } from "~/services/sync/protocol";
import { formatDay, formatMinutes, formatTime, type ShownJob } from "./project";

/** What the card's forms do with JavaScript (queue in the outbox); absent, they post to /field. */
export type CardActions = {
  status: (jobId: string, status: FieldStatus) => void;
  note: (jobId: string, body: string) => void;
  startTimer: (jobId: string) => void;
  stopTimer: (jobId: string) => void;
};

export type CardFailure = { formErrors: string[]; fields: Record<string, string[]>; intent?: string };

const BADGE: Record<JobStatus, string> = {
  unscheduled: "badge badge-muted",
  scheduled: "badge badge-muted",
  en_route: "badge badge-warning",
  in_progress: "badge",
  on_hold: "badge badge-danger",
  completed: "badge badge-success",
  cancelled: "badge badge-muted",
};

function When({ job, timeZone, showDay }: { job: ShownJob; timeZone: string; showDay: boolean }) {
  if (!job.scheduledStart) return <span className="job-when muted">Not scheduled</span>;
  const start = formatTime(job.scheduledStart, timeZone);
  const end = job.scheduledEnd ? formatTime(job.scheduledEnd, timeZone) : null;
  return (
    <time className="job-when" dateTime={job.scheduledStart} suppressHydrationWarning>
      {showDay ? `${formatDay(job.scheduledStart, timeZone)} · ` : ""}
      {end ? `${start} – ${end}` : start}
    </time>
  );
}

/** A hidden-field form that posts to /field, or with JavaScript runs `onSubmit` instead. */
function ActionForm({
  intent,
  jobId,
  onSubmit,
  children,
  className,
}: {
  intent: string;
  jobId: string;
  onSubmit?: (form: HTMLFormElement) => void;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <form
      method="post"
      action="/field"
      className={className}
      onSubmit={(e) => {
        if (!onSubmit) return;
        e.preventDefault();
        onSubmit(e.currentTarget);
      }}
    >
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="jobId" value={jobId} />
      {children}
    </form>
  );
}

export function JobCard({
  job,
  timeZone,
  timer,
  elapsed,
  failure,
  actions,
  showDay,
  photos,
}: {
  job: ShownJob;
  timeZone: string;
  timer: FieldTimer | null;
  elapsed: string | null;
  failure?: CardFailure;
  actions?: CardActions;
  showDay: boolean;
  /** The card's photos part (job-photos.tsx), given by the page. */
  photos?: React.ReactNode;
}) {
  const headingId = `job-${job.id}-title`;
  const timing = timer?.jobId === job.id;
  const otherTimer = timer && !timing;
  const done = job.status === "completed" || job.status === "cancelled";
  const logged = job.loggedMinutes + job.pendingMinutes;
  const noteErrors = failure?.intent === "note" ? failure.fields.body : undefined;
  return (
    <article className={`card job-card job-${job.status}`} id={`job-${job.id}`} aria-labelledby={headingId}>
      <div className="job-card-head">
        <When job={job} timeZone={timeZone} showDay={showDay} />
        <span className="job-badges">
          <span className={BADGE[job.status]}>{STATUS_LABELS[job.status]}</span>
          {job.pendingStatus ? <span className="badge badge-warning">Waiting to sync</span> : null}
        </span>
      </div>
      <h3 id={headingId} className="job-title">{job.title}</h3>
      <p className="job-customer">
        {job.customer.name}
        {job.customer.phone ? (
          <>
            {" · "}
            <a href={`tel:${job.customer.phone.replace(/[^\d+]/g, "")}`}>{job.customer.phone}</a>
          </>
        ) : null}
      </p>
      {job.address ? <p className="job-address">{job.address}</p> : null}
      {job.description ? <p className="job-description muted small">{job.description}</p> : null}

      <FormError errors={failure && !noteErrors?.length ? failure.formErrors : undefined} />

      {!done || timing ? (
        <div className="job-actions">
          {job.nextStatuses.map((to, i) => (
            <ActionForm key={to} intent="status" jobId={job.id} onSubmit={actions && (() => actions.status(job.id, to))}>
              <input type="hidden" name="status" value={to} />
              <button type="submit" className={`btn ${i === 0 ? "btn-primary" : "btn-secondary"}`}>
                {actionLabel(job.status, to)}
              </button>
            </ActionForm>
          ))}
          {timing ? (
            <ActionForm intent="timer-stop" jobId={job.id} onSubmit={actions && (() => actions.stopTimer(job.id))}>
              <button type="submit" className="btn btn-secondary">
                Stop time
              </button>
            </ActionForm>
          ) : (
            <ActionForm intent="timer-start" jobId={job.id} onSubmit={actions && (() => actions.startTimer(job.id))}>
              <button type="submit" className="btn btn-secondary" disabled={!!otherTimer} title={otherTimer ? "A timer is running on another job" : undefined}>
                Start time
              </button>
            </ActionForm>
          )}
        </div>
      ) : null}

      <p className="job-meta small">
        {timing ? (
          <span className="timer-note" role="status">
            Timer running since{" "}
            <time dateTime={timer!.startedAt} suppressHydrationWarning>
              {formatTime(timer!.startedAt, timeZone)}
            </time>
            {elapsed ? ` · ${elapsed}` : ""}
          </span>
        ) : null}
        <span>Time logged: {job.timeEntries + job.pendingEntries ? formatMinutes(logged) : "none yet"}</span>
      </p>

      <ActionForm
        intent="note"
        jobId={job.id}
        className="job-note-form"
        onSubmit={
          actions &&
          ((form) => {
            const body = String(new FormData(form).get("body") ?? "").trim();
            if (!body) return;
            actions.note(job.id, body);
            form.reset();
          })
        }
      >
        <label htmlFor={`note-${job.id}`} className="label">
          Add a note
        </label>
        <textarea
          id={`note-${job.id}`}
          name="body"
          rows={2}
          maxLength={NOTE_MAX}
          required
          placeholder="What you found, what you did, what the customer said"
          aria-invalid={noteErrors?.length ? true : undefined}
          aria-describedby={noteErrors?.length ? `note-${job.id}-error` : undefined}
        />
        <FieldErrors id={`note-${job.id}-error`} errors={noteErrors} />
        <button type="submit" className="btn btn-secondary btn-sm">
          Save note
        </button>
      </ActionForm>

      {job.pendingNotes.length || job.recentNotes.length ? (
        <ul className="job-notes" aria-label="Notes">
          {job.pendingNotes.map((n) => (
            <li key={`p${n.id}`} className="job-note pending">
              <span className="badge badge-warning">Waiting to sync</span> {n.body}
            </li>
          ))}
          {job.recentNotes.map((n) => (
            <li key={n.id} className="job-note">
              <span className="muted small">
                <time dateTime={n.occurredAt} suppressHydrationWarning>
                  {formatTime(n.occurredAt, timeZone)}
                </time>
                {n.authorName ? ` · ${n.authorName}` : ""}
              </span>{" "}
              {n.body}
            </li>
          ))}
        </ul>
      ) : null}
      {photos}
    </article>
  );
}
