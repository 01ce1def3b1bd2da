import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ClockSince } from "~/components/job-field";
import { ListPage, type ListColumn } from "~/components/list-page";
import { DateTime, optionsOf, StatusBadge, type FilterSelect } from "~/components/records";
import { listPageData } from "~/http/list-page.server";
import { jobListSchema, listAssignees, listJobs } from "~/services/records/jobs.server";
import { FILTER_LABELS, JOB_FILTERS } from "~/services/records/statuses";
import { requireUserWithPermission } from "~/http/auth.server";
import { recordScope } from "~/utils/permissions";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { work: "search" };

export const meta: MetaFunction = () => [{ title: "Jobs · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  const ownOnly = recordScope(user.role) !== "all";
  // A technician's list is never "a new business": their empty list says "nothing assigned".
  const data = await listPageData(request, user, {
    schema: jobListSchema,
    table: "jobs",
    list: listJobs,
    knownToHaveAny: ownOnly,
  });
  const { params } = data;
  const narrowed =
    !!(params.q || params.assignee || params.customer || params.after || params.before) || params.status !== "open";
  return json({ ...data, narrowed, ownOnly, assignees: ownOnly ? [] : await listAssignees(user.tenantId) });
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["page"]["items"][number];

const jobColumns = (ownOnly: boolean): Array<ListColumn<Row>> => [
  { header: "Job", cell: (j) => <Link to={`/jobs/${j.id}`}>{j.title}</Link> },
  {
    header: "Customer",
    cell: (j) => (ownOnly ? j.customer_name : <Link to={`/customers/${j.customer_id}`}>{j.customer_name}</Link>),
  },
  {
    header: "Status",
    cell: (j) => (
      <>
        <StatusBadge status={j.status} />
        {j.clock_started_at ? (
          <div className="small">
            <ClockSince startedAt={j.clock_started_at} onSiteAt={j.clock_on_site_at} />
          </div>
        ) : null}
      </>
    ),
  },
  {
    header: "Scheduled",
    cell: (j) =>
      j.scheduled_start ? <DateTime value={j.scheduled_start} /> : <span className="muted">Not scheduled</span>,
  },
  ...(ownOnly
    ? []
    : [{ header: "Assigned to", cell: (j: Row) => j.assignee_name ?? <span className="muted">Unassigned</span> }]),
];

export default function JobsPage() {
  const { page, params, narrowed, any, ownOnly, assignees, canImport, canCreate } = useLoaderData<typeof loader>();
  const filters: FilterSelect[] = [
    { name: "status", label: "Status", value: params.status, options: optionsOf(JOB_FILTERS, FILTER_LABELS) },
  ];
  if (!ownOnly) {
    filters.push({
      name: "assignee",
      label: "Assigned to",
      value: params.assignee ?? "",
      options: [
        { value: "", label: "Anyone" },
        { value: "unassigned", label: "Unassigned" },
        ...assignees.map((a) => ({ value: a.id, label: a.name })),
      ],
    });
  }
  const firstRunBody = canCreate ? (
    <p>
      No jobs yet: <Link to="/jobs/new">create one</Link>
      {canImport ? (
        <>
          {" "}
          or <Link to="/import-data?type=jobs">import them</Link>
        </>
      ) : null}
      .
    </p>
  ) : canImport ? (
    <p>
      No jobs yet: <Link to="/import-data?type=jobs">import them</Link> (import customers and team first).
    </p>
  ) : (
    <p>Jobs appear here once they are imported or booked.</p>
  );
  return (
    <ListPage
      title={ownOnly ? "My jobs" : "Jobs"}
      description={
        ownOnly ? "The jobs assigned to you, by schedule." : "Every job, by schedule; unscheduled jobs come last."
      }
      actions={
        canCreate ? (
          <Link
            to={params.customer ? `/jobs/new?customerId=${params.customer}` : "/jobs/new"}
            className="btn btn-primary"
          >
            New job
          </Link>
        ) : null
      }
      firstRun={any ? null : { title: "No jobs yet", body: firstRunBody }}
      search={{ q: params.q, placeholder: "Job title", filters }}
      customerScope={{ customerId: params.customer, noun: "jobs", everyoneHref: `/jobs?status=${params.status}` }}
      columns={jobColumns(ownOnly)}
      rows={page.items}
      noMatch={
        narrowed
          ? {
              title: "No jobs match",
              body: (
                <p>
                  Try another status or fewer words, or <Link to="/jobs?status=all">show all jobs</Link>.
                </p>
              ),
            }
          : {
              title: ownOnly ? "No open jobs assigned to you" : "No open jobs",
              body: (
                <p>
                  Everything is done. <Link to="/jobs?status=all">Show all jobs</Link>, including completed ones.
                </p>
              ),
            }
      }
      page={page}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
