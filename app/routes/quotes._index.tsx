import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { EmptyState, PageHeader } from "~/components/layout";
import { ListToolbar, Money, optionsOf, Pagination, StatusBadge } from "~/components/records";
import { listQuotes, quoteListSchema } from "~/services/records/documents.server";
import { tenantHasAny } from "~/services/records/keyset.server";
import { searchParamsObject } from "~/services/records/list-params";
import { FILTER_LABELS, QUOTE_FILTERS } from "~/services/records/statuses";
import { actorOf } from "~/utils/auth.server";
import { formatDate } from "~/utils/format";
import { can } from "~/utils/permissions";
import { requireAllRecords } from "~/utils/records-access.server";

export const meta: MetaFunction = () => [{ title: "Quotes · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  const params = quoteListSchema.parse(searchParamsObject(request.url));
  const page = await listQuotes(actorOf(user), params);
  const any = page.items.length > 0 || (await tenantHasAny(user.tenantId, "quotes"));
  return json({ page, params, any, canImport: can(user.role, "import_csv"), canCreate: can(user.role, "manage_records") });
}

export default function QuotesPage() {
  const { page, params, any, canImport, canCreate } = useLoaderData<typeof loader>();
  const newQuote = canCreate ? <Link to={params.customer ? `/quotes/new?customerId=${params.customer}` : "/quotes/new"} className="btn btn-primary">New quote</Link> : undefined;
  if (!any) {
    return (
      <>
        <PageHeader title="Quotes" actions={newQuote} />
        <EmptyState title="No quotes yet">
          {canImport ? <p>No quotes yet: <Link to="/import-data?type=quotes">import them</Link> from your current system.</p> : <p>Quotes appear here once they are imported.</p>}
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Quotes" description="Newest first by issue date. A sent quote past its valid-until date shows as expired." actions={newQuote} />
      <ListToolbar
        q={params.q}
        placeholder="Number, title or customer"
        filters={[{ name: "status", label: "Status", value: params.status, options: optionsOf(QUOTE_FILTERS, { ...FILTER_LABELS, sent: "Awaiting response" }) }]}
        hidden={{ customer: params.customer }}
      />
      {params.customer ? <p className="filter-note">Showing one customer's quotes. <Link to="/quotes">Show every customer</Link></p> : null}
      {page.items.length ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr><th>Number</th><th>Customer</th><th>Status</th><th>Issued</th><th>Valid until</th><th className="num">Total</th></tr>
            </thead>
            <tbody>
              {page.items.map((q) => (
                <tr key={q.id}>
                  <td><Link to={`/quotes/${q.id}`}>{q.number}</Link>{q.title ? <div className="muted small">{q.title}</div> : null}</td>
                  <td><Link to={`/customers/${q.customer_id}`}>{q.customer_name}</Link></td>
                  <td><StatusBadge status={q.status} /></td>
                  <td>{formatDate(q.issue_date)}</td>
                  <td>{formatDate(q.valid_until)}</td>
                  <td className="num"><Money cents={q.total_cents} currency={q.currency} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <EmptyState title="No quotes match">
          <p>Try another status or fewer words, or <Link to="/quotes">show all quotes</Link>.</p>
        </EmptyState>
      )}
      <Pagination nextCursor={page.nextCursor} prevCursor={page.prevCursor} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
