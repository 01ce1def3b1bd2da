import { PhoneLink } from "~/components/job-field";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CsrfInput } from "~/components/forms";
import { PropertiesCard } from "~/components/customer-properties";
import { formAction, type FormReply } from "~/http/conform.server";
import { listProperties, saveProperty } from "~/services/customers/properties.server";
import { propertySchema } from "~/services/customers/property-schema";
import { requireUserWithPermission } from "~/http/auth.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { RecordPage } from "~/components/record-page";
import { recordPageData } from "~/http/record-page.server";
import { DateTime, Money, RelatedTable, StatusBadge } from "~/components/records";
import { getCustomer } from "~/services/customers/customers.server";
import { balanceDue } from "~/services/records/statuses";
import { actorOf } from "~/http/auth.server";
import { formatDate, formatMoneyTotals } from "~/utils/format";
import { addressLines } from "~/utils/address";
import { requireAllRecords } from "~/http/records-access.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.customer.name ?? "Customer"} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  const actor = actorOf(user);
  // The customer's row (with its lists and reminder setting) first, for its 404; then the
  // history, links and properties at once, each on its own connection: a round trip to the
  // database costs more here than the reads themselves, so they are not made one after another.
  const found = await getCustomer(actor, params.id!);
  const { auto_reminders: autoReminders, ...customer } = found.customer;
  const [page, properties] = await Promise.all([
    recordPageData(request, user, { type: "customer", id: customer.id, customerId: customer.id }),
    listProperties(actor, customer.id),
  ]);
  return json({ ...found, customer, ...page, autoReminders, properties, canManageRecords: page.canManage });
}

// POST /customers/<id> (intent property.add | property.save): a service property added or
// changed (section 14); 303 back to the page, or the page with the messages beside the fields.
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  return formAction(request, propertySchema, async (value) => {
    await saveProperty(actorOf(user), params.id!, value);
    return redirect(`/customers/${params.id}#properties-title`, 303);
  });
}

