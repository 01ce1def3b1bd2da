import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CsrfInput, FieldErrors, FormError } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { StatusBadge } from "~/components/records";
import { boardOrJobPage, boardScheduleAction, type BoardReply } from "~/http/board-schedule.server";
import { moveJob, scheduleFormChoices } from "~/services/schedule/move.server";
import { scheduleFormSchema } from "~/services/schedule/schemas";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { ROLE_LABELS } from "~/utils/permissions";

// GET/POST /jobs/<id>/schedule: the one action behind the board's drag
// and drop (a fetcher, `via=board`, answered with JSON) and its no-JavaScript form (this page,
// 303 back to the board). All three fields empty = unschedule.

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Schedule ${data?.job.title ?? "job"} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const found = await scheduleFormChoices(actorOf(user), params.id!, user.timeZone);
  return json({
    ...found,
    timeZone: user.timeZone,
    returnTo: boardOrJobPage(new URL(request.url).searchParams.get("returnTo"), found.job.id),
  });
}

export const action = ({ request, params }: ActionFunctionArgs) =>
  boardScheduleAction(request, {
    permission: "manage_records",
    schema: scheduleFormSchema,
    idKey: "jobId",
    move: (actor, schedule) => moveJob(actor, params.id!, schedule),
  });

export default function ScheduleJobPage() {
  const { job, members, values, timeZone, returnTo } = useLoaderData<typeof loader>();
  const reply = useActionData<BoardReply<"jobId">>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "schedule-form",
    lastResult: reply && "result" in reply ? reply.result : undefined,
    defaultValue: values,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: scheduleFormSchema }),
  });
  const errorsOf = (f: { errors?: string[] }) => f.errors;
  return (
    <>
      <PageHeader
        title={`Schedule “${job.title}”`}
        description={
          <>
            <StatusBadge status={job.status} /> for {job.customerName}
            {job.address ? ` · ${job.address}` : ""}
          </>
        }
        actions={
          <Link to={returnTo} className="btn btn-secondary">
            Back
          </Link>
        }
      />
      <section className="card narrow" aria-labelledby="move-title">
        <h2 id="move-title">Technician and time</h2>
        <Form method="post" {...getFormProps(form)} className="stack">
          <CsrfInput />
          <input type="hidden" name="returnTo" value={returnTo} />
          <FormError errors={form.errors} />
          <div className={`field${fields.assigneeId.errors ? " field-invalid" : ""}`}>
            <label htmlFor={fields.assigneeId.id}>Technician</label>
            <select {...getSelectProps(fields.assigneeId)} key={fields.assigneeId.key}>
              <option value="">Unassigned</option>
              {members.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.role === "technician" ? m.name : `${m.name} (${ROLE_LABELS[m.role]})`}
                </option>
              ))}
            </select>
            <FieldErrors id={fields.assigneeId.errorId} errors={errorsOf(fields.assigneeId)} />
          </div>
          <div className="form-row">
            <div className={`field grow${fields.scheduledStart.errors ? " field-invalid" : ""}`}>
              <label htmlFor={fields.scheduledStart.id}>Start</label>
              <input
                {...getInputProps(fields.scheduledStart, { type: "datetime-local" })}
                key={fields.scheduledStart.key}
                step={900}
              />
              <FieldErrors id={fields.scheduledStart.errorId} errors={errorsOf(fields.scheduledStart)} />
            </div>
            <div className={`field grow${fields.scheduledEnd.errors ? " field-invalid" : ""}`}>
              <label htmlFor={fields.scheduledEnd.id}>End</label>
              <input
                {...getInputProps(fields.scheduledEnd, { type: "datetime-local" })}
                key={fields.scheduledEnd.key}
                step={900}
              />
              <FieldErrors id={fields.scheduledEnd.errorId} errors={errorsOf(fields.scheduledEnd)} />
            </div>
          </div>
          <p className="field-hint">
            Times are in the business's time zone ({timeZone}). Clear all three fields to take the job off the schedule.
          </p>
          <div className="form-row">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Save schedule
            </button>
            <Link to={returnTo} className="btn btn-secondary">
              Cancel
            </Link>
          </div>
        </Form>
      </section>
      {values.scheduledStart ? (
        <Form method="post" className="card narrow unschedule-form">
          <CsrfInput />
          <input type="hidden" name="returnTo" value={returnTo} />
          <input type="hidden" name="assigneeId" value="" />
          <input type="hidden" name="scheduledStart" value="" />
          <input type="hidden" name="scheduledEnd" value="" />
          <p className="muted">Not happening at this time? Put the job back on the unscheduled list.</p>
          <button type="submit" className="btn btn-secondary" disabled={busy}>
            Unschedule
          </button>
        </Form>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
