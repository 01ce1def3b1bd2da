import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { BarChart, HBarChart } from "~/components/charts";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { EmptyState, PageHeader } from "~/components/layout";
import { ClockSince } from "~/components/job-field";
import { DateTime, StatusBadge } from "~/components/records";
import { dashboardCounts, dashboardLists } from "~/services/dashboard/dashboard.server";
import { requireUser } from "~/http/auth.server";
import { monthLabel } from "~/services/reports/periods";
import chartStyles from "~/styles/reports.css";
import { formatDate, formatMoney, formatMoneyCompact, humanize } from "~/utils/format";
import { can, recordScope } from "~/utils/permissions";
import { useLiveUpdates } from "~/components/live-updates";

export const meta: MetaFunction = () => [{ title: "Dashboard · Fieldwork" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: chartStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // Roles without the dashboard land on their own start page: a technician, their day
  // (/field, "My day": their assigned jobs with the actions of the field app).
  if (!can(user.role, "view_dashboard"))
    throw redirect(recordScope(user.role) === "own_jobs" ? "/field" : "/ai-assistant");
  const [counts, { visitsToBill, ...lists }] = await Promise.all([
    dashboardCounts(user.tenantId),
    dashboardLists(user.tenantId),
  ]);
  return json({ name: user.name, counts, lists, visitsToBill, canImport: can(user.role, "import_csv") });
}

export default function Dashboard() {
  useLiveUpdates();
  const { name, counts, lists, visitsToBill, canImport } = useLoaderData<typeof loader>();
  const stats = [
    { label: "Customers", value: counts.customers, to: "/customers", note: "Everyone you work for" },
    {
      label: "Open jobs",
      value: counts.openJobs,
      to: "/jobs?status=open",
      note: counts.unscheduledJobs ? `${counts.unscheduledJobs} not scheduled yet` : "All scheduled",
    },
    {
      label: "Quotes awaiting response",
      value: counts.quotesAwaiting,
      to: "/quotes?status=sent",
      note: "Sent and still valid",
    },
    {
      label: "Unpaid total",
      value: counts.unpaidTotal,
      to: "/invoices?status=unpaid",
      note: counts.overdueInvoices ? `${counts.overdueInvoices} overdue` : "Nothing overdue",
    },
    {
      label: "New booking requests",
      value: counts.newRequests,
      to: "/requests?status=new",
      note: "From the customer portal",
    },
  ];
  // What is waiting on the office, each linking to the list of exactly those records.
  const waiting = [
    {
      label: "Approved quotes to schedule",
      value: counts.quotesToSchedule,
      to: "/quotes?status=to_schedule",
      note: "Approved, no job made yet",
    },
    {
      label: "Completed jobs to invoice",
      value: counts.jobsToInvoice,
      to: "/jobs?status=to_invoice",
      note: "Done, no invoice made yet",
    },
    {
      label: "Overdue invoices",
      value: counts.overdueInvoices,
      to: "/invoices?status=overdue",
      note: "Unpaid past their due date",
    },
  ];
  const c = counts.collected;
  const money = (cents: number) => formatMoney(cents, c.currency);
  return (
    <>
      <PageHeader title={`Welcome, ${name.split(" ")[0]}`} description="Here is where your business stands today." />
      {counts.customers === 0 ? (
        <EmptyState title="Start with your customers">
          {canImport ? (
            <p>
              No customers yet: <Link to="/import-data?type=customers">import them</Link>, then your team, jobs, quotes
              and invoices.
            </p>
          ) : (
            <p>No customers yet. Ask an owner, admin or office member to import them.</p>
          )}
        </EmptyState>
      ) : null}
      <div className="grid grid-3 stats">
        {stats.map((s) => (
          <Link key={s.label} to={s.to} className="stat">
            <div className="stat-label">{s.label}</div>
            <div className="stat-value">{s.value}</div>
            <div className="stat-note">{s.note}</div>
          </Link>
        ))}
      </div>
      <section className="section-gap" aria-labelledby="waiting-title">
        <h2 id="waiting-title" className="section-title">
          Waiting on you
        </h2>
        <div className="grid grid-3 stats">
          {waiting.map((s) => (
            <Link key={s.label} to={s.to} className="stat" data-figure={s.to}>
              <div className="stat-label">{s.label}</div>
              <div className="stat-value">{s.value}</div>
              <div className="stat-note">{s.note}</div>
            </Link>
          ))}
        </div>
      </section>
      <div className="grid grid-2 section-gap">
        <section className="card" aria-labelledby="collected-title" id="dashboard-collected">
          <div className="card-header">
            <h2 id="collected-title">Collected</h2>
            <Link to="/reports" className="small">
              Reports
            </Link>
          </div>
          <BarChart
            title="Collected this month and last month"
            description={`Payments received in ${monthLabel(c.lastMonth.month, "long")}: ${money(c.lastMonth.cents)}; in ${monthLabel(c.thisMonth.month, "long")} so far: ${money(c.thisMonth.cents)}.`}
            categories={[c.lastMonth.month, c.thisMonth.month]}
            labels={(m) => monthLabel(m, "long")}
            series={[{ name: "Collected", values: [c.lastMonth.cents, c.thisMonth.cents] }]}
            format={(cents) => formatMoneyCompact(cents, c.currency)}
            height={170}
            width={360}
          />
          <dl className="figures">
            <div>
              <dt>{monthLabel(c.thisMonth.month, "long")} so far</dt>
              <dd data-figure="collected-this-month">{money(c.thisMonth.cents)}</dd>
            </div>
            <div>
              <dt>{monthLabel(c.lastMonth.month, "long")}</dt>
              <dd data-figure="collected-last-month">{money(c.lastMonth.cents)}</dd>
            </div>
          </dl>
        </section>
        <section className="card" aria-labelledby="work-title" id="dashboard-open-work">
          <div className="card-header">
            <h2 id="work-title">Open work by status</h2>
            <Link to="/jobs?status=open" className="small">
              All open jobs
            </Link>
          </div>
          <HBarChart
            title="Open jobs by status"
            description={counts.openByStatus.map((s) => `${humanize(s.status)}: ${s.count}`).join("; ")}
            rows={counts.openByStatus.map((s) => ({ label: humanize(s.status), value: s.count }))}
            format={(n) => String(n)}
            width={360}
          />
          <ul className="plain-list inline-figures">
            {counts.openByStatus.map((s) => (
              <li key={s.status}>
                <Link to={`/jobs?status=${s.status}`}>{humanize(s.status)}</Link>:{" "}
                <span data-figure={`open-${s.status}`}>{s.count}</span>
              </li>
            ))}
          </ul>
        </section>
      </div>
      {lists.inTheField.length ? (
        <section className="card section-gap" aria-labelledby="field-now-title">
          <h2 id="field-now-title">In the field now</h2>
          <ul className="plain-list">
            {lists.inTheField.map((j) => (
              <li key={j.id}>
                <Link to={`/jobs/${j.id}`}>{j.title}</Link> <StatusBadge status={j.status} />
                <div className="small">
                  <ClockSince startedAt={j.started_at} onSiteAt={j.on_site_at} who={j.assignee_name} />{" "}
                  <span className="muted">· {j.customer_name}</span>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="grid grid-2 section-gap">
        <section className="card" aria-labelledby="upcoming-title">
          <div className="card-header">
            <h2 id="upcoming-title">Coming up</h2>
            <Link to="/jobs?status=open" className="small">
              All open jobs
            </Link>
          </div>
          {lists.upcomingJobs.length ? (
            <ul className="plain-list">
              {lists.upcomingJobs.map((j) => (
                <li key={j.id}>
                  <Link to={`/jobs/${j.id}`}>{j.title}</Link> <StatusBadge status={j.status} />
                  <div className="muted small">
                    <DateTime value={j.scheduled_start} /> · {j.customer_name} · {j.assignee_name ?? "Unassigned"}
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Nothing on the schedule from today on.</p>
          )}
        </section>
        <section className="card" aria-labelledby="requests-title">
          <div className="card-header">
            <h2 id="requests-title">New booking requests</h2>
            <Link to="/requests?status=new" className="small">
              Triage requests
            </Link>
          </div>
          {lists.newRequests.length ? (
            <ul className="plain-list">
              {lists.newRequests.map((r) => (
                <li key={r.id}>
                  <strong>{r.service}</strong>
                  <div className="muted small">
                    {r.customer_name} · {r.preferred_date ? `prefers ${formatDate(r.preferred_date)}` : "any day"} ·
                    received <DateTime value={r.created_at} />
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No new requests. Customers send them from their portal link.</p>
          )}
        </section>
      </div>
      {visitsToBill.length ? (
        <section className="card section-gap" aria-labelledby="visits-to-invoice-title">
          <div className="card-header">
            <h2 id="visits-to-invoice-title">Visits to invoice</h2>
          </div>
          <ul className="plain-list">
            {visitsToBill.map((v) => (
              <li key={v.id}>
                <Link to={`/jobs/${v.job_id}/items`}>{v.title}</Link>
                <div className="muted small">
                  Completed visit of <DateTime value={v.starts_at} /> · {v.customer}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {lists.changeRequests.length ? (
        <section className="card section-gap" aria-labelledby="changes-title">
          <div className="card-header">
            <h2 id="changes-title">Changes asked on quotes</h2>
            <Link to="/quotes?status=sent" className="small">
              Quotes awaiting response
            </Link>
          </div>
          <ul className="plain-list">
            {lists.changeRequests.map((r) => (
              <li key={r.id}>
                <Link to={`/quotes/${r.quote_id}`}>Quote {r.quote_number}</Link> · {r.customer_name}
                <p className="prewrap small">“{r.message.length > 300 ? `${r.message.slice(0, 300)}…` : r.message}”</p>
                <div className="muted small">
                  asked <DateTime value={r.created_at} />
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
