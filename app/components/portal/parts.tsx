import { forwardRef } from "react";
import { FieldErrors } from "~/components/forms";
import type { PortalLineItem } from "~/services/portal/types";
import { formatMoney } from "~/utils/format";

const quantity = (q: string) => String(Number(q));

/** Line items as a list that reads well on a phone: what, how many at what price, amount. */
export function LineItems({ items, currency }: { items: PortalLineItem[]; currency: string }) {
  if (!items.length) return null;
  return (
    <ul className="portal-items" aria-label="Line items">
      {items.map((item, i) => (
        <li key={i}>
          <div>
            <span className="portal-item-desc">{item.description}</span>
            <span className="portal-item-qty">
              {/* A line at no price (labour of a member without a rate) says so, not "× $0.00". */}
              {Number(item.unitPriceCents) === 0
                ? `${quantity(item.quantity)} · no charge`
                : `${quantity(item.quantity)} × ${formatMoney(item.unitPriceCents, currency)}`}
              {Number(item.taxRate) > 0 ? ` · tax ${Number(item.taxRate)}%` : ""}
            </span>
          </div>
          <span className="portal-amount">{formatMoney(item.lineTotalCents, currency)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Money rows ending with the one that matters, set large. */
export function Totals({
  rows,
  currency,
}: {
  rows: Array<[label: string, cents: number, grand?: boolean]>;
  currency: string;
}) {
  return (
    <dl className="portal-totals">
      {rows.map(([label, cents, grand]) => (
        <div key={label} className={grand ? "portal-grand" : undefined}>
          <dt>{label}</dt>
          <dd>{formatMoney(cents, currency)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A card's own message (a wrong state, an unknown record), above its form. */
export function CardError({ errors }: { errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <div className="alert alert-error portal-card-error" role="alert">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

/**
 * Where a card's form answers: the anchor its form posts to (portalFormAction) and, when the
 * form came back refused, every message of it, the card's own first. The fields show their
 * own messages too; this copy is what the customer sees where the page opens (or scrolls to).
 */
export const FormAnchor = forwardRef<HTMLDivElement, { id: string; errors?: string[] | null }>(function FormAnchor(
  { id, errors },
  ref,
) {
  return (
    <div id={id} ref={ref} tabIndex={-1} className="portal-anchor">
      <CardError errors={errors} />
    </div>
  );
});

type Described = { id: string; errors?: string[] | null; hint?: React.ReactNode };

function describedBy({ id, errors, hint }: Described) {
  return [hint ? `${id}-hint` : null, errors?.length ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

function Extras({ id, errors, hint }: Described) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={errors} />
    </>
  );
}

export function TextAreaField({
  id,
  name,
  label,
  errors,
  hint,
  ...rest
}: Described & { name: string; label: string } & React.TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <div className={`field${errors?.length ? " field-invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy({ id, errors, hint })}
        {...rest}
      />
      <Extras id={id} errors={errors} hint={hint} />
    </div>
  );
}

export function SelectField({
  id,
  name,
  label,
  errors,
  hint,
  options,
  ...rest
}: Described & {
  name: string;
  label: string;
  options: Array<[string, string]>;
} & React.SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <div className={`field${errors?.length ? " field-invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy({ id, errors, hint })}
        {...rest}
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      <Extras id={id} errors={errors} hint={hint} />
    </div>
  );
}

/** A link to a document's PDF, beside its title: the customer keeps a copy. */
export function PdfLink({ href, label }: { href: string; label: string }) {
  return (
    <a className="portal-pdf" href={href} download>
      <span aria-hidden="true">⤓ </span>PDF<span className="visually-hidden"> of {label}</span>
    </a>
  );
}

const METHODS: Record<string, string> = {
  sandbox: "Sandbox payment",
  cash: "Cash",
  check: "Check",
  card: "Card",
  bank_transfer: "Bank transfer",
  import: "Paid earlier",
  other: "Payment",
};
export const paymentMethodLabel = (method: string) => METHODS[method] ?? "Payment";
