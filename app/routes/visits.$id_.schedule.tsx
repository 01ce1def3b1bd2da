import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { TextField } from "~/components/conform-fields";
import { CsrfInput, FormError, useConformForm } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { StatusBadge } from "~/components/records";
import { CrewCheckboxes } from "~/components/visits";
import { LIMITS, readForm } from "~/http/body.server";
import { assertCsrf } from "~/http/csrf.server";
import { toAppError } from "~/http/envelope.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { visitScheduleSchema } from "~/services/visits/schemas";
import { scheduleVisit, visitScheduleChoices } from "~/services/visits/visits.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { listPageOf, recordPageOf } from "~/utils/return-to";
import visitStyles from "~/styles/visits.css";

// GET/POST /visits/<id>/schedule: a visit's time and crew, the one action
// behind the board's drag and drop (a fetcher, `via=board`, answered with JSON) and the card's
// no-JavaScript form (this page, 303 back to the board). All fields empty = unschedule.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: visitStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Schedule a visit of ${data?.visit.title ?? "a job"} · Fieldwork` },
];

/** Back to the board the form was opened from, or to the visit's job. */
const backTo = (value: FormDataEntryValue | string | null | undefined, jobId: string) =>
  typeof value === "string" && value.startsWith("/schedule")
    ? listPageOf(value, "/schedule")
    : recordPageOf(value, `/jobs/${jobId}`);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  const found = await visitScheduleChoices(actorOf(user), params.id!, user.timeZone);
  return json({
    ...found,
    timeZone: user.timeZone,
    returnTo: backTo(new URL(request.url).searchParams.get("returnTo"), found.visit.jobId),
  });
}

type Reply = { result: SubmissionResult<string[]>; ok?: false } | { ok: true; message: string; visitId: string };

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  let form: FormData;
  try {
    form = await readForm(request, LIMITS.form);
    await assertCsrf(request, form);
  } catch (error) {
    if (error instanceof Response) throw error;
    const e = toAppError(error, request);
    throw json({ message: e.message }, { status: e.status, headers: e.headers });
  }
  const submission = parseWithZod(form, { schema: visitScheduleSchema });
  if (submission.status !== "success") return json<Reply>({ result: submission.reply() }, { status: 422 });
  const { via, returnTo, ...schedule } = submission.value;
  try {
    const moved = await scheduleVisit(actorOf(user), params.id!, schedule);
    if (via === "board") return json<Reply>({ ok: true, message: moved.message, visitId: moved.visitId });
    await setFlash(user, { message: moved.message, tone: "success" });
    return redirect(backTo(returnTo, moved.jobId), 303);
  } catch (error) {
    if (error instanceof Response) throw error;
    const e = toAppError(error, request);
    // The board's fetcher shows every refusal on the board; a page shows 403/404 as its page.
    if ((e.code === "NOT_FOUND" || e.code === "FORBIDDEN") && via !== "board")
      throw json({ message: e.message }, { status: e.status });
    const fields = e.code === "VALIDATION_FAILED" && Object.keys(e.fields).length ? e.fields : undefined;
    return json<Reply>(
      { result: submission.reply({ fieldErrors: fields, formErrors: fields ? undefined : [e.message] }) },
      { status: e.status },
    );
  }
}

export default function ScheduleVisitPage() {
  const { visit, members, values, timeZone, returnTo } = useLoaderData<typeof loader>();
  const reply = useActionData<Reply>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useConformForm(visitScheduleSchema, {
    id: "visit-schedule-form",
    lastResult: reply && "result" in reply ? reply.result : undefined,
    defaultValue: values,
  });
  return (
    <>
      <PageHeader
        title={`Schedule a visit of “${visit.title}”`}
        description={
          <>
            <StatusBadge status={visit.status} /> for {visit.customerName}
            {visit.address ? ` · ${visit.address}` : ""}
          </>
        }
        actions={
          <Link to={returnTo} className="btn btn-secondary">
            Back
          </Link>
        }
      />
      <section className="card narrow" aria-labelledby="move-title">
        <h2 id="move-title">Crew and time</h2>
        <Form method="post" {...getFormProps(form)} className="stack">
          <CsrfInput />
          <input type="hidden" name="returnTo" value={returnTo} />
          <FormError errors={form.errors} />
          <CrewCheckboxes meta={fields.assigneeIds} members={members} />
          <div className="form-row">
            <TextField meta={fields.start} label="Start" type="datetime-local" className="grow" input={{ step: 900 }} />
            <TextField meta={fields.end} label="End" type="datetime-local" className="grow" input={{ step: 900 }} />
          </div>
          <p className="field-hint">
            Times are in the business&apos;s time zone ({timeZone}); the end may be days later. Clear every field to
            take the visit off the schedule.
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
      {visit.status === "scheduled" ? (
        <Form method="post" className="card narrow unschedule-form">
          <CsrfInput />
          <input type="hidden" name="returnTo" value={returnTo} />
          <p className="muted">Not happening at this time? Take the visit off the schedule.</p>
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
