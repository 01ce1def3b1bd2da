import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CsrfInput, FormError } from "~/components/forms";
import { EmptyState, PageHeader } from "~/components/layout";
import { DateTime, ListToolbar, optionsOf, Pagination, StatusBadge } from "~/components/records";
import { formAction, type FormReply } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { tenantHasAny } from "~/services/records/keyset.server";
import { searchParamsObject } from "~/services/records/list-params";
import {
  listRequests,
  requestListSchema,
  triageRequest,
  triageSchema,
} from "~/services/booking-requests/requests.server";
import { FILTER_LABELS, REQUEST_FILTERS, REQUEST_TRANSITIONS, type RequestStatus } from "~/services/records/statuses";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { formatDate, humanize } from "~/utils/format";
import { can } from "~/utils/permissions";
import { requireAllRecords } from "~/http/records-access.server";
import { listPageOf } from "~/utils/return-to";
import { useLiveUpdates } from "~/components/live-updates";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { work: "search" };

export const meta: MetaFunction = () => [{ title: "Booking requests · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  const params = requestListSchema.parse(searchParamsObject(request.url));
  const page = await listRequests(actorOf(user), params);
  const any = page.items.length > 0 || (await tenantHasAny(user.tenantId, "booking_requests"));
  return json({
    page,
    params,
    any,
    canTriage: can(user.role, "manage_portal_links"),
    canConvert: can(user.role, "manage_records"),
  });
}

const DONE: Record<string, string> = { scheduled: "marked scheduled", declined: "declined", archived: "archived" };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_portal_links");
  return formAction(request, triageSchema, async (input, { form }) => {
    const { service } = await triageRequest(actorOf(user), input.requestId, input.status);
    await setFlash(user, { message: `Booking request “${service}” ${DONE[input.status]}.`, tone: "success" });
    return redirect(listPageOf(form.get("returnTo"), "/requests"), 303);
  });
}

const ACTION_LABELS: Record<RequestStatus, string> = {
  new: "",
  scheduled: "Mark scheduled",
  declined: "Decline",
  archived: "Archive",
};
const WINDOWS: Record<string, string> = {
  any: "Any time",
  morning: "Morning",
  afternoon: "Afternoon",
  evening: "Evening",
};

export default function RequestsPage() {
  useLiveUpdates();
  const { page, params, any, canTriage, canConvert } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>()?.result;
  const failure = reply?.error ? Object.values(reply.error).flatMap((e) => e ?? []) : undefined;
  const location = useLocation();
  const busy = useNavigation().state === "submitting";
  const returnTo = location.pathname + location.search;
  if (!any) {
    return (
      <>
        <PageHeader title="Booking requests" />
        <EmptyState title="No booking requests yet">
          <p>
            Customers ask for bookings from their portal. <Link to="/customers">Open a customer</Link> and send them a
            portal link.
          </p>
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Booking requests"
        description="Requests customers sent from their portal, newest first. Turn each into a quote or a job, or decline or archive it."
      />
      <FormError errors={failure} />
      <ListToolbar
        q={params.q}
        placeholder="Service or customer"
        filters={[
          { name: "status", label: "Status", value: params.status, options: optionsOf(REQUEST_FILTERS, FILTER_LABELS) },
        ]}
      />
      {page.items.length ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Received</th>
                <th>Customer</th>
                <th>Service</th>
                <th>Preferred</th>
                <th>Status</th>
                {canTriage || canConvert ? <th>Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {page.items.map((r) => (
                <tr key={r.id} id={`request-${r.id}`}>
                  <td className="nowrap">
                    <DateTime value={r.created_at} />
                  </td>
                  <td>
                    <Link to={`/customers/${r.customer_id}`} className="nowrap">
                      {r.customer_name}
                    </Link>
                    {r.phone ? <div className="muted small">{r.phone}</div> : null}
                  </td>
                  <td>
                    <strong>{r.service}</strong>
                    {r.description ? <div className="muted small prewrap clamp">{r.description}</div> : null}
                    {r.property ? <div className="muted small">Property: {r.property}</div> : null}
                    {r.address ? <div className="muted small">{r.address}</div> : null}
                  </td>
                  <td>
                    {r.preferred_date ? formatDate(r.preferred_date) : <span className="muted">Any day</span>}
                    <div className="muted small">{WINDOWS[r.time_window] ?? humanize(r.time_window)}</div>
                  </td>
                  <td>
                    <StatusBadge status={r.status} />
                    {r.triaged_at ? (
                      <div className="muted small">by {r.triaged_by_name ?? "a former member"}</div>
                    ) : null}
                  </td>
                  {canTriage || canConvert ? (
                    <td>
                      {canConvert ? (
                        <div className="triage-form">
                          {r.quote_id ? (
                            <Link to={`/quotes/${r.quote_id}`} className="btn btn-sm btn-secondary">
                              Quote {r.quote_number}
                            </Link>
                          ) : null}
                          {r.job_id ? (
                            <Link to={`/jobs/${r.job_id}`} className="btn btn-sm btn-secondary">
                              Open job
                            </Link>
                          ) : null}
                          {r.status === "new" || r.status === "scheduled" ? (
                            <Form
                              method="post"
                              action={`/requests/${r.id}/convert`}
                              className="inline-form"
                              aria-label={`Create from ${r.service} for ${r.customer_name}`}
                            >
                              <CsrfInput />
                              {r.quote_id ? null : (
                                <button
                                  type="submit"
                                  name="to"
                                  value="quote"
                                  className="btn btn-sm btn-primary"
                                  disabled={busy}
                                >
                                  Create quote
                                </button>
                              )}
                              {r.job_id ? null : (
                                <button
                                  type="submit"
                                  name="to"
                                  value="job"
                                  className={`btn btn-sm ${r.quote_id ? "btn-primary" : "btn-secondary"}`}
                                  disabled={busy}
                                >
                                  Create job
                                </button>
                              )}
                            </Form>
                          ) : null}
                        </div>
                      ) : null}
                      {!canTriage ? null : REQUEST_TRANSITIONS[r.status].length ? (
                        <Form
                          method="post"
                          className="triage-form"
                          aria-label={`Triage ${r.service} for ${r.customer_name}`}
                        >
                          <CsrfInput />
                          <input type="hidden" name="requestId" value={r.id} />
                          <input type="hidden" name="returnTo" value={returnTo} />
                          {REQUEST_TRANSITIONS[r.status].map((to) => (
                            <button
                              key={to}
                              type="submit"
                              name="status"
                              value={to}
                              disabled={busy}
                              className={`btn btn-sm ${to === "scheduled" ? "btn-primary" : "btn-secondary"}`}
                            >
                              {ACTION_LABELS[to]}
                            </button>
                          ))}
                        </Form>
                      ) : (
                        <span className="muted small">Done</span>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <EmptyState title="No booking requests match">
          <p>
            Try another status or fewer words, or <Link to="/requests">show all requests</Link>.
          </p>
        </EmptyState>
      )}
      <Pagination nextCursor={page.nextCursor} prevCursor={page.prevCursor} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
