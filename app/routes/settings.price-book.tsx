import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CsrfInput, Field, fieldOf, FormError, useConformForm } from "~/components/forms";
import { EmptyState, PageHeader } from "~/components/layout";
import { Money } from "~/components/records";
import { FormActions } from "~/components/record-forms";
import { SelectField } from "~/components/settings";
import { formAction, readStaffForm, type FormReply } from "~/http/conform.server";
import { priceBookItemSchema } from "~/services/documents/price-book-form";
import { listPriceBook, removePriceBookItem, savePriceBookItem } from "~/services/documents/price-book.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { notFound } from "~/utils/app-error";

// /settings/price-book: the services and products line items are picked from. Add, change
// (?edit=<id>) and remove; `manage_records` (owner, admin, office).

export const meta: MetaFunction = () => [{ title: "Price book · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const items = await listPriceBook(actorOf(user));
  const editId = new URL(request.url).searchParams.get("edit");
  const editing = editId ? items.find((i) => i.id === editId) : undefined;
  if (editId && !editing) throw notFound("Price book item not found.");
  return json({ items, editing: editing ?? null });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const actor = actorOf(user);
  if (new URL(request.url).searchParams.get("intent") === "remove") {
    const form = await readStaffForm(request);
    await removePriceBookItem(actor, String(form.get("id") ?? ""));
    return redirect("/settings/price-book", 303);
  }
  return formAction(request, priceBookItemSchema, async (value) => {
    await savePriceBookItem(actor, value);
    return redirect("/settings/price-book", 303);
  });
}

/** The add (or change) form; a fresh one after each save (the page keys it by location). */
function PriceBookItemForm({
  editing,
  reply,
  busy,
}: {
  editing: SerializeFrom<typeof loader>["editing"];
  reply: FormReply | undefined;
  busy: boolean;
}) {
  const defaultValue = editing
    ? {
        id: editing.id,
        kind: editing.kind,
        name: editing.name,
        description: editing.description,
        unitPrice: editing.unitPrice,
        taxRate: editing.taxRate,
      }
    : { kind: "service" };
  const [form, fields] = useConformForm(priceBookItemSchema, {
    id: `price-book-${editing?.id ?? "new"}`,
    lastResult: reply?.result,
    defaultValue,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="stack record-form">
      <CsrfInput />
      {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
      <FormError errors={form.errors} />
      <div className="form-grid">
        <Field label="Name" autoComplete="off" {...fieldOf(fields.name)} />
        <SelectField
          name="kind"
          label="Kind"
          value={String(fields.kind.initialValue ?? "service")}
          errors={fields.kind.errors}
          options={[
            { value: "service", label: "Service" },
            { value: "product", label: "Product" },
          ]}
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
      <Field label="Description" autoComplete="off" {...fieldOf(fields.description)} />
      <FormActions
        submit={editing ? "Save changes" : "Add to price book"}
        cancelTo="/settings/price-book"
        busy={busy}
      />
    </Form>
  );
}

export default function PriceBookPage() {
  const { items, editing } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  // Keyed by the location: after a save (a redirect, a new location) the form starts empty.
  const formKey = useLocation().key;
  return (
    <>
      <PageHeader
        title="Price book"
        description="Services and products you sell, ready to pick on a quote or an invoice."
      />
      <section className="card" aria-labelledby="item-form-title">
        <h2 id="item-form-title">{editing ? `Change “${editing.name}”` : "Add a service or product"}</h2>
        <PriceBookItemForm key={formKey} editing={editing} reply={reply} busy={busy} />
      </section>
      {items.length ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                <th className="num">Unit price</th>
                <th className="num">Tax</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((i) => (
                <tr key={i.id}>
                  <td>
                    <strong>{i.name}</strong>
                    {i.description ? <div className="muted small">{i.description}</div> : null}
                  </td>
                  <td>{i.kind === "product" ? "Product" : "Service"}</td>
                  <td className="num">
                    <Money cents={i.unitPriceCents} currency="USD" />
                  </td>
                  <td className="num">{Number(i.taxRate) ? `${i.taxRate}%` : "—"}</td>
                  <td>
                    <div className="inline-form">
                      <Link
                        to={`/settings/price-book?edit=${i.id}`}
                        className="btn btn-secondary btn-sm"
                        aria-label={`Change ${i.name}`}
                      >
                        Change
                      </Link>
                      <Form method="post" action="/settings/price-book?intent=remove" className="inline-form">
                        <CsrfInput />
                        <input type="hidden" name="id" value={i.id} />
                        <button type="submit" className="btn btn-ghost btn-sm" aria-label={`Remove ${i.name}`}>
                          Remove
                        </button>
                      </Form>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <EmptyState title="The price book is empty">
          <p>
            Add the services and products you sell most, and pick them on quotes with their price and tax rate filled
            in.
          </p>
        </EmptyState>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
