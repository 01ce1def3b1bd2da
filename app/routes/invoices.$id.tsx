import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { LineItemsTable } from "~/components/documents";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { RecordHistory } from "~/components/record-history";
import { PageHeader } from "~/components/layout";
import { PortalLinksCard } from "~/components/portal-links";
import { DateTime, Money, StatusBadge } from "~/components/records";
import { listPortalLinks } from "~/services/portal/links.server";
import { getInvoice } from "~/services/records/documents.server";
import { historyOf } from "~/services/history/history.server";
import { actorOf } from "~/utils/auth.server";
import { formatDate, formatMoney, humanize } from "~/utils/format";
import { can } from "~/utils/permissions";
import { requireAllRecords } from "~/utils/records-access.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Invoice ${data?.invoice.number ?? ""} · Fieldwork` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  const actor = actorOf(user);
  const found = await getInvoice(actor, params.id!);
  const canManageLinks = can(user.role, "manage_portal_links");
  const links = canManageLinks ? await listPortalLinks(actor, found.invoice.customer_id) : [];
  const history = await historyOf(actor.tenantId, "invoice", found.invoice.id);
  return json({ ...found, history, links, canManageLinks, createdId: new URL(request.url).searchParams.get("link") });
}

export default function InvoicePage() {
  const { invoice: i, items, payments, links, canManageLinks, createdId, history } = useLoaderData<typeof loader>();
  const balance = i.total_cents - i.amount_paid_cents;
  return (
    <>
      <PageHeader
        title={`Invoice ${i.number}`}
        description={<><StatusBadge status={i.status} /> {i.overdue ? <StatusBadge status="overdue" /> : null} for <Link to={`/customers/${i.customer_id}`}>{i.customer_name}</Link></>}
        actions={<><a href={`/invoices/${i.id}.pdf`} className="btn btn-secondary">Download PDF</a><Link to="/invoices" className="btn btn-secondary">All invoices</Link></>}
      />
      {i.overdue ? (
        <div className="alert alert-warning" role="status">
          Overdue: {formatMoney(balance, i.currency)} was due on {formatDate(i.due_date)}.
        </div>
      ) : null}
      <div className="grid grid-2">
        <section className="card">
          <h2>Details</h2>
          <dl className="details">
            <dt>Customer</dt><dd><Link to={`/customers/${i.customer_id}`}>{i.customer_name}</Link></dd>
            <dt>Issued</dt><dd>{formatDate(i.issue_date) || <span className="muted">—</span>}</dd>
            <dt>Due</dt><dd>{formatDate(i.due_date) || <span className="muted">—</span>}</dd>
            <dt>Sent</dt><dd>{i.sent_at ? <DateTime value={i.sent_at} /> : <span className="muted">Not sent</span>}</dd>
            {i.paid_at ? <><dt>Paid in full</dt><dd><DateTime value={i.paid_at} /></dd></> : null}
            {i.quote_id ? <><dt>From quote</dt><dd><Link to={`/quotes/${i.quote_id}`}>{i.quote_number}</Link></dd></> : null}
          </dl>
        </section>
        <section className="card">
          <h2>Balance</h2>
          <dl className="details">
            <dt>Total</dt><dd><Money cents={i.total_cents} currency={i.currency} /></dd>
            <dt>Paid</dt><dd><Money cents={i.amount_paid_cents} currency={i.currency} /></dd>
            <dt>Balance due</dt><dd><strong><Money cents={balance} currency={i.currency} /></strong></dd>
          </dl>
        </section>
      </div>

      <section className="card" aria-labelledby="items-title">
        <h2 id="items-title">Line items</h2>
        <LineItemsTable
          items={items} currency={i.currency} subtotal={i.subtotal_cents} tax={i.tax_cents} total={i.total_cents}
          after={<>
            <tr><th colSpan={4} className="num">Paid</th><td className="num"><Money cents={-i.amount_paid_cents} currency={i.currency} /></td></tr>
            <tr className="total-row"><th colSpan={4} className="num">Balance due</th><td className="num"><Money cents={balance} currency={i.currency} /></td></tr>
          </>}
        />
        {i.notes ? <><h3 className="section-gap">Notes</h3><p className="prewrap">{i.notes}</p></> : null}
      </section>

      <section className="card" aria-labelledby="payments-title">
        <h2 id="payments-title">Payments</h2>
        {payments.length ? (
          <div className="table-wrap">
            <table>
              <thead><tr><th>Recorded</th><th>Method</th><th>Reference</th><th className="num">Amount</th></tr></thead>
              <tbody>
                {payments.map((p) => (
                  <tr key={p.id}>
                    <td><DateTime value={p.recorded_at} /></td>
                    <td>{p.method === "sandbox" ? <>Portal <span className="badge badge-muted">sandbox</span></> : humanize(p.method)}</td>
                    <td className="mono">{p.reference} <a href={`/invoices/${i.id}/receipts/${p.id}.pdf`} className="small">Receipt<span className="visually-hidden"> {p.reference}</span></a></td>
                    <td className="num"><Money cents={p.amount_cents} currency={p.currency} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">No payments recorded yet.{i.status === "sent" ? " Send the customer a portal link so they can pay." : ""}</p>
        )}
      </section>

      <PortalLinksCard customerId={i.customer_id} customerName={i.customer_name} links={links} canManage={canManageLinks} returnTo={`/invoices/${i.id}`} createdId={createdId} />

      <RecordHistory entries={history} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
