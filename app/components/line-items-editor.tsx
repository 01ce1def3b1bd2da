import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import { useMemo } from "react";
import {
  documentTotals,
  draftLine,
  emptyLine,
  optionGroups,
  PICK_BUTTON,
  PICK_SELECT,
} from "~/services/documents/line-items";
import { formatMoney } from "~/utils/format";
import { FieldErrors } from "./forms";

// The line-item editor of quotes (and invoices): conform's field list, so "Add line" and
// "Remove" are intent buttons that work with JavaScript off (the server re-renders the form
// with every typed value) and update in place with it on, totals included.

export type PriceBookEntry = {
  id: string;
  name: string;
  description: string | null;
  unitPrice: string;
  taxRate: string;
  kind: string;
};
type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;
type RowValues = {
  description?: string;
  quantity?: string;
  unitPrice?: string;
  taxRate?: string;
  optional?: string;
  option?: string;
};

const str = (v: unknown) => (typeof v === "string" ? v : "");
const cellId = (row: number, name: string) => `field-items-${row}-${name}`;

function Cell({
  row,
  name,
  label,
  meta,
  className,
  ...input
}: {
  row: number;
  name: string;
  label: string;
  meta: Meta;
  className?: string;
} & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = cellId(row, name);
  const errors = meta.errors;
  return (
    <div
      className={`line-cell line-${name}${errors?.length ? " field-invalid" : ""}${className ? ` ${className}` : ""}`}
    >
      <label htmlFor={id} className="line-label">
        {label}
        <span className="visually-hidden">, line {row + 1}</span>
      </label>
      <input
        id={id}
        name={meta.name}
        defaultValue={str(meta.initialValue)}
        key={meta.key}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error` : undefined}
        {...input}
      />
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

export function LineItemsEditor({
  form,
  items,
  currency,
  priceBook,
  defaultTaxRate,
  allowOptions = true,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any, string[]>;
  items: Meta;
  currency: string;
  priceBook: PriceBookEntry[];
  defaultTaxRate: string;
  /** Options and optional items are a quote's; an invoice carries only what was chosen. */
  allowOptions?: boolean;
}) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const rows = (items as any).getFieldList() as Meta[];
  const values = ((items.value ?? items.initialValue) as RowValues[] | undefined) ?? [];
  const lines = values.map((v) => draftLine(v ?? {}));
  const totals = documentTotals(lines);
  const groups = optionGroups(lines);
  const byName = useMemo(() => new Map(priceBook.map((p) => [p.name.toLowerCase(), p])), [priceBook]);
  const listId = "price-book-names";

  /** With JavaScript: typing or choosing a price-book name fills an empty price and tax rate. */
  const fillFromPriceBook = (rowName: string, description: string, current: RowValues | undefined) => {
    const p = byName.get(description.trim().toLowerCase());
    if (!p) return;
    if (!current?.unitPrice) form.update({ name: `${rowName}.unitPrice`, value: p.unitPrice });
    if (!current?.taxRate || current.taxRate === defaultTaxRate)
      form.update({ name: `${rowName}.taxRate`, value: p.taxRate });
  };

  return (
    <fieldset className={`line-items-editor${allowOptions ? "" : " no-options"}`}>
      <legend>Line items</legend>
      <FieldErrors id="field-items-error" errors={items.errors} />
      <div className="line-head" aria-hidden="true">
        <span>Description</span>
        <span>Qty</span>
        <span>Unit price</span>
        <span>Tax %</span>
        {allowOptions ? (
          <>
            <span>Option</span>
            <span>Optional</span>
          </>
        ) : null}
        <span className="num">Amount</span>
        <span />
      </div>
      <ol className="line-rows">
        {rows.map((row, i) => {
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          const f = (row as any).getFieldset() as Record<string, Meta>;
          const amount = lines[i] ? documentTotals([{ ...lines[i], optional: false, option: null }]).subtotal : 0;
          const optionalId = cellId(i, "optional");
          return (
            <li key={row.key} className="line-row">
              <Cell
                row={i}
                name="description"
                label="Description"
                meta={f.description}
                list={priceBook.length ? listId : undefined}
                autoComplete="off"
                onChange={(e) => fillFromPriceBook(row.name, e.currentTarget.value, values[i])}
              />
              <Cell row={i} name="quantity" label="Qty" meta={f.quantity} inputMode="decimal" autoComplete="off" />
              <Cell
                row={i}
                name="unitPrice"
                label="Unit price"
                meta={f.unitPrice}
                inputMode="decimal"
                autoComplete="off"
              />
              <Cell row={i} name="taxRate" label="Tax %" meta={f.taxRate} inputMode="decimal" autoComplete="off" />
              {allowOptions ? (
                <>
                  <Cell
                    row={i}
                    name="option"
                    label="Option"
                    meta={f.option}
                    list={listId + "-groups"}
                    autoComplete="off"
                    placeholder="Always"
                  />
                  <div className="line-cell line-optional">
                    <label htmlFor={optionalId} className="line-label">
                      Optional<span className="visually-hidden">, line {i + 1}</span>
                    </label>
                    <input
                      type="checkbox"
                      id={optionalId}
                      name={f.optional.name}
                      key={f.optional.key}
                      defaultChecked={["on", "true"].includes(str(f.optional.initialValue))}
                    />
                  </div>
                </>
              ) : null}
              <div className="line-cell line-amount num" aria-live="polite">
                <span className="line-label">Amount</span>
                <span>{formatMoney(amount, currency)}</span>
              </div>
              <div className="line-cell line-remove">
                <button
                  className="btn btn-ghost btn-sm"
                  {...form.remove.getButtonProps({ name: items.name, index: i })}
                  formNoValidate
                  aria-label={`Remove line ${i + 1}`}
                >
                  Remove
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      {priceBook.length ? (
        <datalist id={listId}>
          {priceBook.map((p) => (
            <option key={p.id} value={p.name} />
          ))}
        </datalist>
      ) : null}
      <datalist id={listId + "-groups"}>
        {["Good", "Better", "Best", ...groups.filter((g) => !["Good", "Better", "Best"].includes(g))].map((g) => (
          <option key={g} value={g} />
        ))}
      </datalist>
      <div className="line-actions">
        <button
          className="btn btn-secondary btn-sm"
          {...form.insert.getButtonProps({ name: items.name, defaultValue: emptyLine(defaultTaxRate) as never })}
          formNoValidate
        >
          Add line
        </button>
        {priceBook.length ? (
          <div className="price-book-pick">
            <label htmlFor="field-priceBookItem" className="visually-hidden">
              Item from the price book
            </label>
            <select id="field-priceBookItem" name={PICK_SELECT} defaultValue="">
              <option value="">Choose from the price book…</option>
              {priceBook.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} · {formatMoney(Math.round(Number(p.unitPrice) * 100), currency)}
                </option>
              ))}
            </select>
            <button
              type="submit"
              name={PICK_BUTTON}
              value="1"
              formNoValidate
              className="btn btn-secondary btn-sm"
              onClick={(e) => {
                // With JavaScript the row is added in place; without, the server adds it.
                const select = e.currentTarget.form?.elements.namedItem(PICK_SELECT) as HTMLSelectElement | null;
                const p = priceBook.find((x) => x.id === select?.value);
                e.preventDefault();
                if (!p) return;
                form.insert({
                  name: items.name,
                  defaultValue: {
                    description: p.name,
                    quantity: "1",
                    unitPrice: p.unitPrice,
                    taxRate: p.taxRate,
                    optional: "",
                    option: "",
                  } as never,
                });
                if (select) select.value = "";
              }}
            >
              Add item
            </button>
          </div>
        ) : null}
      </div>
      <TotalsSummary totals={totals} currency={currency} groups={groups} anyOptional={lines.some((l) => l.optional)} />
    </fieldset>
  );
}

export function TotalsSummary({
  totals,
  currency,
  groups,
  anyOptional,
}: {
  totals: { subtotal: number; tax: number; total: number };
  currency: string;
  groups: string[];
  anyOptional: boolean;
}) {
  return (
    <div className="totals-summary" aria-live="polite">
      <dl>
        <dt>Subtotal</dt>
        <dd>{formatMoney(totals.subtotal, currency)}</dd>
        <dt>Tax</dt>
        <dd>{formatMoney(totals.tax, currency)}</dd>
        <dt className="total">Total</dt>
        <dd className="total">{formatMoney(totals.total, currency)}</dd>
      </dl>
      {groups.length || anyOptional ? (
        <p className="field-hint">
          {groups.length ? (
            <>
              The total counts option “{groups[0]}”
              {groups.length > 1
                ? `; the customer may choose ${groups
                    .slice(1)
                    .map((g) => `“${g}”`)
                    .join(" or ")} instead`
                : ""}
              .{" "}
            </>
          ) : null}
          {anyOptional ? "Optional items are not counted until the customer picks them." : null}
        </p>
      ) : null}
    </div>
  );
}
