import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CsrfInput, Field, fieldOf, FormError, useConformForm } from "~/components/forms";
import { EmptyState, PageHeader } from "~/components/layout";
import { FormActions } from "~/components/record-forms";
import { CheckboxField } from "~/components/settings";
import { formAction, type FormReply } from "~/http/conform.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { taxGroupSchema, taxRateSchema } from "~/services/taxes/schemas";
import { listTaxes, saveTaxGroup, saveTaxRate } from "~/services/taxes/taxes.server";
import { notFound } from "~/utils/app-error";

// /settings/taxes: named tax rates and groups of rates (owner, admin). Add, change while unused
// (?edit=<id>); default, archive, restore and delete go to /settings/taxes/<id>.

export const meta: MetaFunction = () => [{ title: "Taxes · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_taxes");
  const taxes = await listTaxes(actorOf(user));
  const editId = new URL(request.url).searchParams.get("edit");
  const editing = editId ? taxes.find((r) => r.id === editId) : undefined;
  if (editId && !editing) throw notFound("Tax rate not found.");
  return json({ taxes, editing: editing ?? null });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_taxes");
  const actor = actorOf(user);
  if (new URL(request.url).searchParams.get("intent") === "group") {
    return formAction(request, taxGroupSchema, async (value) => {
      await saveTaxGroup(actor, value);
      return redirect("/settings/taxes", 303);
    });
  }
  return formAction(request, taxRateSchema, async (value) => {
    await saveTaxRate(actor, value);
    return redirect("/settings/taxes", 303);
  });
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;
type Tax = Loaded["taxes"][number];

function RateForm({ editing, reply, busy }: { editing: Tax | null; reply?: FormReply; busy: boolean }) {
  const [form, fields] = useConformForm(taxRateSchema, {
    id: `tax-rate-${editing?.id ?? "new"}`,
    lastResult: reply?.result,
    defaultValue: editing ? { id: editing.id, name: editing.name, rate: editing.percent } : {},
  });
  return (
    <Form method="post" {...getFormProps(form)} className="stack record-form">
      <CsrfInput />
      {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
      <FormError errors={form.errors} />
      <div className="form-grid">
        <Field label="Name" autoComplete="off" hint="Like “Texas state” or “Austin city”" {...fieldOf(fields.name)} />
        <Field
          label="Rate (%)"
          inputMode="decimal"
          autoComplete="off"
          hint="Up to 3 decimals, like 6.25 or 8.875"
          {...fieldOf(fields.rate)}
        />
      </div>
      <CheckboxField
        name="isDefault"
        label="Default for new lines"
        checked={!!editing?.isDefault}
        errors={fields.isDefault.errors}
      />
      <FormActions submit={editing ? "Save rate" : "Add rate"} cancelTo="/settings/taxes" busy={busy} />
    </Form>
  );
}

function GroupForm({
  editing,
  rates,
  reply,
  busy,
}: {
  editing: Tax | null;
  rates: Tax[];
  reply?: FormReply;
  busy: boolean;
}) {
  const [form, fields] = useConformForm(taxGroupSchema, {
    id: `tax-group-${editing?.id ?? "new"}`,
    lastResult: reply?.result,
    defaultValue: editing ? { id: editing.id, name: editing.name } : {},
  });
  const chosen = new Set(editing?.members.map((m) => m.key) ?? []);
  const errors = fields.rateIds.errors;
  return (
    <Form method="post" action="/settings/taxes?intent=group" {...getFormProps(form)} className="stack record-form">
      <CsrfInput />
      {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
      <FormError errors={form.errors} />
      <Field
        label="Group name"
        autoComplete="off"
        hint="Like “Austin”: a state and a city rate on one line"
        {...fieldOf(fields.name)}
      />
      <fieldset className={`field${errors?.length ? " field-invalid" : ""}`} aria-describedby="field-rateIds-error">
        <legend>Rates in the group (two or more)</legend>
        {rates.map((r) => (
          <label key={r.id} className="checkbox">
            <input type="checkbox" name="rateIds" value={r.id} defaultChecked={chosen.has(r.id)} />
            <span>
              {r.name} ({r.percent}%)
            </span>
          </label>
        ))}
        {errors?.length ? (
          <p id="field-rateIds-error" className="field-error" role="alert">
            {errors.join(" ")}
          </p>
        ) : null}
      </fieldset>
      <CheckboxField
        name="isDefault"
        label="Default for new lines"
        checked={!!editing?.isDefault}
        errors={fields.isDefault.errors}
      />
      <FormActions submit={editing ? "Save group" : "Add group"} cancelTo="/settings/taxes" busy={busy} />
    </Form>
  );
}

function Actions({ tax }: { tax: Tax }) {
  const post = (intent: string, label: string, aria: string, tone = "btn-secondary") => (
    <Form method="post" action={`/settings/taxes/${tax.id}`} className="inline-form">
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <button type="submit" className={`btn ${tone} btn-sm`} aria-label={aria}>
        {label}
      </button>
    </Form>
  );
  return (
    <div className="inline-form">
      {!tax.archived && !tax.uses ? (
        <Link
          to={`/settings/taxes?edit=${tax.id}`}
          className="btn btn-secondary btn-sm"
          aria-label={`Change ${tax.name}`}
        >
          Change
        </Link>
      ) : null}
      {!tax.archived && !tax.isDefault ? post("default", "Make default", `Make ${tax.name} the default`) : null}
      {tax.archived
        ? post("restore", "Restore", `Restore ${tax.name}`)
        : post("archive", "Archive", `Archive ${tax.name}`)}
      {tax.uses ? null : post("delete", "Delete", `Delete ${tax.name}`, "btn-ghost")}
    </div>
  );
}

export default function TaxesPage() {
  const { taxes, editing } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const formKey = useLocation().key;
  const rates = taxes.filter((r) => !r.isGroup && !r.archived);
  return (
    <>
      <PageHeader
        title="Taxes"
        description="Named tax rates, and groups of them for places that charge several (a state and a city rate, reported separately)."
      />
      <div className="settings-columns">
        <section className="card" aria-labelledby="rate-form-title">
          <h2 id="rate-form-title">{editing && !editing.isGroup ? `Change “${editing.name}”` : "Add a rate"}</h2>
          <RateForm
            key={`r-${formKey}`}
            editing={editing && !editing.isGroup ? editing : null}
            reply={reply}
            busy={busy}
          />
        </section>
        <section className="card" aria-labelledby="group-form-title">
          <h2 id="group-form-title">{editing?.isGroup ? `Change “${editing.name}”` : "Add a group"}</h2>
          {rates.length >= 2 ? (
            <GroupForm
              key={`g-${formKey}`}
              editing={editing?.isGroup ? editing : null}
              rates={rates}
              reply={reply}
              busy={busy}
            />
          ) : (
            <p className="muted">
              Add two rates or more first; a group puts them on one line, each reported on its own.
            </p>
          )}
        </section>
      </div>
      {taxes.length ? (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Tax rates and groups">
          <table>
            <caption className="visually-hidden">Tax rates and groups</caption>
            <thead>
              <tr>
                <th>Name</th>
                <th className="num">Rate</th>
                <th>Made of</th>
                <th className="num">Used on</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {taxes.map((r) => (
                <tr key={r.id} className={r.archived ? "muted" : undefined}>
                  <td>
                    <strong>{r.name}</strong>
                    {r.isDefault ? <span className="badge badge-success"> Default</span> : null}
                    {r.archived ? <span className="badge"> Archived</span> : null}
                  </td>
                  <td className="num">{r.percent}%</td>
                  <td>{r.isGroup ? r.members.map((m) => m.name).join(" + ") : "—"}</td>
                  <td className="num">{r.uses}</td>
                  <td>
                    <Actions tax={r} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <EmptyState title="No named tax rates yet">
          <p>
            Add the rates you charge, like “Texas state 6.25%” and “Austin city 2%”; lines on quotes and invoices then
            pick them by name, and reports show the tax collected per rate.
          </p>
        </EmptyState>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
