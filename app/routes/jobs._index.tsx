import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { EmptyState, PageHeader } from "~/components/layout";
import { ClockSince } from "~/components/job-field";
import { DateTime, ListToolbar, optionsOf, Pagination, StatusBadge, type FilterSelect } from "~/components/records";
import { jobListSchema, listAssignees, listJobs } from "~/services/records/jobs.server";
import { tenantHasAny } from "~/services/records/keyset.server";
import { searchParamsObject } from "~/services/records/list-params";
import { FILTER_LABELS, JOB_FILTERS } from "~/services/records/statuses";
import { actorOf, requireUserWithPermission } from "~/utils/auth.server";
import { can, recordScope } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Jobs · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  const ownOnly = recordScope(user.role) !== "all";
  const params = jobListSchema.parse(searchParamsObject(request.url));
  const page = await listJobs(actorOf(user), params);
  const narrowed = !!(params.q || params.assignee || params.customer || params.after || params.before) || params.status !== "open";
  const anyJobs = page.items.length > 0 || ownOnly || (await tenantHasAny(user.tenantId, "jobs"));
  return json({
    page,
    params,
    narrowed,
    anyJobs,
    ownOnly,
    assignees: ownOnly ? [] : await listAssignees(user.tenantId),
    canImport: can(user.role, "import_csv"),
    canCreate: can(user.role, "manage_records"),
  });
}

export default function JobsPage() {
  const { page, params, narrowed, anyJobs, ownOnly, assignees, canImport, canCreate } = useLoaderData<typeof loader>();
  const title = ownOnly ? "My jobs" : "Jobs";
  const newJob = canCreate ? <Link to={params.customer ? `/jobs/new?customerId=${params.customer}` : "/jobs/new"} className="btn btn-primary">New job</Link> : null;
  if (!anyJobs) {
    return (
      <>
        <PageHeader title={title} actions={newJob} />
        <EmptyState title="No jobs yet">
          {canCreate ? <p>No jobs yet: <Link to="/jobs/new">create one</Link>{canImport ? <> or <Link to="/import-data?type=jobs">import them</Link></> : null}.</p> : canImport ? <p>No jobs yet: <Link to="/import-data?type=jobs">import them</Link> (import customers and team first).</p> : <p>Jobs appear here once they are imported or booked.</p>}
        </EmptyState>
      </>
    );
  }
  const filters: FilterSelect[] = [{ name: "status", label: "Status", value: params.status, options: optionsOf(JOB_FILTERS, FILTER_LABELS) }];
  if (!ownOnly) {
    filters.push({
      name: "assignee",
      label: "Assigned to",
      value: params.assignee ?? "",
      options: [{ value: "", label: "Anyone" }, { value: "unassigned", label: "Unassigned" }, ...assignees.map((a) => ({ value: a.id, label: a.name }))],
    });
  }
  return (
    <>
      <PageHeader
        title={title}
        description={ownOnly ? "The jobs assigned to you, by schedule." : "Every job, by schedule; unscheduled jobs come last."}
        actions={newJob}
      />
      <ListToolbar q={params.q} placeholder="Job title" filters={filters} hidden={{ customer: params.customer }} />
      {params.customer ? (
        <p className="filter-note">Showing one customer's jobs. <Link to={`/jobs?status=${params.status}`}>Show every customer</Link></p>
      ) : null}
      {page.items.length ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr><th>Job</th><th>Customer</th><th>Status</th><th>Scheduled</th>{ownOnly ? null : <th>Assigned to</th>}</tr>
            </thead>
            <tbody>
              {page.items.map((j) => (
                <tr key={j.id}>
                  <td><Link to={`/jobs/${j.id}`}>{j.title}</Link></td>
                  <td>{ownOnly ? j.customer_name : <Link to={`/customers/${j.customer_id}`}>{j.customer_name}</Link>}</td>
                  <td>
                    <StatusBadge status={j.status} />
                    {j.clock_started_at ? <div className="small"><ClockSince startedAt={j.clock_started_at} onSiteAt={j.clock_on_site_at} /></div> : null}
                  </td>
                  <td>{j.scheduled_start ? <DateTime value={j.scheduled_start} /> : <span className="muted">Not scheduled</span>}</td>
                  {ownOnly ? null : <td>{j.assignee_name ?? <span className="muted">Unassigned</span>}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : narrowed ? (
        <EmptyState title="No jobs match">
          <p>Try another status or fewer words, or <Link to="/jobs?status=all">show all jobs</Link>.</p>
        </EmptyState>
      ) : (
        <EmptyState title={ownOnly ? "No open jobs assigned to you" : "No open jobs"}>
          <p>Everything is done. <Link to="/jobs?status=all">Show all jobs</Link>, including completed ones.</p>
        </EmptyState>
      )}
      <Pagination nextCursor={page.nextCursor} prevCursor={page.prevCursor} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
