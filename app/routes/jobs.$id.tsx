import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { JobPhotoGallery } from "~/components/job-photo-gallery";
import { CsrfInput, FormError } from "~/components/forms";
import { AddressLink, ChecklistView, ClockSince, PhoneLink, SignatureView } from "~/components/job-field";
import { RecordPage } from "~/components/record-page";
import { DateTime, StatusBadge } from "~/components/records";
import { formAction, type FormReply } from "~/http/conform.server";
import { recordPageData } from "~/http/record-page.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { jobPhotos } from "~/services/field/photos.server";
import { jobInvoice, unpricedLabour } from "~/services/invoices/invoices.server";
import { cancelJob, reopenJob } from "~/services/jobs/jobs.server";
import { jobOrigins } from "~/services/jobs/origins.server";
import { jobActionSchema } from "~/services/jobs/schemas";
import { getJob } from "~/services/records/jobs.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { humanize } from "~/utils/format";
import { recordScope } from "~/utils/permissions";
import { useLiveUpdates } from "~/components/live-updates";
import { JobVisits } from "~/components/visits";
import { crewChoices, jobVisits } from "~/services/visits/visits.server";
import visitStyles from "~/styles/visits.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: visitStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.job.title ?? "Job"} · Fieldwork` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  const found = await getJob(actorOf(user), params.id!);
  const { history, canManage } = await recordPageData(request, user, { type: "job", id: found.job.id });
  const invoice = canManage ? await jobInvoice(actorOf(user), found.job.id) : null;
  // Before invoicing: time whose member has no hourly rate would be invoiced at no charge.
  const unpriced = canManage && !invoice ? await unpricedLabour(actorOf(user), found.job.id) : [];
  const photos = await jobPhotos(actorOf(user), found.job.id);
  const ownOnly = recordScope(user.role) !== "all";
  // The quote and the booking request it came from (pages a technician does not open).
  const origins = ownOnly ? null : await jobOrigins(actorOf(user), found.job.id);
  const visits = await jobVisits(actorOf(user), found.job.id, user.timeZone);
  const crewMembers = canManage ? await crewChoices(actorOf(user)) : null;
  return json({ ...found, history, invoice, photos, ownOnly, canManage, origins, unpriced, visits, crewMembers });
}

/** Cancel a job, or put a cancelled one back to unscheduled (the office; 409 from any other state). */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  return formAction(request, jobActionSchema, async ({ intent }) => {
    const actor = actorOf(user);
    const job = intent === "cancel" ? await cancelJob(actor, params.id!) : await reopenJob(actor, params.id!);
    await setFlash(user, {
      message:
        intent === "cancel" ? `Job “${job.title}” cancelled.` : `Job “${job.title}” reopened: it is unscheduled again.`,
      tone: "success",
    });
    return redirect(`/jobs/${job.id}`, 303);
  });
}

