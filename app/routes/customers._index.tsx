import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { EmptyState, PageHeader } from "~/components/layout";
import { ListToolbar, optionsOf, Pagination } from "~/components/records";
import { customerListSchema, listCustomers } from "~/services/records/customers.server";
import { tenantHasAny } from "~/services/records/keyset.server";
import { searchParamsObject } from "~/services/records/list-params";
import { CUSTOMER_FILTERS, FILTER_LABELS } from "~/services/records/statuses";
import { actorOf } from "~/utils/auth.server";
import { can } from "~/utils/permissions";
import { requireAllRecords } from "~/utils/records-access.server";

export const meta: MetaFunction = () => [{ title: "Customers · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  const params = customerListSchema.parse(searchParamsObject(request.url));
  const page = await listCustomers(actorOf(user), params);
  const filtered = !!params.q || params.filter !== "all" || !!params.after || !!params.before;
  const anyCustomers = page.items.length > 0 || (filtered && (await tenantHasAny(user.tenantId, "customers")));
  return json({ page, params, anyCustomers, canImport: can(user.role, "import_csv"), canCreate: can(user.role, "manage_records") });
}

export default function CustomersPage() {
  const { page, params, anyCustomers, canImport, canCreate } = useLoaderData<typeof loader>();
  const importLink = canImport ? <Link to="/import-data?type=customers" className="btn btn-secondary">Import customers</Link> : null;
  const newLink = canCreate ? <Link to="/customers/new" className="btn btn-primary">New customer</Link> : null;
  const actions = importLink || newLink ? <>{importLink}{newLink}</> : null;
  if (!anyCustomers) {
    return (
      <>
        <PageHeader title="Customers" actions={actions} />
        <EmptyState title="No customers yet">
          {canImport ? (
            <p>No customers yet: <Link to="/import-data?type=customers">import them</Link> from a CSV file (a spreadsheet export works){canCreate ? <>, or <Link to="/customers/new">add your first customer</Link></> : null}.</p>
          ) : (
            <p>No customers yet. Ask someone who can import data to import your customer list.</p>
          )}
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Customers" description="Everyone you work for, by name." actions={actions} />
      <ListToolbar
        q={params.q}
        placeholder="Name, email, phone or company"
        filters={[{ name: "filter", label: "Show", value: params.filter, options: optionsOf(CUSTOMER_FILTERS, { ...FILTER_LABELS, all: "All customers", unpaid: "With unpaid invoices" }) }]}
      />
      {page.items.length ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr><th>Name</th><th>Company</th><th>Email</th><th>Phone</th><th>City</th></tr>
            </thead>
            <tbody>
              {page.items.map((c) => (
                <tr key={c.id}>
                  <td><Link to={`/customers/${c.id}`}>{c.name}</Link></td>
                  <td>{c.company}</td>
                  <td>{c.email}</td>
                  <td>{c.phone}</td>
                  <td>{c.city}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <EmptyState title="No customers match">
          <p>Try fewer words or another spelling, or <Link to="/customers">show all customers</Link>.</p>
        </EmptyState>
      )}
      <Pagination nextCursor={page.nextCursor} prevCursor={page.prevCursor} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
