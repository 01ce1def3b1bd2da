import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import { Fragment, useMemo } from "react";
import {
  countedLines,
  draftLine,
  emptyLine,
  optionGroups,
  parseDiscount,
  PICK_BUTTON,
  PICK_SELECT,
} from "~/services/documents/line-items";
import { Invalid } from "~/services/import/cells";
import type { Discount } from "~/services/money/prices";
import { lineAmount } from "~/services/money/prices";
import { priceLines, summaryOf, type RateBook, type Summary } from "~/services/taxes/rate-book";
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
  taxRateId?: string;
  kind: string;
};
/** The named rates a line can pick, and the whole book (archived rates price old lines). */
export type TaxOptions = { book: RateBook; choices: Array<{ id: string; label: string }>; defaultId: string };
type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;
type RowValues = {
  description?: string;
  quantity?: string;
  unitPrice?: string;
  taxRate?: string;
  taxRateId?: string;
  discountType?: string;
  discountValue?: string;
  optional?: string;
  option?: string;
};

/** A discount as it is being typed: one that does not parse counts as none. */
const draftDiscount = (type: unknown, value: unknown): Discount | null => {
  const t = type === "percent" || type === "amount" ? type : null;
  const d = parseDiscount(t, typeof value === "string" && value.trim() ? value.trim() : null);
  return d instanceof Invalid ? null : d;
};

/** The live figures of the lines being typed (the server prices them again on save). */
export function draftSummary(
  values: RowValues[],
  book: RateBook,
  doc: { discountType?: unknown; discountValue?: unknown; exemptReason?: string | null },
): Summary {
  const lines = values.map((v) => ({ raw: v ?? {}, ...draftLine(v ?? {}) }));
  const counted = countedLines(lines);
  const discount = draftDiscount(doc.discountType, doc.discountValue);
  const figures = priceLines(
    counted.map((l) => ({
      quantityMilli: l.quantityMilli,
      unitPriceCents: l.unitPriceCents,
      discount: draftDiscount(l.raw.discountType, l.raw.discountValue),
      taxRateId: l.raw.taxRateId && book[l.raw.taxRateId] ? l.raw.taxRateId : null,
      taxRatePpm: l.raw.taxRateId && book[l.raw.taxRateId] ? 0 : l.taxRatePpm,
    })),
    book,
    { discount, exempt: !!doc.exemptReason },
  );
  return summaryOf(figures, { discount, exemptReason: doc.exemptReason ?? null });
}

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
  taxes,
  discount,
  exemptReason,
  allowOptions = true,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any, string[]>;
  items: Meta;
  currency: string;
  priceBook: PriceBookEntry[];
  defaultTaxRate: string;
  taxes: TaxOptions;
  /** The document discount's two fields. */
  discount: { type: Meta; value: Meta };
  /** The customer's exemption, when the document's customer is known and exempt. */
  exemptReason?: string | null;
  /** Options and optional items are a quote's; an invoice carries only what was chosen. */
  allowOptions?: boolean;
}) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const rows = (items as any).getFieldList() as Meta[];
  const values = ((items.value ?? items.initialValue) as RowValues[] | undefined) ?? [];
  const lines = values.map((v) => draftLine(v ?? {}));
  const summary = draftSummary(values, taxes.book, {
    discountType: discount.type.value ?? discount.type.initialValue,
    discountValue: discount.value.value ?? discount.value.initialValue,
    exemptReason,
  });
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
    if (p.taxRateId && (!current?.taxRateId || current.taxRateId === taxes.defaultId))
      form.update({ name: `${rowName}.taxRateId`, value: p.taxRateId });
  };

  return (
    <fieldset className={`line-items-editor${allowOptions ? "" : " no-options"}`}>
      <legend>Line items</legend>
      <FieldErrors id="field-items-error" errors={items.errors} />
      <div className="line-head" aria-hidden="true">
        <span>Description</span>
        <span>Qty</span>
        <span>Unit price</span>
        <span>Tax</span>
        <span>Discount</span>
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
          const amount = lines[i] ? lineAmount(lines[i].quantityMilli, lines[i].unitPriceCents) : 0;
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
              <div className="line-cell line-tax">
                <SelectCell
                  row={i}
                  name="taxRateId"
                  label="Tax rate"
                  meta={f.taxRateId}
                  options={[
                    { value: "", label: taxes.choices.length ? "Other % / none" : "Tax % below" },
                    ...lineChoices(taxes, str(f.taxRateId.initialValue)),
                  ]}
                />
                <Cell
                  row={i}
                  name="taxRate"
                  label="or tax %"
                  meta={f.taxRate}
                  inputMode="decimal"
                  autoComplete="off"
                  className="line-percent"
                />
              </div>
              <div className="line-cell line-discount">
                <SelectCell
                  row={i}
                  name="discountType"
                  label="Discount"
                  meta={f.discountType}
                  options={[
                    { value: "", label: "No discount" },
                    { value: "percent", label: "%" },
                    { value: "amount", label: "Amount" },
                  ]}
                />
                <Cell
                  row={i}
                  name="discountValue"
                  label="Discount value"
                  meta={f.discountValue}
                  inputMode="decimal"
                  autoComplete="off"
                  className="line-percent"
                />
              </div>
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
          {...form.insert.getButtonProps({
            name: items.name,
            defaultValue: emptyLine(defaultTaxRate, taxes.defaultId) as never,
          })}
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
                    taxRateId: p.taxRateId ?? "",
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
      <div className="document-discount form-grid">
        <div className="field">
          <SelectCell
            row={-1}
            name="discountType"
            label="Discount on the whole document"
            meta={discount.type}
            options={[
              { value: "", label: "No discount" },
              { value: "percent", label: "Percent (%)" },
              { value: "amount", label: "Amount" },
            ]}
          />
        </div>
        <Cell
          row={-1}
          name="discountValue"
          label="Document discount value"
          meta={discount.value}
          inputMode="decimal"
          autoComplete="off"
          placeholder="e.g. 10 or 25.00"
        />
      </div>
      <TotalsSummary totals={summary} currency={currency} groups={groups} anyOptional={lines.some((l) => l.optional)} />
    </fieldset>
  );
}

