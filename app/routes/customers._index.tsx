import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ListPage, type ListColumn } from "~/components/list-page";
import { optionsOf } from "~/components/records";
import { listPageData } from "~/http/list-page.server";
import { CUSTOMER_LIST_COLUMNS, customerListSchema, listCustomers } from "~/services/customers/customers.server";
import { CUSTOMER_FILTERS, FILTER_LABELS } from "~/services/records/statuses";
import { requireAllRecords } from "~/http/records-access.server";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { work: "search" };

export const meta: MetaFunction = () => [{ title: "Customers · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  return json({
    ...(await listPageData(request, user, { schema: customerListSchema, table: "customers", list: listCustomers })),
    // The field list's columns travel with the page: the field list itself (its cell checks and
    // their schema library) stays on the server, out of the page's JavaScript.
    columns: CUSTOMER_LIST_COLUMNS,
  });
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["page"]["items"][number];

// The field list's list columns, the name linking to the customer.
const columnsOf = (list: { column: string; label: string }[]): Array<ListColumn<Row>> =>
  list.map(({ column, label }) => ({
    header: label,
    cell: (c: Row) => (column === "name" ? <Link to={`/customers/${c.id}`}>{c.name}</Link> : c[column as keyof Row]),
  }));

export default function CustomersPage() {
  const { page, params, any, canImport, canCreate, columns: columnList } = useLoaderData<typeof loader>();
  const columns = columnsOf(columnList);
  const importLink = canImport ? (
    <Link to="/import-data?type=customers" className="btn btn-secondary">
      Import customers
    </Link>
  ) : null;
  const newLink = canCreate ? (
    <Link to="/customers/new" className="btn btn-primary">
      New customer
    </Link>
  ) : null;
  return (
    <ListPage
      title="Customers"
      description="Everyone you work for, by name."
      actions={
        importLink || newLink ? (
          <>
            {importLink}
            {newLink}
          </>
        ) : null
      }
      firstRun={
        any
          ? null
          : {
              title: "No customers yet",
              body: canImport ? (
                <p>
                  No customers yet: <Link to="/import-data?type=customers">import them</Link> from a CSV file (a
                  spreadsheet export works)
                  {canCreate ? (
                    <>
                      , or <Link to="/customers/new">add your first customer</Link>
                    </>
                  ) : null}
                  .
                </p>
              ) : (
                <p>No customers yet. Ask someone who can import data to import your customer list.</p>
              ),
            }
      }
      search={{
        q: params.q,
        placeholder: "Name, email, phone or company",
        filters: [
          {
            name: "filter",
            label: "Show",
            value: params.filter,
            options: optionsOf(CUSTOMER_FILTERS, {
              ...FILTER_LABELS,
              all: "All customers",
              unpaid: "With unpaid invoices",
            }),
          },
        ],
      }}
      columns={columns}
      rows={page.items}
      noMatch={{
        title: "No customers match",
        body: (
          <p>
            Try fewer words or another spelling, or <Link to="/customers">show all customers</Link>.
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
