import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { BarChart, HBarChart, LineChart } from "~/components/charts";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/layout";
import { REPORT_TITLES, type ReportName } from "~/services/reports/csv";
import { isReportPeriod, monthLabel, PERIOD_LABELS, REPORT_PERIODS } from "~/services/reports/periods";
import { loadReports } from "~/services/reports/reports.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { formatDate, formatMoney, formatMoneyCompact } from "~/utils/format";
import styles from "~/styles/reports.css";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { work: "report" };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Reports · Fieldwork" }];

// GET /reports: five reports for a period, each a server-drawn chart with
// the same figures in a table beside it and a CSV download. The period is a plain GET form.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_reports");
  const asked = new URL(request.url).searchParams.get("period");
  const period = isReportPeriod(asked) ? asked : "last-12-months";
  return json({ reports: await loadReports(actorOf(user), period) });
}

const percent = (rate: number | null) => (rate === null ? "–" : `${Math.round(rate * 100)}%`);
const weekLabel = (week: string) => formatDate(week).replace(/, \d{4}$/, "");

function Section({
  name,
  period,
  description,
  chart,
  children,
}: {
  name: ReportName;
  period: string;
  description: string;
  chart: React.ReactNode;
  children: React.ReactNode;
}) {
  const id = `report-${name}`;
  return (
    <section className="card report" aria-labelledby={id}>
      <div className="card-header">
        <div>
          <h2 id={id}>{REPORT_TITLES[name]}</h2>
          <p className="muted small">{description}</p>
        </div>
        <a className="btn btn-secondary btn-small" href={`/reports/${name}.csv?period=${period}`} download>
          Download CSV<span className="visually-hidden">: {REPORT_TITLES[name]}</span>
        </a>
      </div>
      <div className="report-body">
        <div className="report-chart">{chart}</div>
        <div
          className="report-table table-wrap"
          tabIndex={0}
          role="region"
          aria-label={`${REPORT_TITLES[name]}: the figures`}
        >
          {children}
        </div>
      </div>
    </section>
  );
}