export default function CustomerPage() {
  const {
    customer: c,
    jobs,
    quotes,
    invoices,
    requests,
    links,
    canManageLinks,
    createdId,
    history,
    properties,
    canManageRecords,
    autoReminders,
  } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const address = addressLines({
    addressLine1: c.address_line1,
    addressLine2: c.address_line2,
    city: c.city,
    region: c.region,
    postalCode: c.postal_code,
    country: c.country,
  });
  const more = (count: number, shown: number, to: string, what: string) =>
    count > shown ? (
      <Link to={to} className="small">
        View all {count} {what}
      </Link>
    ) : null;
  return (
    <RecordPage
      history={history}
      portal={{
        customerId: c.id,
        customerName: c.name,
        links,
        canManage: canManageLinks,
        returnTo: `/customers/${c.id}`,
        createdId,
      }}
      title={c.name}
      description={c.company ?? undefined}
      actions={
        <>
          <Link to="/customers" className="btn btn-secondary">
            All customers
          </Link>
          {canManageRecords ? (
            <Link to={`/customers/${c.id}/edit`} className="btn btn-secondary">
              Edit
            </Link>
          ) : null}
          {canManageRecords ? (
            <Link to={`/invoices/new?customerId=${c.id}`} className="btn btn-secondary">
              New invoice
            </Link>
          ) : null}
          {canManageRecords ? (
            <Link to={`/quotes/new?customerId=${c.id}`} className="btn btn-primary">
              New quote
            </Link>
          ) : null}
        </>
      }
    >
      <div className="grid grid-2">
        <section className="card">
          <h2>Contact</h2>
          <dl className="details">
            <dt>Email</dt>
            <dd>{c.email ? <a href={`mailto:${c.email}`}>{c.email}</a> : <span className="muted">—</span>}</dd>
            <dt>Phone</dt>
            <dd>{c.phone ? <PhoneLink phone={c.phone} /> : <span className="muted">—</span>}</dd>
            <dt>Address</dt>
            <dd>
              {address.length ? address.map((line) => <div key={line}>{line}</div>) : <span className="muted">—</span>}
            </dd>
            {c.external_id ? (
              <>
                <dt>External id</dt>
                <dd className="mono">{c.external_id}</dd>
              </>
            ) : null}
            <dt>Customer since</dt>
            <dd>
              <DateTime value={c.created_at} />
            </dd>
          </dl>
          {c.notes ? (
            <>
              <h3 className="section-gap">Notes</h3>
              <p className="prewrap">{c.notes}</p>
            </>
          ) : null}
        </section>
        <section className="card">
          <h2>At a glance</h2>
          <dl className="details">
            <dt>Jobs</dt>
            <dd>{c.jobs_count}</dd>
            <dt>Quotes</dt>
            <dd>{c.quotes_count}</dd>
            <dt>Invoices</dt>
            <dd>{c.invoices_count}</dd>
            <dt>Owes</dt>
            <dd>
              <strong>{formatMoneyTotals(c.unpaid)}</strong>
            </dd>
          </dl>
        </section>
      </div>

      <PropertiesCard
        customerId={c.id}
        properties={properties}
        canManage={canManageRecords}
        lastResult={reply?.result}
      />

      <section className="card" aria-labelledby="jobs-title">
        <div className="card-header">
          <h2 id="jobs-title">Jobs</h2>
          <div className="page-actions">
            {more(c.jobs_count, jobs.length, `/jobs?status=all&customer=${c.id}`, "jobs")}
            {canManageRecords ? (
              <Link to={`/jobs/new?customerId=${c.id}`} className="btn btn-secondary btn-sm">
                New job
              </Link>
            ) : null}
          </div>
        </div>
        <RelatedTable
          count={jobs.length}
          empty="No jobs for this customer yet."
          head={
            <tr>
              <th>Job</th>
              <th>Status</th>
              <th>Scheduled</th>
              <th>Assigned to</th>
            </tr>
          }
        >
          {jobs.map((j) => (
            <tr key={j.id}>
              <td>
                <Link to={`/jobs/${j.id}`}>{j.title}</Link>
              </td>
              <td>
                <StatusBadge status={j.status} />
              </td>
              <td>
                {j.scheduled_start ? (
                  <DateTime value={j.scheduled_start} />
                ) : (
                  <span className="muted">Not scheduled</span>
                )}
              </td>
              <td>{j.assignee_name ?? <span className="muted">Unassigned</span>}</td>
            </tr>
          ))}
        </RelatedTable>
      </section>

      <div className="grid grid-2">
        <section className="card" aria-labelledby="quotes-title">
          <div className="card-header">
            <h2 id="quotes-title">Quotes</h2>
            {more(c.quotes_count, quotes.length, `/quotes?customer=${c.id}`, "quotes")}
          </div>
          <RelatedTable
            count={quotes.length}
            empty="No quotes yet."
            head={
              <tr>
                <th>Number</th>
                <th>Status</th>
                <th className="num">Total</th>
              </tr>
            }
          >
            {quotes.map((q) => (
              <tr key={q.id}>
                <td>
                  <Link to={`/quotes/${q.id}`}>{q.number}</Link>
                  {q.title ? <div className="muted small">{q.title}</div> : null}
                </td>
                <td>
                  <StatusBadge status={q.status} />
                </td>
                <td className="num">
                  <Money cents={q.total_cents} currency={q.currency} />
                </td>
              </tr>
            ))}
          </RelatedTable>
        </section>
        <section className="card" aria-labelledby="invoices-title">
          <div className="card-header">
            <h2 id="invoices-title">Invoices</h2>
            {more(c.invoices_count, invoices.length, `/invoices?customer=${c.id}`, "invoices")}
          </div>
          <RelatedTable
            count={invoices.length}
            empty="No invoices yet."
            head={
              <tr>
                <th>Number</th>
                <th>Status</th>
                <th className="num">Balance</th>
              </tr>
            }
          >
            {invoices.map((i) => (
              <tr key={i.id}>
                <td>
                  <Link to={`/invoices/${i.id}`}>{i.number}</Link>
                  {i.due_date ? <div className="muted small">Due {formatDate(i.due_date)}</div> : null}
                </td>
                <td>
                  <StatusBadge status={i.status} /> {i.overdue ? <StatusBadge status="overdue" /> : null}
                </td>
                <td className="num">
                  <Money cents={balanceDue(i)} currency={i.currency} />
                </td>
              </tr>
            ))}
          </RelatedTable>
        </section>
      </div>

      {requests.length ? (
        <section className="card" aria-labelledby="requests-title">
          <h2 id="requests-title">Booking requests</h2>
          <RelatedTable
            count={requests.length}
            empty=""
            head={
              <tr>
                <th>Service</th>
                <th>Preferred date</th>
                <th>Status</th>
                <th>Received</th>
              </tr>
            }
          >
            {requests.map((r) => (
              <tr key={r.id}>
                <td>{r.service}</td>
                <td>{r.preferred_date ? formatDate(r.preferred_date) : <span className="muted">Any</span>}</td>
                <td>
                  <StatusBadge status={r.status} />
                </td>
                <td>
                  <DateTime value={r.created_at} />
                </td>
              </tr>
            ))}
          </RelatedTable>
        </section>
      ) : null}

      <section className="card" id="reminders" aria-labelledby="reminders-title">
        <h2 id="reminders-title">Automatic reminders</h2>
        <p>
          {autoReminders
            ? "This customer receives the automatic reminders set in the company settings (quote follow-ups, invoice and visit reminders)."
            : "This customer receives no automatic reminders. Quotes, invoices and receipts you send still go out."}
        </p>
        {canManageRecords ? (
          <Form method="post" action={`/customers/${c.id}/reminders`} className="inline-form">
            <CsrfInput />
            <input type="hidden" name="on" value={autoReminders ? "false" : "true"} />
            <button type="submit" className="btn btn-secondary">
              {autoReminders ? "Turn reminders off" : "Turn reminders on"}
            </button>
          </Form>
        ) : null}
      </section>
    </RecordPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
