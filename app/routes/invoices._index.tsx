import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ListPage, type ListColumn } from "~/components/list-page";
import { Money, optionsOf, StatusBadge } from "~/components/records";
import { listPageData } from "~/http/list-page.server";
import { invoiceListSchema, listInvoices } from "~/services/records/quotes-invoices.server";
import { balanceDue, FILTER_LABELS, INVOICE_FILTERS } from "~/services/records/statuses";
import { formatDate } from "~/utils/format";
import { requireAllRecords } from "~/http/records-access.server";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { work: "search" };

export const meta: MetaFunction = () => [{ title: "Invoices · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  return json(await listPageData(request, user, { schema: invoiceListSchema, table: "invoices", list: listInvoices }));
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["page"]["items"][number];

const columns: Array<ListColumn<Row>> = [
  { header: "Number", cell: (i) => <Link to={`/invoices/${i.id}`}>{i.number}</Link> },
  { header: "Customer", cell: (i) => <Link to={`/customers/${i.customer_id}`}>{i.customer_name}</Link> },
  {
    header: "Status",
    cell: (i) => (
      <>
        <StatusBadge status={i.status} /> {i.overdue ? <StatusBadge status="overdue" /> : null}
      </>
    ),
  },
  { header: "Issued", cell: (i) => formatDate(i.issue_date) },
  { header: "Due", cell: (i) => formatDate(i.due_date) },
  { header: "Total", num: true, cell: (i) => <Money cents={i.total_cents} currency={i.currency} /> },
  { header: "Balance", num: true, cell: (i) => <Money cents={balanceDue(i)} currency={i.currency} /> },
];

export default function InvoicesPage() {
  const { page, params, any, canImport, canCreate } = useLoaderData<typeof loader>();
  const firstRunBody = canImport ? (
    <p>
      No invoices yet: <Link to="/import-data?type=invoices">import them</Link> from your accounting system
      {canCreate ? (
        <>
          , <Link to="/invoices/new">write one</Link>, or create one from a completed job
        </>
      ) : null}
      .
    </p>
  ) : canCreate ? (
    <p>
      No invoices yet: <Link to="/invoices/new">write one</Link>, or create one from a completed job.
    </p>
  ) : (
    <p>Invoices appear here once they are imported.</p>
  );
  return (
    <ListPage
      title="Invoices"
      description="Newest first by issue date. Unpaid invoices past their due date show as overdue."
      actions={
        canCreate ? (
          <Link
            to={params.customer ? `/invoices/new?customerId=${params.customer}` : "/invoices/new"}
            className="btn btn-primary"
          >
            New invoice
          </Link>
        ) : undefined
      }
      firstRun={any ? null : { title: "No invoices yet", body: firstRunBody }}
      search={{
        q: params.q,
        placeholder: "Number or customer",
        filters: [
          {
            name: "status",
            label: "Status",
            value: params.status,
            options: optionsOf(INVOICE_FILTERS, { ...FILTER_LABELS, partial: "Partly paid" }),
          },
        ],
      }}
      customerScope={{ customerId: params.customer, noun: "invoices", everyoneHref: "/invoices" }}
      columns={columns}
      rows={page.items}
      noMatch={{
        title: "No invoices match",
        body: (
          <p>
            Try another status or fewer words, or <Link to="/invoices">show all invoices</Link>.
          </p>
        ),
      }}
      page={page}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
