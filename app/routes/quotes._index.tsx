import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ListPage, type ListColumn } from "~/components/list-page";
import { Money, optionsOf, StatusBadge } from "~/components/records";
import { listPageData } from "~/http/list-page.server";
import { listQuotes, quoteListSchema } from "~/services/records/quotes-invoices.server";
import { FILTER_LABELS, QUOTE_FILTERS } from "~/services/records/statuses";
import { formatDate } from "~/utils/format";
import { requireAllRecords } from "~/http/records-access.server";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { work: "search" };

export const meta: MetaFunction = () => [{ title: "Quotes · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  return json(await listPageData(request, user, { schema: quoteListSchema, table: "quotes", list: listQuotes }));
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["page"]["items"][number];

const columns: Array<ListColumn<Row>> = [
  {
    header: "Number",
    cell: (q) => (
      <>
        <Link to={`/quotes/${q.id}`}>{q.number}</Link>
        {q.title ? <div className="muted small">{q.title}</div> : null}
      </>
    ),
  },
  { header: "Customer", cell: (q) => <Link to={`/customers/${q.customer_id}`}>{q.customer_name}</Link> },
  { header: "Status", cell: (q) => <StatusBadge status={q.status} /> },
  { header: "Issued", cell: (q) => formatDate(q.issue_date) },
  { header: "Valid until", cell: (q) => formatDate(q.valid_until) },
  { header: "Total", num: true, cell: (q) => <Money cents={q.total_cents} currency={q.currency} /> },
];

export default function QuotesPage() {
  const { page, params, any, canImport, canCreate } = useLoaderData<typeof loader>();
  return (
    <ListPage
      title="Quotes"
      description="Newest first by issue date. A sent quote past its valid-until date shows as expired."
      actions={
        canCreate ? (
          <Link
            to={params.customer ? `/quotes/new?customerId=${params.customer}` : "/quotes/new"}
            className="btn btn-primary"
          >
            New quote
          </Link>
        ) : undefined
      }
      firstRun={
        any
          ? null
          : {
              title: "No quotes yet",
              body: canImport ? (
                <p>
                  No quotes yet: <Link to="/import-data?type=quotes">import them</Link> from your current system.
                </p>
              ) : (
                <p>Quotes appear here once they are imported.</p>
              ),
            }
      }
      search={{
        q: params.q,
        placeholder: "Number, title or customer",
        filters: [
          {
            name: "status",
            label: "Status",
            value: params.status,
            options: optionsOf(QUOTE_FILTERS, { ...FILTER_LABELS, sent: "Awaiting response" }),
          },
        ],
      }}
      customerScope={{ customerId: params.customer, noun: "quotes", everyoneHref: "/quotes" }}
      columns={columns}
      rows={page.items}
      noMatch={{
        title: "No quotes match",
        body: (
          <p>
            Try another status or fewer words, or <Link to="/quotes">show all quotes</Link>.
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