/** The active choices, plus the line's own archived rate (it stays on the line that has it). */
function lineChoices(taxes: TaxOptions, current: string) {
  const own = current && taxes.book[current]?.archived ? taxes.book[current] : null;
  return [
    ...taxes.choices.map((c) => ({ value: c.id, label: c.label })),
    ...(own ? [{ value: own.id, label: `${own.name} (${own.percent}%, archived)` }] : []),
  ];
}

function SelectCell({
  row,
  name,
  label,
  meta,
  options,
}: {
  row: number;
  name: string;
  label: string;
  meta: Meta;
  options: Array<{ value: string; label: string }>;
}) {
  const id = row < 0 ? `field-${name}` : cellId(row, name);
  const errors = meta.errors;
  return (
    <>
      <label htmlFor={id} className={row < 0 ? undefined : "line-label"}>
        {label}
        {row < 0 ? null : <span className="visually-hidden">, line {row + 1}</span>}
      </label>
      <select
        id={id}
        name={meta.name}
        key={meta.key}
        defaultValue={str(meta.initialValue)}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error` : undefined}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldErrors id={`${id}-error`} errors={errors} />
    </>
  );
}

export function TotalsSummary({
  totals,
  currency,
  groups,
  anyOptional,
}: {
  totals: Summary | { subtotal: number; tax: number; total: number };
  currency: string;
  groups: string[];
  anyOptional: boolean;
}) {
  return (
    <div className="totals-summary" aria-live="polite">
      <SummaryList summary={totals} currency={currency} />
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

/** Subtotal, discount, tax per named rate (or the exemption), total: the rows every document shows. */
export function SummaryList({
  summary,
  currency,
}: {
  summary: Summary | { subtotal: number; tax: number; total: number };
  currency: string;
}) {
  const s: Summary =
    "taxes" in summary
      ? summary
      : {
          ...summary,
          discount: 0,
          discountLabel: "Discount",
          lineDiscounts: 0,
          documentDiscount: 0,
          taxes: [{ label: "Tax", cents: summary.tax }],
          exemptReason: null,
        };
  return (
    <dl className="price-summary">
      <dt>Subtotal</dt>
      <dd>{formatMoney(s.subtotal, currency)}</dd>
      {s.discount ? (
        <>
          <dt>{s.discountLabel}</dt>
          <dd>−{formatMoney(s.discount, currency)}</dd>
        </>
      ) : null}
      {s.exemptReason ? (
        <>
          <dt>Tax exempt: {s.exemptReason}</dt>
          <dd>{formatMoney(0, currency)}</dd>
        </>
      ) : s.taxes.length ? (
        s.taxes.map((t) => (
          <Fragment key={t.label}>
            <dt>{t.label}</dt>
            <dd>{formatMoney(t.cents, currency)}</dd>
          </Fragment>
        ))
      ) : (
        <>
          <dt>Tax</dt>
          <dd>{formatMoney(0, currency)}</dd>
        </>
      )}
      <dt className="total">Total</dt>
      <dd className="total">{formatMoney(s.total, currency)}</dd>
    </dl>
  );
}
