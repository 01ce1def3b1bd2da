import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { EmptyState, PageHeader } from "~/components/layout";
import { ListToolbar, Money, optionsOf, Pagination, StatusBadge } from "~/components/records";
import { invoiceListSchema, listInvoices } from "~/services/records/documents.server";
import { tenantHasAny } from "~/services/records/keyset.server";
import { searchParamsObject } from "~/services/records/list-params";
import { balanceDue, FILTER_LABELS, INVOICE_FILTERS } from "~/services/records/statuses";
import { actorOf } from "~/utils/auth.server";
import { formatDate } from "~/utils/format";
import { can } from "~/utils/permissions";
import { requireAllRecords } from "~/utils/records-access.server";

export const meta: MetaFunction = () => [{ title: "Invoices · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  const params = invoiceListSchema.parse(searchParamsObject(request.url));
  const page = await listInvoices(actorOf(user), params);
  const any = page.items.length > 0 || (await tenantHasAny(user.tenantId, "invoices"));
  return json({ page, params, any, canImport: can(user.role, "import_csv"), canCreate: can(user.role, "manage_records") });
}

export default function InvoicesPage() {
  const { page, params, any, canImport, canCreate } = useLoaderData<typeof loader>();
  const newInvoice = canCreate ? <Link to={params.customer ? `/invoices/new?customerId=${params.customer}` : "/invoices/new"} className="btn btn-primary">New invoice</Link> : undefined;
  if (!any) {
    return (
      <>
        <PageHeader title="Invoices" actions={newInvoice} />
        <EmptyState title="No invoices yet">
          {canImport ? (
            <p>No invoices yet: <Link to="/import-data?type=invoices">import them</Link> from your accounting system{canCreate ? <>, <Link to="/invoices/new">write one</Link>, or create one from a completed job</> : null}.</p>
          ) : canCreate ? (
            <p>No invoices yet: <Link to="/invoices/new">write one</Link>, or create one from a completed job.</p>
          ) : (
            <p>Invoices appear here once they are imported.</p>
          )}
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Invoices" description="Newest first by issue date. Unpaid invoices past their due date show as overdue." actions={newInvoice} />
      <ListToolbar
        q={params.q}
        placeholder="Number or customer"
        filters={[{ name: "status", label: "Status", value: params.status, options: optionsOf(INVOICE_FILTERS, { ...FILTER_LABELS, partial: "Partly paid" }) }]}
        hidden={{ customer: params.customer }}
      />
      {params.customer ? <p className="filter-note">Showing one customer's invoices. <Link to="/invoices">Show every customer</Link></p> : null}
      {page.items.length ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr><th>Number</th><th>Customer</th><th>Status</th><th>Issued</th><th>Due</th><th className="num">Total</th><th className="num">Balance</th></tr>
            </thead>
            <tbody>
              {page.items.map((i) => (
                <tr key={i.id}>
                  <td><Link to={`/invoices/${i.id}`}>{i.number}</Link></td>
                  <td><Link to={`/customers/${i.customer_id}`}>{i.customer_name}</Link></td>
                  <td><StatusBadge status={i.status} /> {i.overdue ? <StatusBadge status="overdue" /> : null}</td>
                  <td>{formatDate(i.issue_date)}</td>
                  <td>{formatDate(i.due_date)}</td>
                  <td className="num"><Money cents={i.total_cents} currency={i.currency} /></td>
                  <td className="num"><Money cents={balanceDue(i)} currency={i.currency} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <EmptyState title="No invoices match">
          <p>Try another status or fewer words, or <Link to="/invoices">show all invoices</Link>.</p>
        </EmptyState>
      )}
      <Pagination nextCursor={page.nextCursor} prevCursor={page.prevCursor} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
