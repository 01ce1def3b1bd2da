import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { BarChart, HBarChart, LineChart } from "~/components/charts";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Kept, useKeptMarkup } from "~/components/kept-markup";
import { PageHeader } from "~/components/layout";
import { REPORT_TITLES, type ReportName } from "~/services/reports/csv";
import { isReportPeriod, monthLabel, PERIOD_LABELS, REPORT_PERIODS } from "~/services/reports/periods";
import { loadReports, type Reports } from "~/services/reports/reports.server";
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
const count = (n: number) => String(n);
const weekLabel = (week: string) => formatDate(week).replace(/, \d{4}$/, "");

function Section({
  name,
  period,
  description,
  children,
}: {
  name: ReportName;
  period: string;
  description: string;
  /** The section's body: its chart and its table (`Parts`), in a `report-body`. */
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
      {children}
    </section>
  );
}

/** A report's chart, and the same figures in a table beside it. */
function Parts({ name, chart, table }: { name: ReportName; chart: React.ReactNode; table: React.ReactNode }) {
  return (
    <>
      <div className="report-chart">{chart}</div>
      <div
        className="report-table table-wrap"
        tabIndex={0}
        role="region"
        aria-label={`${REPORT_TITLES[name]}: the figures`}
      >
        {table}
      </div>
    </>
  );
}

/**
 * A report's body drawn from `inputs` alone (no router, no root data). On the server its markup
 * is kept per content: a year of weeks by technician is thousands of points and cells, the same
 * for every view until a figure changes
 * (docs/decisions/465-week-grid-rendered-once-per-content.md,
 * docs/decisions/499-reports-drawn-once-per-content.md). The browser draws it in place and
 * hydrates the same markup.
 */
function KeptBody<P extends object>({
  name,
  inputs,
  Draw,
}: {
  name: ReportName;
  inputs: P;
  Draw: (props: P) => React.ReactElement;
}) {
  const keep = useKeptMarkup();
  return keep ? (
    <Kept
      tag="div"
      className="report-body"
      keep={keep}
      kind={`report-${name}`}
      inputs={inputs}
      render={() => <Draw {...inputs} />}
    />
  ) : (
    <div className="report-body">
      <Draw {...inputs} />
    </div>
  );
}

const sum = <T,>(list: T[], of: (item: T) => number) => list.reduce((s, item) => s + of(item), 0);

