import { Form, Link } from "@remix-run/react";
import { EmptyState, PageHeader } from "./layout";
import { FieldErrors } from "./forms";

// Pieces the record forms (customer, quote, invoice, job) share beside forms.tsx's Field.

/** A labelled textarea whose errors are tied to it, ids `field-<name>` like Field. */
export function TextAreaField({
  name,
  label,
  errors,
  hint,
  defaultValue,
  rows = 4,
  id,
}: {
  name: string;
  label: string;
  errors?: string[] | null;
  hint?: React.ReactNode;
  defaultValue?: string;
  rows?: number;
  id?: string;
}) {
  const fieldId = id ?? `field-${name}`;
  const describedBy =
    [hint ? `${fieldId}-hint` : null, errors?.length ? `${fieldId}-error` : null].filter(Boolean).join(" ") ||
    undefined;
  return (
    <div className={`field${errors?.length ? " field-invalid" : ""}`}>
      <label htmlFor={fieldId}>{label}</label>
      <textarea
        id={fieldId}
        name={name}
        rows={rows}
        defaultValue={defaultValue}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint ? (
        <p id={`${fieldId}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${fieldId}-error`} errors={errors} />
    </div>
  );
}

/** The Save / Cancel row at the foot of a record form. */
export function FormActions({ submit, cancelTo, busy }: { submit: string; cancelTo: string; busy?: boolean }) {
  return (
    <div className="form-actions">
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? "Saving…" : submit}
      </button>
      <a href={cancelTo} className="btn btn-secondary">
        Cancel
      </a>
    </div>
  );
}

/** The props the quote and invoice forms share (/quotes/new, /invoices/<id>/edit, ...). */
export type DocumentFormProps<Context> = {
  /** Where the form posts (a new document's page names its customer, so a refused form re-renders it). */
  action?: string;
  id: string;
  context: Context;
  customer: { id: string; name: string };
  defaultValue: Record<string, unknown>;
  submit: string;
  cancelTo: string;
  changeCustomerTo?: string;
};

/** The customer a quote or invoice is for, fixed in the form (hidden field) with a way to change it. */
export function DocumentCustomer({
  name,
  customer,
  changeCustomerTo,
  errors,
}: {
  name: string;
  customer: { id: string; name: string };
  changeCustomerTo?: string;
  errors?: string[];
}) {
  return (
    <>
      <input type="hidden" name={name} value={customer.id} />
      <div className="quote-customer">
        <span className="muted">Customer</span>
        <strong>{customer.name}</strong>
        {changeCustomerTo ? (
          <Link to={changeCustomerTo} className="small">
            Change
          </Link>
        ) : null}
        {errors?.length ? (
          <span className="field-errors" id={`field-${name}-error`}>
            {errors.join(" ")}
          </span>
        ) : null}
      </div>
    </>
  );
}

/** The currency the line totals show: the form's own 3-letter code while valid, else the company's. */
export const formCurrency = (value: unknown, fallback: string) =>
  (typeof value === "string" && /^[A-Za-z]{3}$/.test(value) ? value.toUpperCase() : null) ?? fallback;

type PickableCustomer = {
  id: string;
  name: string;
  company: string | null;
  email: string | null;
  phone: string | null;
  city: string | null;
};

/**
 * The first step of a new quote or invoice: find the customer (a GET search, so it works without
 * JavaScript) and pick one. `keep` carries what the page was opened with (e.g. a booking request).
 */
export function CustomerPicker({
  what,
  q,
  customers,
  pickHref,
  keep = "",
}: {
  what: string;
  q?: string;
  customers: PickableCustomer[];
  pickHref: (id: string) => string;
  keep?: string;
}) {
  return (
    <>
      <PageHeader
        title={`New ${what}`}
        description={`Who is the ${what} for?`}
        actions={
          <Link to="/customers/new" className="btn btn-secondary">
            New customer
          </Link>
        }
      />
      <section className="card narrow">
        <Form method="get" className="form-row" role="search">
          {[...new URLSearchParams(keep)].map(([k, v], i) => (
            <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
          ))}
          <div className="field grow">
            <label htmlFor="customer-search">Find the customer</label>
            <input
              id="customer-search"
              type="search"
              name="q"
              defaultValue={q}
              placeholder="Name, email, phone or company"
            />
          </div>
          <button type="submit" className="btn btn-secondary">
            Search
          </button>
        </Form>
        {customers.length ? (
          <ul className="pick-list">
            {customers.map((c) => (
              <li key={c.id}>
                <Link to={pickHref(c.id)}>
                  <strong>{c.name}</strong>
                </Link>
                <span className="muted small">{[c.company, c.email, c.phone, c.city].filter(Boolean).join(" · ")}</span>
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState title={q ? "No customer matches" : "No customers yet"}>
            <p>
              <Link to="/customers/new">Add the customer</Link> first, then start the {what} from their page.
            </p>
          </EmptyState>
        )}
      </section>
    </>
  );
}