export default function ReportsPage() {
  const { reports: r } = useLoaderData<typeof loader>();
  const money = (cents: number) => formatMoney(cents, r.currency);
  const axisMoney = (cents: number) => formatMoneyCompact(cents, r.currency);
  const count = (n: number) => String(n);
  const months = r.money.map((m) => m.month);
  const period = r.range.period;
  const totalInvoiced = r.money.reduce((s, m) => s + m.invoicedCents, 0);
  const totalCollected = r.money.reduce((s, m) => s + m.collectedCents, 0);
  const sent = r.quotes.reduce((s, q) => s + q.sent, 0);
  const approved = r.quotes.reduce((s, q) => s + q.approved, 0);
  const owed = r.aging.reduce((s, a) => s + a.cents, 0);
  const lastDay = new Date(Date.parse(`${r.range.end}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return (
    <>
      <PageHeader
        title="Reports"
        description={
          <>
            {formatDate(r.range.start)} to {formatDate(lastDay)}, in {r.timeZone}. Amounts in {r.currency}.
          </>
        }
        actions={
          <Form method="get" className="period-form">
            <label htmlFor="period">Period</label>
            <select id="period" name="period" defaultValue={period}>
              {REPORT_PERIODS.map((p) => (
                <option key={p} value={p}>
                  {PERIOD_LABELS[p]}
                </option>
              ))}
            </select>
            <button type="submit" className="btn btn-secondary">
              Show
            </button>
          </Form>
        }
      />
      {r.otherCurrencies.length ? (
        <p className="alert alert-info">
          Amounts in {r.otherCurrencies.join(", ")} are not included in the money figures.
        </p>
      ) : null}

      <dl className="grid grid-3 stats report-totals">
        <div className="stat">
          <dt className="stat-label">Invoiced</dt>
          <dd className="stat-value">{money(totalInvoiced)}</dd>
        </div>
        <div className="stat">
          <dt className="stat-label">Collected</dt>
          <dd className="stat-value">{money(totalCollected)}</dd>
        </div>
        <div className="stat">
          <dt className="stat-label">Quotes approved</dt>
          <dd className="stat-value">{percent(sent ? approved / sent : null)}</dd>
          <dd className="stat-note">
            {approved} of {sent} sent
          </dd>
        </div>
        <div className="stat">
          <dt className="stat-label">Owed to you today</dt>
          <dd className="stat-value">{money(owed)}</dd>
        </div>
      </dl>

      <Section
        name="invoiced-collected"
        period={period}
        description="Invoices by issue date (drafts and void invoices left out); payments by the day they were received."
        chart={
          <BarChart
            title={REPORT_TITLES["invoiced-collected"]}
            description={`Bars per month: invoiced ${money(totalInvoiced)} and collected ${money(totalCollected)} in all.`}
            categories={months}
            labels={(m) => monthLabel(m)}
            series={[
              { name: "Invoiced", values: r.money.map((m) => m.invoicedCents) },
              { name: "Collected", values: r.money.map((m) => m.collectedCents) },
            ]}
            format={axisMoney}
          />
        }
      >
        <table>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col" className="num">
                Invoiced
              </th>
              <th scope="col" className="num">
                Collected
              </th>
            </tr>
          </thead>
          <tbody>
            {r.money.map((m) => (
              <tr key={m.month}>
                <th scope="row">{monthLabel(m.month, "long")}</th>
                <td className="num">{money(m.invoicedCents)}</td>
                <td className="num">{money(m.collectedCents)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td className="num">{money(totalInvoiced)}</td>
              <td className="num">{money(totalCollected)}</td>
            </tr>
          </tfoot>
        </table>
      </Section>

      <Section
        name="quote-conversion"
        period={period}
        description="Quotes by the month they were sent, and how many of those the customer approved."
        chart={
          <BarChart
            title={REPORT_TITLES["quote-conversion"]}
            description={`Bars per month: ${sent} quotes sent and ${approved} approved in all.`}
            categories={months}
            labels={(m) => monthLabel(m)}
            series={[
              { name: "Sent", values: r.quotes.map((q) => q.sent) },
              { name: "Approved", values: r.quotes.map((q) => q.approved) },
            ]}
            format={count}
          />
        }
      >
        <table>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col" className="num">
                Sent
              </th>
              <th scope="col" className="num">
                Approved
              </th>
              <th scope="col" className="num">
                Approval rate
              </th>
            </tr>
          </thead>
          <tbody>
            {r.quotes.map((q) => (
              <tr key={q.month}>
                <th scope="row">{monthLabel(q.month, "long")}</th>
                <td className="num">{q.sent}</td>
                <td className="num">{q.approved}</td>
                <td className="num">{percent(q.rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section
        name="jobs-completed"
        period={period}
        description="Completed visits per week (weeks start on Monday), by technician: a crew's visit counts for each member; a job closed without visits counts once."
        chart={
          r.technicians.length ? (
            <LineChart
              title={REPORT_TITLES["jobs-completed"]}
              description={`Lines per technician over ${r.jobs.length} weeks: ${r.technicians.map((t) => `${t.name} ${r.jobs.reduce((s, w) => s + (w.counts[t.id ?? ""] ?? 0), 0)}`).join(", ")}.`}
              categories={r.jobs.map((w) => w.week)}
              labels={weekLabel}
              series={r.technicians.map((t) => ({
                name: t.name,
                values: r.jobs.map((w) => w.counts[t.id ?? ""] ?? 0),
              }))}
              format={count}
            />
          ) : (
            <p className="muted empty-chart">No visits were completed in this period.</p>
          )
        }
      >
        <table>
          <thead>
            <tr>
              <th scope="col">Week of</th>
              {r.technicians.map((t) => (
                <th key={t.id ?? ""} scope="col" className="num">
                  {t.name}
                </th>
              ))}
              <th scope="col" className="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {r.jobs.map((w) => (
              <tr key={w.week}>
                <th scope="row">{formatDate(w.week)}</th>
                {r.technicians.map((t) => (
                  <td key={t.id ?? ""} className="num">
                    {w.counts[t.id ?? ""] ?? 0}
                  </td>
                ))}
                <td className="num">{w.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section
        name="outstanding-by-age"
        period={period}
        description={`What customers owe today (${formatDate(r.today)}), by how long it has been past its due date.`}
        chart={
          <HBarChart
            title={REPORT_TITLES["outstanding-by-age"]}
            description={r.aging.map((a) => `${a.label}: ${money(a.cents)}`).join("; ")}
            rows={r.aging.map((a) => ({ label: a.label, value: a.cents }))}
            format={money}
          />
        }
      >
        <table>
          <thead>
            <tr>
              <th scope="col">Age</th>
              <th scope="col" className="num">
                Invoices
              </th>
              <th scope="col" className="num">
                Outstanding
              </th>
            </tr>
          </thead>
          <tbody>
            {r.aging.map((a) => (
              <tr key={a.bucket}>
                <th scope="row">
                  {a.bucket === "current" ? a.label : <Link to="/invoices?status=overdue">{a.label}</Link>}
                </th>
                <td className="num">{a.invoices}</td>
                <td className="num">{money(a.cents)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td className="num">{r.aging.reduce((s, a) => s + a.invoices, 0)}</td>
              <td className="num">{money(owed)}</td>
            </tr>
          </tfoot>
        </table>
      </Section>

      <Section
        name="top-customers"
        period={period}
        description="The ten customers who paid the most in this period."
        chart={
          r.topCustomers.length ? (
            <HBarChart
              title={REPORT_TITLES["top-customers"]}
              description={r.topCustomers.map((c) => `${c.name}: ${money(c.cents)}`).join("; ")}
              rows={r.topCustomers.map((c) => ({ label: c.name, value: c.cents }))}
              format={money}
            />
          ) : (
            <p className="muted empty-chart">No payments in this period.</p>
          )
        }
      >
        <table>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Customer</th>
              <th scope="col" className="num">
                Collected
              </th>
            </tr>
          </thead>
          <tbody>
            {r.topCustomers.map((c, i) => (
              <tr key={c.id}>
                <td>{i + 1}</td>
                <th scope="row">
                  <Link to={`/customers/${c.id}`}>{c.name}</Link>
                </th>
                <td className="num">{money(c.cents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
