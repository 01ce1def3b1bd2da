import { getFormProps, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useFetcher } from "@remix-run/react";
import { CsrfInput, FieldErrors, FormError, useConformForm } from "~/components/forms";
import { TextareaField, TextField } from "~/components/conform-fields";
import { StatusBadge } from "~/components/records";
import { addVisitSchema } from "~/services/visits/schemas";
import { visitWhen } from "~/services/visits/words";
import { ROLE_LABELS, type Role } from "~/utils/permissions";

// A job's visits: the list on the job page (past and upcoming, each with its crew, status and
// a link to its page) and the "Add visit" form, which posts to /jobs/<id>/visits. With
// JavaScript the form stays on the job page (a fetcher; errors beside the fields); without,
// it is a plain form whose refusal is the add-visit page with the same errors.

export type Member = { id: string; name: string; role: string };
export type VisitRow = {
  id: string;
  start: string;
  end: string | null;
  status: string;
  note: string | null;
  crew: Array<{ id: string; name: string }>;
  past: boolean;
};

/** The crew as one checkbox per member (a multi-select is unusable on a phone). */
export function CrewCheckboxes({
  meta,
  members,
  legend = "Crew",
}: {
  meta: FieldMetadata<string[] | undefined>;
  members: Member[];
  legend?: string;
}) {
  const initial = meta.initialValue;
  const chosen = new Set(Array.isArray(initial) ? initial : typeof initial === "string" ? [initial] : []);
  const errorId = meta.errorId;
  return (
    <fieldset
      className={`field crew-field${meta.errors?.length ? " field-invalid" : ""}`}
      aria-describedby={meta.errors?.length ? errorId : undefined}
    >
      <legend>{legend}</legend>
      <ul className="crew-choices">
        {members.map((m) => (
          <li key={m.id}>
            <label className="checkbox">
              <input type="checkbox" name={meta.name} value={m.id} defaultChecked={chosen.has(m.id)} />
              <span>
                {m.name}
                {m.role !== "technician" ? (
                  <span className="muted small"> ({ROLE_LABELS[m.role as Role] ?? m.role})</span>
                ) : null}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <FieldErrors id={errorId} errors={meta.errors} />
    </fieldset>
  );
}

/** The add-visit form's fields, for the job page's fetcher and the no-JavaScript page alike. */
export function AddVisitFields({
  jobId,
  members,
  lastResult,
  busy,
  as: FormTag = Form,
}: {
  jobId: string;
  members: Member[];
  lastResult?: SubmissionResult<string[]> | null;
  busy: boolean;
  as?: typeof Form;
}) {
  const [form, fields] = useConformForm(addVisitSchema, { id: `add-visit-${jobId}`, lastResult });
  return (
    <FormTag method="post" action={`/jobs/${jobId}/visits`} {...getFormProps(form)} className="stack add-visit-form">
      <CsrfInput />
      <FormError errors={form.errors} />
      <div className="form-row">
        <TextField meta={fields.start} label="Start" type="datetime-local" className="grow" input={{ step: 900 }} />
        <TextField
          meta={fields.end}
          label="End"
          type="datetime-local"
          className="grow"
          hint="May be days later: a visit can run over several days."
          input={{ step: 900 }}
        />
      </div>
      <CrewCheckboxes meta={fields.assigneeIds} members={members} />
      <TextareaField meta={fields.note} label="Note (optional)" rows={2} />
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Add visit
        </button>
      </div>
    </FormTag>
  );
}

/** The job page's "Visits" card: upcoming and past visits, and the add form for the office. */
export function JobVisits({
  jobId,
  visits,
  members,
  canAdd,
  canEdit,
}: {
  jobId: string;
  visits: VisitRow[];
  members: Member[] | null;
  canAdd: boolean;
  canEdit: boolean;
}) {
  const fetcher = useFetcher<{ result: SubmissionResult<string[]> }>();
  const upcoming = visits.filter((v) => !v.past);
  const past = visits.filter((v) => v.past).reverse();
  const list = (items: VisitRow[], label: string) => (
    <ul className="visit-list" aria-label={label}>
      {items.map((v) => (
        <li key={v.id} className={`visit-item status-${v.status}`} data-visit-id={v.id}>
          <div className="visit-when">{visitWhen(v.start, v.end)}</div>
          <div className="visit-meta">
            <StatusBadge status={v.status} />{" "}
            <span className="visit-crew">
              {v.crew.length ? (
                <>
                  {v.crew.length > 1 ? "Crew: " : ""}
                  {v.crew.map((c) => c.name).join(", ")}
                </>
              ) : (
                <span className="muted">Unassigned</span>
              )}
            </span>
            {canEdit ? (
              <>
                {" "}
                <Link to={`/visits/${v.id}/edit`} className="visit-edit">
                  Edit<span className="visually-hidden"> the visit of {visitWhen(v.start, v.end)}</span>
                </Link>
              </>
            ) : null}
          </div>
          {v.note ? <p className="prewrap small visit-note">{v.note}</p> : null}
        </li>
      ))}
    </ul>
  );
  return (
    <section className="card" id="visits" aria-labelledby="visits-title">
      <div className="card-header">
        <h2 id="visits-title">Visits</h2>
        <span className="muted">{visits.length === 1 ? "1 visit" : `${visits.length} visits`}</span>
      </div>
      {visits.length === 0 ? <p className="muted">No visits yet.</p> : null}
      {upcoming.length ? (
        <>
          <h3 className="visit-group">Upcoming</h3>
          {list(upcoming, "Upcoming visits")}
        </>
      ) : null}
      {past.length ? (
        <>
          <h3 className="visit-group">Past</h3>
          {list(past, "Past visits")}
        </>
      ) : null}
      {canAdd && members ? (
        <details className="add-visit" open={fetcher.data?.result ? true : undefined}>
          <summary>Add a visit</summary>
          <AddVisitFields
            jobId={jobId}
            members={members}
            lastResult={fetcher.data?.result}
            busy={fetcher.state !== "idle"}
            as={fetcher.Form as unknown as typeof Form}
          />
        </details>
      ) : null}
    </section>
  );
}
