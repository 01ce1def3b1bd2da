import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { RepeatFields } from "~/components/repeat-fields";
import { CsrfInput, FieldErrors, FormError, useConformForm } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { DateTime, StatusBadge } from "~/components/records";
import { formAction, type FormReply } from "~/http/conform.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { editVisit, visitEditData } from "~/services/visits/edit.server";
import { visitEditSchema } from "~/services/visits/edit-schema";
import visitStyles from "~/styles/visits.css";
import { ROLE_LABELS, type Role } from "~/utils/permissions";

// GET/POST /visits/<id>/edit (docs/decisions/316-visit-edit.md): the office changes a visit's
// start, end, crew and note, or cancels it; for a visit of a recurring job, this visit only or
// this and following. A technician reaches only visits they are on (others are not found) and
// changes none; another tenant's visit is not found.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: visitStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Edit visit${data ? ` of ${data.visit.jobTitle}` : ""} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  return json(await visitEditData(actorOf(user), params.id!));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  return formAction(request, visitEditSchema, async (value) => {
    const done = await editVisit(actorOf(user), params.id!, value);
    const many = done.changed > 1 ? ` and ${done.changed - 1} after it` : "";
    await setFlash(user, {
      message: done.cancelled ? `Visit${many} cancelled.` : `Visit${many} saved.`,
      tone: "success",
    });
    return redirect(`/jobs/${done.jobId}`, 303);
  });
}

export default function EditVisitPage() {
  const { visit, values, locked, series, members, timeZone } = useLoaderData<typeof loader>();
  const lastResult = useActionData<FormReply>()?.result;
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useConformForm(visitEditSchema, {
    id: "visit-form",
    lastResult,
    defaultValue: values,
    shouldValidate: "onSubmit",
  });
  const crewValue = fields.assigneeIds.value;
  const crew = Array.isArray(crewValue) ? crewValue.map(String) : typeof crewValue === "string" ? [crewValue] : [];
  const scope = String(fields.scope.value ?? "this");
  return (
    <>
      <PageHeader
        title={`Edit visit: ${visit.jobTitle}`}
        description={
          <>
            <StatusBadge status={visit.status} /> <DateTime value={visit.startsAt} /> to{" "}
            <DateTime value={visit.endsAt} />
          </>
        }
      />
      <div className="card narrow stack-form">
        <dl className="visit-facts">
          <dt>Job</dt>
          <dd>
            <Link to={`/jobs/${visit.jobId}`}>{visit.jobTitle}</Link>
          </dd>
          {series ? (
            <>
              <dt>Repeats</dt>
              <dd>{series}</dd>
            </>
          ) : null}
        </dl>
        {locked ? (
          <>
            <div className="alert alert-warning" role="status">
              {locked}
            </div>
            <div className="form-actions">
              <Link to={`/jobs/${visit.jobId}`} className="btn btn-secondary">
                Back to the job
              </Link>
            </div>
          </>
        ) : (
          <Form method="post" {...getFormProps(form)} className="stack-form">
            <CsrfInput />
            <FormError errors={form.errors} />
            <div className="form-row">
              <div className="field grow">
                <label htmlFor={fields.start.id}>Start</label>
                <input {...getInputProps(fields.start, { type: "datetime-local" })} />
                <FieldErrors id={fields.start.errorId} errors={fields.start.errors} />
              </div>
              <div className="field grow">
                <label htmlFor={fields.end.id}>End</label>
                <input {...getInputProps(fields.end, { type: "datetime-local" })} />
                <FieldErrors id={fields.end.errorId} errors={fields.end.errors} />
              </div>
            </div>
            <p className="field-hint">
              Times are in the business&rsquo;s time zone ({timeZone}). A visit may end days after it starts.
            </p>
            <fieldset className="repeat-choices">
              <legend>Crew</legend>
              <div className="crew-list">
                {members.map((m) => (
                  <label key={m.id} className="checkbox">
                    <input
                      type="checkbox"
                      name={fields.assigneeIds.name}
                      value={m.id}
                      defaultChecked={crew.includes(m.id)}
                    />
                    {m.name} ({ROLE_LABELS[m.role as Role]})
                  </label>
                ))}
              </div>
              <FieldErrors id={fields.assigneeIds.errorId} errors={fields.assigneeIds.errors} />
            </fieldset>
            <div className="field">
              <label htmlFor={fields.note.id}>Note</label>
              <textarea {...getTextareaProps(fields.note)} rows={3} />
              <FieldErrors id={fields.note.errorId} errors={fields.note.errors} />
            </div>
            {series ? (
              <fieldset className="repeat-choices scope-choices">
                <legend>Change</legend>
                <label className="checkbox">
                  <input type="radio" name={fields.scope.name} value="this" defaultChecked={scope !== "following"} />
                  This visit only
                </label>
                <label className="checkbox">
                  <input
                    type="radio"
                    name={fields.scope.name}
                    value="following"
                    defaultChecked={scope === "following"}
                  />
                  This and following visits (the new time, length and crew; past and completed visits stay)
                </label>
                <FieldErrors id={fields.scope.errorId} errors={fields.scope.errors} />
              </fieldset>
            ) : null}
            {series ? (
              <RepeatFields
                fields={fields as unknown as Parameters<typeof RepeatFields>[0]["fields"]}
                start={String(fields.start.value ?? values.start)}
                keep={`Keep the rule (${series})`}
              />
            ) : null}
            <div className="form-actions">
              <button type="submit" name="intent" value="save" className="btn btn-primary" disabled={busy}>
                Save visit
              </button>
              <button type="submit" name="intent" value="cancel" className="btn btn-danger" disabled={busy}>
                Cancel visit
              </button>
              <Link to={`/jobs/${visit.jobId}`} className="btn btn-secondary">
                Back
              </Link>
            </div>
          </Form>
        )}
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