function MoneyParts({ currency, money: months }: Pick<Reports, "currency" | "money">) {
  const money = (cents: number) => formatMoney(cents, currency);
  const totalInvoiced = sum(months, (m) => m.invoicedCents);
  const totalCollected = sum(months, (m) => m.collectedCents);
  return (
    <Parts
      name="invoiced-collected"
      chart={
        <BarChart
          id="chart-invoiced-collected"
          title={REPORT_TITLES["invoiced-collected"]}
          description={`Bars per month: invoiced ${money(totalInvoiced)} and collected ${money(totalCollected)} in all.`}
          categories={months.map((m) => m.month)}
          labels={(m) => monthLabel(m)}
          series={[
            { name: "Invoiced", values: months.map((m) => m.invoicedCents) },
            { name: "Collected", values: months.map((m) => m.collectedCents) },
          ]}
          format={(cents) => formatMoneyCompact(cents, currency)}
        />
      }
      table={
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
            {months.map((m) => (
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
      }
    />
  );
}

function QuoteParts({ quotes }: Pick<Reports, "quotes">) {
  const sent = sum(quotes, (q) => q.sent);
  const approved = sum(quotes, (q) => q.approved);
  return (
    <Parts
      name="quote-conversion"
      chart={
        <BarChart
          id="chart-quote-conversion"
          title={REPORT_TITLES["quote-conversion"]}
          description={`Bars per month: ${sent} quotes sent and ${approved} approved in all.`}
          categories={quotes.map((q) => q.month)}
          labels={(m) => monthLabel(m)}
          series={[
            { name: "Sent", values: quotes.map((q) => q.sent) },
            { name: "Approved", values: quotes.map((q) => q.approved) },
          ]}
          format={count}
        />
      }
      table={
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
            {quotes.map((q) => (
              <tr key={q.month}>
                <th scope="row">{monthLabel(q.month, "long")}</th>
                <td className="num">{q.sent}</td>
                <td className="num">{q.approved}</td>
                <td className="num">{percent(q.rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function JobParts({ technicians, jobs }: Pick<Reports, "technicians" | "jobs">) {
  return (
    <Parts
      name="jobs-completed"
      chart={
        technicians.length ? (
          <LineChart
            id="chart-jobs-completed"
            title={REPORT_TITLES["jobs-completed"]}
            description={`Lines per technician over ${jobs.length} weeks: ${technicians.map((t) => `${t.name} ${sum(jobs, (w) => w.counts[t.id ?? ""] ?? 0)}`).join(", ")}.`}
            categories={jobs.map((w) => w.week)}
            labels={weekLabel}
            series={technicians.map((t) => ({
              name: t.name,
              values: jobs.map((w) => w.counts[t.id ?? ""] ?? 0),
            }))}
            format={count}
          />
        ) : (
          <p className="muted empty-chart">No visits were completed in this period.</p>
        )
      }
      table={
        <table>
          <thead>
            <tr>
              <th scope="col">Week of</th>
              {technicians.map((t) => (
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
            {jobs.map((w) => (
              <tr key={w.week}>
                <th scope="row">{formatDate(w.week)}</th>
                {technicians.map((t) => (
                  <td key={t.id ?? ""} className="num">
                    {w.counts[t.id ?? ""] ?? 0}
                  </td>
                ))}
                <td className="num">{w.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

export default function ReportsPage() {
  const { reports: r } = useLoaderData<typeof loader>();
  const money = (cents: number) => formatMoney(cents, r.currency);
  const period = r.range.period;
  const totalInvoiced = sum(r.money, (m) => m.invoicedCents);
  const totalCollected = sum(r.money, (m) => m.collectedCents);
  const sent = sum(r.quotes, (q) => q.sent);
  const approved = sum(r.quotes, (q) => q.approved);
  const owed = sum(r.aging, (a) => a.cents);
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
      >
        <KeptBody name="invoiced-collected" inputs={{ currency: r.currency, money: r.money }} Draw={MoneyParts} />
      </Section>

      <Section
        name="quote-conversion"
        period={period}
        description="Quotes by the month they were sent, and how many of those the customer approved."
      >
        <KeptBody name="quote-conversion" inputs={{ quotes: r.quotes }} Draw={QuoteParts} />
      </Section>

      <Section
        name="jobs-completed"
        period={period}
        description="Completed visits per week (weeks start on Monday), by technician: a crew's visit counts for each member; a job closed without visits counts once."
      >
        <KeptBody name="jobs-completed" inputs={{ technicians: r.technicians, jobs: r.jobs }} Draw={JobParts} />
      </Section>

      <Section
        name="outstanding-by-age"
        period={period}
        description={`What customers owe today (${formatDate(r.today)}), by how long it has been past its due date.`}
      >
        <div className="report-body">
          <Parts
            name="outstanding-by-age"
            chart={
              <HBarChart
                id="chart-outstanding-by-age"
                title={REPORT_TITLES["outstanding-by-age"]}
                description={r.aging.map((a) => `${a.label}: ${money(a.cents)}`).join("; ")}
                rows={r.aging.map((a) => ({ label: a.label, value: a.cents }))}
                format={money}
              />
            }
            table={
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
                    <td className="num">{sum(r.aging, (a) => a.invoices)}</td>
                    <td className="num">{money(owed)}</td>
                  </tr>
                </tfoot>
              </table>
            }
          />
        </div>
      </Section>

      <Section name="top-customers" period={period} description="The ten customers who paid the most in this period.">
        <div className="report-body">
          <Parts
            name="top-customers"
            chart={
              r.topCustomers.length ? (
                <HBarChart
                  id="chart-top-customers"
                  title={REPORT_TITLES["top-customers"]}
                  description={r.topCustomers.map((c) => `${c.name}: ${money(c.cents)}`).join("; ")}
                  rows={r.topCustomers.map((c) => ({ label: c.name, value: c.cents }))}
                  format={money}
                />
              ) : (
                <p className="muted empty-chart">No payments in this period.</p>
              )
            }
            table={
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
            }
          />
        </div>
      </Section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
