import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CsrfInput, Field, fieldOf, FormError, useConformForm } from "~/components/forms";
import { EmptyState, PageHeader } from "~/components/layout";
import { Money, StatusBadge } from "~/components/records";
import { FormActions } from "~/components/record-forms";
import { formAction, readStaffForm, type FormReply } from "~/http/conform.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { jobBillingSchema, jobItemIdSchema, jobItemSchema } from "~/services/jobs/items-form";
import { addJobItem, jobBilling, removeJobItem, setItemPerVisit, setJobBilling } from "~/services/jobs/items.server";
import { validationFailed } from "~/utils/app-error";
import { formatDateTime } from "~/utils/format";

// /jobs/<id>/items: the job's line items (copied from its quote, editable here), each billed
// once with the job or on every visit's invoice, and how the job is billed: on completion or
// per visit, with each completed visit's invoice. `manage_records` (owner, admin, office).

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `Billing: ${data.job.title}` : "Billing"} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  return json(await jobBilling(actorOf(user), params.id!));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const actor = actorOf(user);
  const jobId = params.id!;
  const back = redirect(`/jobs/${jobId}/items`, 303);
  const intent = new URL(request.url).searchParams.get("intent");
  if (intent === "billing")
    return formAction(request, jobBillingSchema, async (v) => {
      await setJobBilling(actor, jobId, v.billing);
      return back;
    });
  if (intent === "remove" || intent === "per-visit") {
    const form = await readStaffForm(request);
    const parsed = jobItemIdSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw validationFailed({ id: ["Name the line item."] });
    if (intent === "remove") await removeJobItem(actor, jobId, parsed.data.id);
    else await setItemPerVisit(actor, jobId, parsed.data.id, parsed.data.perVisit === "on");
    return back;
  }
  return formAction(request, jobItemSchema, async (v) => {
    await addJobItem(actor, jobId, v);
    return back;
  });
}

function AddItemForm({ reply, busy, jobId }: { reply: FormReply | undefined; busy: boolean; jobId: string }) {
  const [form, fields] = useConformForm(jobItemSchema, { id: "job-item-new", lastResult: reply?.result });
  return (
    <Form method="post" {...getFormProps(form)} className="stack record-form">
      <CsrfInput />
      <FormError errors={form.errors} />
      <Field label="Description" autoComplete="off" {...fieldOf(fields.description)} />
      <div className="form-grid">
        <Field
          label="Quantity"
          inputMode="decimal"
          autoComplete="off"
          hint="Like 1 or 2.5"
          {...fieldOf(fields.quantity)}
        />
        <Field
          label="Unit price"
          inputMode="decimal"
          autoComplete="off"
          hint="Like 149.00"
          {...fieldOf(fields.unitPrice)}
        />
        <Field
          label="Tax rate (%)"
          inputMode="decimal"
          autoComplete="off"
          hint="Like 8.25; empty for none"
          {...fieldOf(fields.taxRate)}
        />
      </div>
      <label className="checkbox">
        <input type="checkbox" name="perVisit" /> Bill on every visit&apos;s invoice (a per-visit fee)
      </label>
      <FormActions submit="Add line item" cancelTo={`/jobs/${jobId}`} busy={busy} />
    </Form>
  );
}

export default function JobItemsPage() {
  const { job, items, visits } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const formKey = useLocation().key;
  const perVisit = job.billing === "per_visit";
  return (
    <>
      <PageHeader
        title={`Billing: ${job.title}`}
        description="What this job bills, and whether it is invoiced once when the work is done or after each visit."
        actions={
          <Link to={`/jobs/${job.id}`} className="btn btn-secondary">
            Back to the job
          </Link>
        }
      />
      <section className="card" aria-labelledby="billing-title">
        <h2 id="billing-title">How this job is billed</h2>
        <Form method="post" action={`/jobs/${job.id}/items?intent=billing`} className="stack">
          <CsrfInput />
          <fieldset className="choices">
            <legend className="visually-hidden">Billing</legend>
            <label className="checkbox">
              <input type="radio" name="billing" value="on_completion" defaultChecked={!perVisit} /> On completion: one
              invoice for the job, its items and all its time
            </label>
            <label className="checkbox">
              <input type="radio" name="billing" value="per_visit" defaultChecked={perVisit} /> Per visit: an invoice
              for each completed visit (per-visit items and that visit&apos;s time); the job&apos;s own invoice bills
              the rest
            </label>
          </fieldset>
          <div>
            <button type="submit" className="btn btn-secondary">
              Save billing
            </button>
          </div>
        </Form>
      </section>
      <section className="card" aria-labelledby="items-title">
        <h2 id="items-title">Line items</h2>
        {items.length ? (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Description</th>
                  <th className="num">Qty</th>
                  <th className="num">Unit price</th>
                  <th className="num">Tax</th>
                  <th>Billed</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((i) => (
                  <tr key={i.id}>
                    <td>{i.description}</td>
                    <td className="num">{Number(i.quantity)}</td>
                    <td className="num">
                      <Money cents={Number(i.unit_price_cents)} currency="USD" />
                    </td>
                    <td className="num">{Number(i.tax_rate) ? `${Number(i.tax_rate)}%` : "—"}</td>
                    <td>
                      <Form method="post" action={`/jobs/${job.id}/items?intent=per-visit`} className="inline-form">
                        <CsrfInput />
                        <input type="hidden" name="id" value={i.id} />
                        {i.per_visit ? null : <input type="hidden" name="perVisit" value="on" />}
                        <span>{i.per_visit ? "Every visit" : "Once"}</span>
                        <button type="submit" className="btn btn-ghost btn-sm">
                          {i.per_visit ? (
                            <>
                              Bill once<span className="visually-hidden">: {i.description}</span>
                            </>
                          ) : (
                            <>
                              Bill per visit<span className="visually-hidden">: {i.description}</span>
                            </>
                          )}
                        </button>
                      </Form>
                    </td>
                    <td>
                      <Form method="post" action={`/jobs/${job.id}/items?intent=remove`} className="inline-form">
                        <CsrfInput />
                        <input type="hidden" name="id" value={i.id} />
                        <button type="submit" className="btn btn-ghost btn-sm" aria-label={`Remove ${i.description}`}>
                          Remove
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <EmptyState title="No line items yet">
            <p>
              A job converted from a quote starts with the quote&apos;s chosen items. Add what this job bills below.
            </p>
          </EmptyState>
        )}
        <h3>Add a line item</h3>
        <AddItemForm key={formKey} reply={reply} busy={busy} jobId={job.id} />
      </section>
      <section className="card" aria-labelledby="visits-billing-title">
        <h2 id="visits-billing-title">Visits</h2>
        {visits.length ? (
          <ul className="plain-list">
            {visits.map((v) => (
              <li key={v.id} className="row-between">
                <span>
                  {formatDateTime(v.starts_at, job.time_zone)} <StatusBadge status={v.status} />
                  {v.crew ? <span className="muted"> · {v.crew}</span> : null}
                </span>
                {v.invoice_id ? (
                  <Link to={`/invoices/${v.invoice_id}`}>Invoice {v.invoice_number}</Link>
                ) : perVisit && v.status === "completed" ? (
                  <Form method="post" action={`/visits/${v.id}/invoice`} className="inline-form">
                    <CsrfInput />
                    <button type="submit" className="btn btn-primary btn-sm">
                      Invoice this visit
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No visits yet.</p>
        )}
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
