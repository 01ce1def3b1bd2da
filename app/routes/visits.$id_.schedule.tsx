import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { TextField } from "~/components/conform-fields";
import { CsrfInput, FormError, useConformForm } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { StatusBadge } from "~/components/records";
import { CrewCheckboxes } from "~/components/visits";
import { boardOrJobPage, boardScheduleAction, type BoardReply } from "~/http/board-schedule.server";
import { visitScheduleSchema } from "~/services/visits/schemas";
import { scheduleVisit, visitScheduleChoices } from "~/services/visits/visits.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import visitStyles from "~/styles/visits.css";

// GET/POST /visits/<id>/schedule: a visit's time and crew, the one action
// behind the board's drag and drop (a fetcher, `via=board`, answered with JSON) and the card's
// no-JavaScript form (this page, 303 back to the board). All fields empty = unschedule.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: visitStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Schedule a visit of ${data?.visit.title ?? "a job"} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  const found = await visitScheduleChoices(actorOf(user), params.id!, user.timeZone);
  return json({
    ...found,
    timeZone: user.timeZone,
    returnTo: boardOrJobPage(new URL(request.url).searchParams.get("returnTo"), found.visit.jobId),
  });
}

export const action = ({ request, params }: ActionFunctionArgs) =>
  boardScheduleAction(request, {
    permission: "view_records",
    schema: visitScheduleSchema,
    idKey: "visitId",
    move: (actor, schedule) => scheduleVisit(actor, params.id!, schedule),
  });

export default function ScheduleVisitPage() {
  const { visit, members, values, timeZone, returnTo } = useLoaderData<typeof loader>();
  const reply = useActionData<BoardReply<"visitId">>();
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
