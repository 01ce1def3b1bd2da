import { useRef, useState } from "react";
import { CsrfInput } from "~/components/csrf-input";
import { FieldErrors, FormError } from "~/components/form-messages";
import {
  actionLabel,
  mapsLink,
  NOTE_MAX,
  SIGNER_NAME_MAX,
  STATUS_LABELS,
  telLink,
  type ClockAction,
  type FieldStatus,
  type JobStatus,
} from "~/services/field/protocol";
import { completionBlock, formatDay, formatMinutes, formatTime, type ShownJob } from "./project";
import { SignatureField, type SignatureHandle } from "./signature-field";

/** What the card's forms do with JavaScript (queue in the outbox); absent, they post to /field. */
export type CardActions = {
  status: (jobId: string, status: FieldStatus) => void;
  note: (jobId: string, body: string) => void;
  clock: (jobId: string, action: ClockAction) => void;
  checklist: (jobId: string, itemId: string, done: boolean) => void;
  /** The signature (a drawing and/or a typed name, when given), then the completion, in that order. */
  complete: (jobId: string, signature: { name: string; image: string | null } | null) => void;
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
  visitId,
  onSubmit,
  children,
  className,
  "aria-label": label,
}: {
  intent: string;
  jobId: string;
  /** The visit the card stands for: the form acts on it. */
  visitId?: string | null;
  onSubmit?: (form: HTMLFormElement, submitter: HTMLElement | null) => void;
  children: React.ReactNode;
  className?: string;
  "aria-label"?: string;
}) {
  return (
    <form
      method="post"
      action="/field"
      className={className}
      aria-label={label}
      onSubmit={(e) => {
        if (!onSubmit) return;
        e.preventDefault();
        onSubmit(e.currentTarget, (e.nativeEvent as SubmitEvent).submitter ?? null);
      }}
    >
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="jobId" value={jobId} />
      {visitId ? <input type="hidden" name="visitId" value={visitId} /> : null}
      {children}
    </form>
  );
}

/** "On site since 9:12 AM · 35 min": the job's one clock, as the server (or the outbox) has it. */
function ClockLine({ job, timeZone, now }: { job: ShownJob; timeZone: string; now: number | null }) {
  if (!job.clock) return null;
  const since = job.clock.onSiteAt ?? job.clock.startedAt;
  const running = now ? formatMinutes(Math.max(0, Math.round((now - Date.parse(job.clock.startedAt)) / 60_000))) : null;
  return (
    <p className="clock-line" role="status">
      <span className="clock-dot" aria-hidden="true" />
      <span>
        {job.clock.onSiteAt ? "On site since " : "On the way since "}
        <time dateTime={since} suppressHydrationWarning>
          {formatTime(since, timeZone)}
        </time>
        {running ? (
          <span className="muted" suppressHydrationWarning>
            {" "}
            · clock {running}
          </span>
        ) : null}
      </span>
    </p>
  );
}