const hours = (minutes: number) => `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;

export default function JobPage() {
  useLiveUpdates();
  const {
    job,
    activity,
    timeEntries,
    totalMinutes,
    ownOnly,
    canManage,
    history,
    invoice,
    photos,
    clock,
    checklist,
    signature,
    origins,
    unpriced,
    visits,
    crewMembers,
  } = useLoaderData<typeof loader>();
  const failure = useActionData<FormReply>()?.result;
  const busy = useNavigation().state === "submitting";
  const cancelled = job.status === "cancelled";
  const address = job.address ?? job.property_address ?? job.customer_address;
  return (
    <RecordPage
      history={history}
      title={job.title}
      description={
        <>
          <StatusBadge status={job.status} /> for{" "}
          {ownOnly ? job.customer_name : <Link to={`/customers/${job.customer_id}`}>{job.customer_name}</Link>}
        </>
      }
      actions={
        <>
          {invoice ? (
            <Link to={`/invoices/${invoice.id}`} className="btn btn-primary">
              Invoice {invoice.number}
            </Link>
          ) : null}
          {canManage ? (
            <Link to={`/jobs/${job.id}/items`} className="btn btn-secondary">
              Items and billing
            </Link>
          ) : null}
          {canManage && !invoice && job.status === "completed" ? (
            <Form method="post" action={`/jobs/${job.id}/invoice`} className="inline-form">
              <CsrfInput />
              <button type="submit" className="btn btn-primary" disabled={busy}>
                Create invoice
              </button>
            </Form>
          ) : null}
          {canManage && !cancelled && job.status !== "completed" ? (
            <Link to={`/jobs/${job.id}/schedule`} className="btn btn-primary">
              {job.scheduled_start ? "Reschedule" : "Schedule"}
            </Link>
          ) : null}
          {canManage && !cancelled ? (
            <Link to={`/jobs/${job.id}/edit`} className="btn btn-secondary">
              Edit job
            </Link>
          ) : null}
          {canManage && (cancelled || job.status !== "completed") ? (
            <Form method="post" className="inline-form">
              <CsrfInput />
              <button
                type="submit"
                name="intent"
                value={cancelled ? "reopen" : "cancel"}
                className="btn btn-secondary"
                disabled={busy}
              >
                {cancelled ? "Reopen job" : "Cancel job"}
              </button>
            </Form>
          ) : null}
          <Link to={ownOnly ? "/jobs" : "/jobs?status=all"} className="btn btn-secondary">
            {ownOnly ? "My jobs" : "All jobs"}
          </Link>
        </>
      }
      notices={
        <>
          <FormError
            errors={
              failure?.error
                ? Object.values(failure.error)
                    .flat()
                    .filter((e): e is string => !!e)
                : undefined
            }
          />
          {unpriced.length && job.status !== "cancelled" ? (
            <div className="alert alert-warning" role="note" id="unpriced-labour">
              <p>
                <strong>No hourly rate:</strong> {unpriced.map((u) => `${u.name} (${hours(u.minutes)})`).join("; ")}.
                Their time would go on the invoice at no charge. Give the line a price on the draft invoice before you
                send it.
              </p>
            </div>
          ) : null}
          {clock ? (
            <p className="card clock-banner" role="status">
              <ClockSince startedAt={clock.started_at} onSiteAt={clock.on_site_at} who={clock.who} />
            </p>
          ) : null}
        </>
      }
    >
      <div className="grid grid-2">
        <section className="card">
          <h2>Details</h2>
          <dl className="details">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={job.status} />
            </dd>
            <dt>Scheduled</dt>
            <dd>
              {job.scheduled_start ? (
                <>
                  <DateTime value={job.scheduled_start} />
                  {job.scheduled_end ? (
                    <>
                      {" "}
                      to <DateTime value={job.scheduled_end} />
                    </>
                  ) : null}
                </>
              ) : (
                <span className="muted">Not scheduled</span>
              )}
            </dd>
            <dt>Assigned to</dt>
            <dd>{job.assignee_name ?? <span className="muted">Unassigned</span>}</dd>
            {job.property_label || job.property_address ? (
              <>
                <dt>Property</dt>
                <dd>{[job.property_label, job.property_address].filter(Boolean).join(" · ")}</dd>
              </>
            ) : null}
            <dt>Address</dt>
            <dd>{address ? <AddressLink address={address} /> : <span className="muted">—</span>}</dd>
            {job.completed_at ? (
              <>
                <dt>Completed</dt>
                <dd>
                  <DateTime value={job.completed_at} />
                </dd>
              </>
            ) : null}
            {origins?.quote ? (
              <>
                <dt>From quote</dt>
                <dd>
                  <Link to={`/quotes/${origins.quote.id}`}>Quote {origins.quote.number}</Link>
                </dd>
              </>
            ) : null}
            {origins?.request ? (
              <>
                <dt>Booking request</dt>
                <dd>
                  <Link
                    to={`/requests?${new URLSearchParams({ status: "all", q: origins.request.service })}#request-${origins.request.id}`}
                  >
                    {origins.request.service}
                  </Link>{" "}
                  <span className="muted small">
                    received <DateTime value={origins.request.createdAt} />
                  </span>
                </dd>
              </>
            ) : null}
            {job.external_id ? (
              <>
                <dt>External id</dt>
                <dd className="mono">{job.external_id}</dd>
              </>
            ) : null}
          </dl>
          {job.description ? (
            <>
              <h3 className="section-gap">Description</h3>
              <p className="prewrap">{job.description}</p>
            </>
          ) : null}
        </section>
        <section className="card">
          <h2>Customer</h2>
          <dl className="details">
            <dt>Name</dt>
            <dd>
              {ownOnly ? job.customer_name : <Link to={`/customers/${job.customer_id}`}>{job.customer_name}</Link>}
            </dd>
            <dt>Phone</dt>
            <dd>{job.customer_phone ? <PhoneLink phone={job.customer_phone} /> : <span className="muted">—</span>}</dd>
            <dt>Email</dt>
            <dd>{job.customer_email ?? <span className="muted">—</span>}</dd>
          </dl>
        </section>
      </div>

      <JobVisits
        jobId={job.id}
        visits={visits}
        members={crewMembers}
        canAdd={canManage && !cancelled && job.status !== "completed"}
        canEdit={canManage}
      />

      {checklist.length || signature ? (
        <div className="grid grid-2">
          <section className="card" aria-labelledby="checklist-title">
            <h2 id="checklist-title">Checklist</h2>
            {checklist.length ? (
              <ChecklistView items={checklist} />
            ) : (
              <p className="muted">No checklist on this job.</p>
            )}
          </section>
          <section className="card" aria-labelledby="signature-title">
            <h2 id="signature-title">Customer signature</h2>
            {signature ? (
              <SignatureView signature={signature} />
            ) : (
              <p className="muted">Not signed yet. The technician collects it when completing the job.</p>
            )}
          </section>
        </div>
      ) : null}

      <section className="card" aria-labelledby="time-title">
        <div className="card-header">
          <h2 id="time-title">Time entries</h2>
          {timeEntries.length ? <span className="muted">Total {hours(totalMinutes)}</span> : null}
        </div>
        {timeEntries.length ? (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Who</th>
                  <th>Started</th>
                  <th>Ended</th>
                  <th className="num">Duration</th>
                  <th>Note</th>
                </tr>
              </thead>
              <tbody>
                {timeEntries.map((e) => (
                  <tr key={e.id}>
                    <td>{e.who ?? <span className="muted">Former member</span>}</td>
                    <td>
                      <DateTime value={e.started_at} />
                    </td>
                    <td>
                      <DateTime value={e.ended_at} />
                    </td>
                    <td className="num">{hours(e.minutes)}</td>
                    <td>{e.note}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">
            {clock
              ? "The clock is running: its time entry is written when the technician puts the job on hold, stops the clock or completes it."
              : "No time recorded yet. Technicians record time from the field app, even offline."}
          </p>
        )}
      </section>

      <JobPhotoGallery jobId={job.id} photos={photos} />

      <section className="card" aria-labelledby="activity-title">
        <h2 id="activity-title">Activity from the field</h2>
        {activity.length ? (
          <ol className="timeline">
            {activity.map((a) => (
              <li key={`${a.kind}-${a.id}`} className={`timeline-${a.kind}`}>
                <div className="timeline-meta">
                  <DateTime value={a.at} /> · {a.who ?? "Former member"}
                </div>
                {a.kind === "note" ? (
                  <p className="prewrap">{a.body}</p>
                ) : (
                  <p>
                    Status{" "}
                    {a.from ? (
                      <>
                        changed from <StatusBadge status={a.from} /> to
                      </>
                    ) : (
                      "set to"
                    )}{" "}
                    <StatusBadge status={a.to} label={humanize(a.to)} />
                  </p>
                )}
              </li>
            ))}
          </ol>
        ) : (
          <p className="muted">No notes or status changes yet. They appear here when the technician syncs.</p>
        )}
      </section>
    </RecordPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
