import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, useLocation } from "@remix-run/react";
import { CsrfInput, Field, FormError, fieldOf, useConformForm } from "~/components/forms";
import { addressLines } from "~/utils/address";
import { propertySchema, type PropertyView } from "~/services/customers/property-schema";

const LINES: [keyof Omit<PropertyView, "id" | "jobs">, string, string?][] = [
  ["label", "Label", "Home, Rental, Main office…"],
  ["addressLine1", "Address line 1"],
  ["addressLine2", "Address line 2"],
  ["city", "City"],
  ["region", "State / region"],
  ["postalCode", "Postal code"],
  ["country", "Country"],
];

export const propertyAddress = (
  p: Pick<PropertyView, "addressLine1" | "addressLine2" | "city" | "region" | "postalCode" | "country">,
) => addressLines(p);

/** One property's form: add (no property) or change. A plain post: works with JavaScript off. */
function PropertyForm({
  customerId,
  property,
  lastResult,
}: {
  customerId: string;
  property?: PropertyView;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const id = property ? `property-${property.id}` : "property-new";
  const [form, fields] = useConformForm(propertySchema, {
    id,
    lastResult,
    defaultValue: property
      ? { ...property, intent: "property.save", propertyId: property.id }
      : { intent: "property.add" },
  });
  return (
    <Form method="post" action={`/customers/${customerId}`} className="stack property-form" {...getFormProps(form)}>
      <CsrfInput />
      <input type="hidden" name="intent" value={property ? "property.save" : "property.add"} />
      {property ? <input type="hidden" name="propertyId" value={property.id} /> : null}
      <FormError errors={form.errors} />
      <div className="property-fields">
        {LINES.map(([name, label, placeholder]) => {
          const f = fieldOf(fields[name] as never);
          return <Field key={name} id={`${id}-${name}`} label={label} placeholder={placeholder} {...f} />;
        })}
      </div>
      <div>
        <button type="submit" className={`btn ${property ? "btn-secondary" : "btn-primary"} btn-sm`}>
          {property ? "Save property" : "Add property"}
        </button>
      </div>
    </Form>
  );
}

/** The customer's service properties (section 14): each with its address, editable in place. */
export function PropertiesCard({
  customerId,
  properties,
  canManage,
  lastResult,
}: {
  customerId: string;
  properties: PropertyView[];
  canManage: boolean;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const target = (lastResult?.initialValue as { propertyId?: string; intent?: string } | undefined) ?? {};
  const addFailed = target.intent === "property.add";
  const addKey = useLocation().key;
  return (
    <section className="card" aria-labelledby="properties-title">
      <div className="card-header">
        <h2 id="properties-title">Service properties</h2>
        <span className="muted small">
          {properties.length === 1 ? "1 property" : `${properties.length} properties`}
        </span>
      </div>
      {properties.length === 0 ? (
        <p className="muted">No service properties yet. Jobs go to the customer's address.</p>
      ) : null}
      <ul className="property-list">
        {properties.map((p, i) => {
          const failed = target.propertyId === p.id;
          return (
            <li key={p.id} className="property-item">
              <div className="property-summary">
                <strong>{p.label ?? `Property ${i + 1}`}</strong>
                <div>
                  {propertyAddress(p).map((line) => (
                    <div key={line}>{line}</div>
                  ))}
                </div>
                <div className="muted small">{p.jobs === 1 ? "1 job" : `${p.jobs} jobs`}</div>
              </div>
              {canManage ? (
                <details className="property-edit" open={failed}>
                  <summary>Edit</summary>
                  <PropertyForm customerId={customerId} property={p} lastResult={failed ? lastResult : null} />
                </details>
              ) : null}
            </li>
          );
        })}
      </ul>
      {canManage ? (
        <details className="property-add" open={addFailed}>
          <summary>Add a service property</summary>
          {/* Keyed by the location: after a save (a redirect, a new location) the form starts empty. */}
          <PropertyForm key={addKey} customerId={customerId} lastResult={addFailed ? lastResult : null} />
        </details>
      ) : null}
    </section>
  );
}