function Checklist({ job, actions, done }: { job: ShownJob; actions?: CardActions; done: boolean }) {
  if (!job.checklist.length) return null;
  const ticked = job.checklist.filter((i) => i.done).length;
  const titleId = `job-${job.id}-checklist`;
  return (
    <section className="job-checklist" aria-labelledby={titleId}>
      <h4 id={titleId} className="job-subtitle">
        Checklist{" "}
        <span className="muted">
          {ticked} of {job.checklist.length}
        </span>
        {job.checklistRequired ? <span className="muted small"> · all needed to complete</span> : null}
      </h4>
      <ul>
        {job.checklist.map((item) => (
          <li key={item.id}>
            <ActionForm
              intent="checklist"
              jobId={job.id}
              visitId={job.visitId}
              onSubmit={actions && (() => actions.checklist(job.id, item.id, !item.done))}
            >
              <input type="hidden" name="itemId" value={item.id} />
              <input type="hidden" name="done" value={item.done ? "false" : "true"} />
              <button
                type="submit"
                className={`checklist-item${item.done ? " is-done" : ""}`}
                aria-pressed={item.done}
                disabled={done}
              >
                <span className="checklist-box" aria-hidden="true">
                  {item.done ? "✓" : ""}
                </span>
                <span className="checklist-label">{item.label}</span>
                {job.pendingChecklist.has(item.id) ? (
                  <span className="badge badge-warning">Waiting to sync</span>
                ) : null}
              </button>
            </ActionForm>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Completing the job: the customer signs (drawn with JavaScript, typed without), then Complete. */
function CompleteForm({ job, actions, failure }: { job: ShownJob; actions?: CardActions; failure?: CardFailure }) {
  const pad = useRef<SignatureHandle>(null);
  const [error, setError] = useState<string | null>(null);
  const blocked = completionBlock(job);
  const titleId = `job-${job.id}-finish`;
  const nameErrors = error ? [error] : failure?.intent === "complete" ? failure.fields.signerName : undefined;
  return (
    <section className="job-finish" aria-labelledby={titleId}>
      <h4 id={titleId} className="job-subtitle">
        Finish the job
      </h4>
      <ActionForm
        intent="complete"
        jobId={job.id}
        visitId={job.visitId}
        aria-label={`Complete “${job.title}”`}
        onSubmit={
          actions &&
          ((form) => {
            const name = String(new FormData(form).get("signerName") ?? "").trim();
            const image = pad.current?.toDataURL() ?? null;
            if (image && !name) {
              setError("Type the customer's name under the signature.");
              return;
            }
            setError(null);
            actions.complete(job.id, name ? { name, image } : null);
            pad.current?.clear();
            form.reset();
          })
        }
      >
        {actions ? (
          <>
            <p id={`${titleId}-sign`} className="label">
              Customer signature
            </p>
            <SignatureField ref={pad} id={`signature-${job.id}`} labelledBy={`${titleId}-sign`} />
          </>
        ) : null}
        <label htmlFor={`signer-${job.id}`} className="label">
          {actions ? "Customer's name" : "Customer's name (typed as their signature)"}
        </label>
        <input
          id={`signer-${job.id}`}
          name="signerName"
          autoComplete="off"
          maxLength={SIGNER_NAME_MAX}
          placeholder={job.customer.name}
          aria-invalid={nameErrors?.length ? true : undefined}
          aria-describedby={nameErrors?.length ? `signer-${job.id}-error` : undefined}
        />
        <FieldErrors id={`signer-${job.id}-error`} errors={nameErrors} />
        {blocked ? <p className="field-hint warning-text">{blocked}</p> : null}
        <button type="submit" className="btn btn-primary" disabled={!!blocked}>
          Complete job
        </button>
      </ActionForm>
    </section>
  );
}

export function JobCard({
  job,
  timeZone,
  now,
  failure,
  actions,
  showDay,
  photos,
}: {
  job: ShownJob;
  timeZone: string;
  /** The time of the last tick (for the running clock's minutes); null before the page runs. */
  now: number | null;
  failure?: CardFailure;
  actions?: CardActions;
  showDay: boolean;
  /** The card's photos part (job-photos.tsx), given by the page. */
  photos?: React.ReactNode;
}) {
  const headingId = `job-${job.id}-title`;
  const done = job.status === "completed" || job.status === "cancelled";
  const logged = job.loggedMinutes + job.pendingMinutes;
  const noteErrors = failure?.intent === "note" ? failure.fields.body : undefined;
  const clockMayRun = job.status === "en_route" || job.status === "in_progress";
  const clockAction: ClockAction | null = job.clock ? "stop" : clockMayRun ? "start" : null;
  return (
    <article className={`card job-card job-${job.status}`} id={`job-${job.id}`} aria-labelledby={headingId}>
      <div className="job-card-head">
        <When job={job} timeZone={timeZone} showDay={showDay} />
        <span className="job-badges">
          <span className={BADGE[job.status]}>{STATUS_LABELS[job.status]}</span>
          {job.pendingStatus || job.pendingClock || job.pendingSignature ? (
            <span className="badge badge-warning">Waiting to sync</span>
          ) : null}
        </span>
      </div>
      <h3 id={headingId} className="job-title">
        {job.title}
      </h3>
      <p className="job-customer">
        {job.customer.name}
        {job.customer.phone ? (
          <>
            {" · "}
            <a href={telLink(job.customer.phone)}>{job.customer.phone}</a>
          </>
        ) : null}
      </p>
      {job.crew.length > 1 ? (
        <p className="job-crew small">
          <span className="badge badge-muted">Crew</span> {job.crew.map((m) => m.name).join(", ")}
        </p>
      ) : null}
      {job.address ? (
        <p className="job-address">
          <a href={mapsLink(job.address)} target="_blank" rel="noopener noreferrer">
            {job.address}
          </a>
        </p>
      ) : null}
      {job.address || job.customer.phone ? (
        <div className="job-links">
          {job.address ? (
            <a
              href={mapsLink(job.address)}
              target="_blank"
              rel="noopener noreferrer"
              className="btn btn-secondary btn-sm"
            >
              Directions<span className="visually-hidden"> to {job.address}</span>
            </a>
          ) : null}
          {job.customer.phone ? (
            <a href={telLink(job.customer.phone)} className="btn btn-secondary btn-sm">
              Call {job.customer.name}
            </a>
          ) : null}
        </div>
      ) : null}
      {job.customer.notes ? (
        <p className="job-customer-notes">
          <strong>About {job.customer.name}:</strong> {job.customer.notes}
        </p>
      ) : null}
      {job.description ? <p className="job-description muted small">{job.description}</p> : null}

      <FormError
        errors={failure && !noteErrors?.length && failure.intent !== "complete" ? failure.formErrors : undefined}
      />

      <ClockLine job={job} timeZone={timeZone} now={now} />

      {!done ? (
        <div className="job-actions">
          {job.nextStatuses
            .filter((to) => to !== "completed")
            .map((to, i) => (
              <ActionForm
                key={to}
                intent="status"
                jobId={job.id}
                visitId={job.visitId}
                onSubmit={actions && (() => actions.status(job.id, to))}
              >
                <input type="hidden" name="status" value={to} />
                <button
                  type="submit"
                  className={`btn ${i === 0 && to !== "on_hold" ? "btn-primary" : "btn-secondary"}`}
                >
                  {actionLabel(job.status, to)}
                </button>
              </ActionForm>
            ))}
          {clockAction ? (
            <ActionForm
              intent="clock"
              jobId={job.id}
              visitId={job.visitId}
              onSubmit={actions && (() => actions.clock(job.id, clockAction))}
            >
              <input type="hidden" name="action" value={clockAction} />
              <button type="submit" className="btn btn-ghost">
                {clockAction === "stop" ? "Stop clock" : "Start clock"}
              </button>
            </ActionForm>
          ) : null}
        </div>
      ) : null}

      <p className="job-meta small">
        <span>Time logged: {job.timeEntries + job.pendingEntries ? formatMinutes(logged) : "none yet"}</span>
        {job.signature ? (
          <span className="job-signed">
            Signed by {job.signature.name}
            {job.signature.drawn ? "" : " (typed)"}
            {job.pendingSignature ? " · waiting to sync" : ""}
          </span>
        ) : null}
      </p>

      <Checklist job={job} actions={actions} done={done} />

      {job.nextStatuses.includes("completed") ? (
        <>
          {failure?.intent === "complete" ? <FormError errors={failure.formErrors} /> : null}
          <CompleteForm job={job} actions={actions} failure={failure} />
        </>
      ) : null}

      <ActionForm
        intent="note"
        jobId={job.id}
        visitId={job.visitId}
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
