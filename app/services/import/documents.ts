// Quote and invoice documents: rows sharing a `number` form one document, which must agree on
// its document-level columns; its figures from the one pricing function (line discounts, the
// document's discount spread over the lines that count, tax per line and per named rate; a
// quote counts its chosen lines, else its always-included lines and its first option's), the
// line's named rate found by name or made at the commit (docs/decisions/410-import-prices.md)
// and, for invoices, the amount paid against the status. Pure.
import { QUOTE_FIELDS } from "~/services/quotes/fields";
import { INVOICE_FIELDS } from "~/services/invoices/fields";
import { countedLines, milliToDecimal } from "~/services/documents/line-items";
import { ppmToPercentText, priceDocument, type Discount, type Rate } from "~/services/money/prices";
import { SPACE_RUNS } from "./cells";
import { documentFieldsOf, type FieldList } from "./field-list";
import type { RowError } from "./parse.server";
import { keyValue, reject, type AnyRow } from "./keys";
import { rateKey, type ImportRates } from "./rates";
import type {
  DiscountType,
  InvoiceDocument,
  InvoiceLineRow,
  LineFields,
  LineItem,
  QuoteDocument,
  QuoteLineRow,
} from "./row-types";

// Document grouping: rows whose `number` is equal (exactly, after trimming) form one document.
// They must agree on these columns, compared after normalisation and defaults ("usd" = "USD",
// empty status = "draft"), but empty and a value differ (amount_paid "" vs "0" too: repeat
// the value on every row). Line columns (item_*, tax_rate) may differ.
const agreeing = (fields: FieldList) =>
  documentFieldsOf(fields)
    .filter((f) => f.key !== "number")
    .map((f) => [f.csv, f.key] as const);
const DOC_COLUMNS = { quotes: agreeing(QUOTE_FIELDS), invoices: agreeing(INVOICE_FIELDS) };
/** The document-level fields a document takes from its first row (the rest are computed). */
const DOC_FIELDS = {
  quotes: documentFieldsOf(QUOTE_FIELDS).map((f) => f.key),
  invoices: documentFieldsOf(INVOICE_FIELDS).map((f) => f.key),
};

export function formatCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

function show(field: string, v: unknown): string {
  if (v === null || v === undefined) return "empty";
  if (field === "amountPaidCents") return formatCents(v as number);
  if (field === "discountValue") return JSON.stringify(milliToDecimal(v as number).replace(/\.?0+$/, ""));
  const s = String(v).replace(SPACE_RUNS, " ");
  return JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);
}

/** A discount as the row gives it: type and thousandths (of a percent, or of a cent unit). */
function discountOf(type: DiscountType | null, value: number | null): Discount | null {
  if (!type || !value) return null;
  return type === "percent" ? { type, milliPercent: value } : { type, cents: value / 10 };
}

/** A discount's stored columns: its type, its percent text ("10.000") or its cents. */
function storedDiscount(d: Discount | null) {
  return {
    discountType: d?.type ?? null,
    discountPercent: d?.type === "percent" ? milliToDecimal(d.milliPercent) : null,
    discountAmountCents: d?.type === "amount" ? d.cents : null,
  };
}

const percentText = (ppm: number) => `${ppmToPercentText(ppm)}%`;

/** A rate the file names that the business does not have: made at the commit, with this percent. */
export type NewRate = { name: string; ppm: number; rowNumber: number };

/**
 * The line's rates: its named rate's or group's members (the percent is theirs: a tax_rate that
 * differs is the row's error), a rate the file creates, or the percent as typed. null: an error.
 */
function ratesOfLine(
  row: AnyRow,
  v: LineFields,
  rates: ImportRates,
  created: Map<string, NewRate>,
  errors: RowError[],
): { rates: Rate[]; ppm: number } | null {
  const name = v.itemTaxRateName;
  const ppm = v.taxRatePpm;
  if (!name) return { rates: ppm > 0 ? [{ key: `pct:${ppm}`, name: null, ppm }] : [], ppm };
  const given = ppm !== 0 || (row.raw.tax_rate ?? "").trim() !== "";
  const key = rateKey(name);
  const known = rates[key];
  if (known) {
    const total = known.members.reduce((a, m) => a + m.ppm, 0);
    if (given && ppm !== total) {
      reject(
        row,
        errors,
        "tax_rate",
        `The tax rate ${show("name", known.name)} is ${percentText(total)}: give ${ppmToPercentText(total)} or leave tax_rate empty`,
      );
      return null;
    }
    return { rates: known.members, ppm: total };
  }
  const first = created.get(key);
  if (!first) {
    if (!given) {
      reject(
        row,
        errors,
        "item_tax_rate_name",
        `No tax rate is named ${show("name", name)}: give its percent in tax_rate to create it`,
      );
      return null;
    }
    created.set(key, { name, ppm, rowNumber: row.rowNumber });
    return { rates: [{ key: `new:${key}`, name, ppm }], ppm };
  }
  if (given && ppm !== first.ppm) {
    reject(
      row,
      errors,
      "tax_rate",
      `Row ${first.rowNumber} creates the tax rate ${show("name", first.name)} at ${percentText(first.ppm)}`,
    );
    return null;
  }
  return { rates: [{ key: `new:${key}`, name: first.name, ppm: first.ppm }], ppm: first.ppm };
}

/**
 * Groups the rows into documents and prices each with the one function every document's figures
 * come from (app/services/money/prices.ts): line discounts, then the document's discount spread
 * over the counted lines, then tax per line and per rate. `rates`: the tenant's named rates; a
 * name it lacks is created at the commit (listed in `newRates`).
 */
export function buildDocuments(
  type: "quotes" | "invoices",
  rows: AnyRow[],
  errors: RowError[],
  rates: ImportRates = {},
  newRates: Map<string, NewRate> = new Map(),
): (QuoteDocument | InvoiceDocument)[] {
  const label = type === "quotes" ? "quote" : "invoice";
  const groups = new Map<string, { rowNumbers: number[]; ok: boolean; lines: AnyRow[] }>();
  for (const row of rows) {
    const number = keyValue(type, row, "number", "number");
    if (number === null) continue;
    let g = groups.get(number);
    if (!g) groups.set(number, (g = { rowNumbers: [], ok: true, lines: [] }));
    g.rowNumbers.push(row.rowNumber);
    if (!row.ok || !row.values) {
      g.ok = false;
      continue;
    }
    const ref = g.lines[0];
    if (ref?.values) {
      // The first good row of a number defines the document; later rows must agree.
      let agrees = true;
      for (const [column, field] of DOC_COLUMNS[type]) {
        if (row.values[field] !== ref.values[field]) {
          reject(
            row,
            errors,
            column,
            `Differs from row ${ref.rowNumber} of ${label} ${number}, which has ${show(field, ref.values[field])}`,
          );
          agrees = false;
        }
      }
      if (!agrees) {
        g.ok = false;
        continue;
      }
    }
    g.lines.push(row);
  }

  const documents: (QuoteDocument | InvoiceDocument)[] = [];
  for (const [number, g] of groups) {
    const ref = g.lines[0];
    if (!ref?.values) continue;
    let ok = g.ok;
    const lines = g.lines.map((row) => {
      const v = row.values as unknown as LineFields & Partial<QuoteLineRow>;
      const tax = ratesOfLine(row, v, rates, newRates, errors);
      if (!tax) ok = false;
      return { row, v, tax: tax ?? { rates: [], ppm: v.taxRatePpm } };
    });
    const items: LineItem[] = lines.map(({ row, v, tax }, i) => ({
      rowNumber: row.rowNumber,
      position: i + 1,
      description: v.itemDescription,
      quantityMilli: v.itemQuantityMilli,
      unitPriceCents: v.itemUnitPriceCents,
      taxRatePpm: tax.ppm,
      taxRateName: v.itemTaxRateName,
      ...storedDiscount(discountOf(v.itemDiscountType, v.itemDiscountValue)),
      lineSubtotalCents: 0,
      lineDiscountCents: 0,
      lineTaxCents: 0,
      lineTotalCents: 0,
      ...(type === "quotes"
        ? { option: v.itemOption ?? null, optional: !!v.itemOptional, selected: v.itemChosen ?? null }
        : {}),
    }));
    if (type === "quotes") {
      // The customer's choice is recorded on every line or on none; the chosen option is one of the quote's.
      const unanswered = items.find((l) => l.selected === null);
      if (unanswered && items.some((l) => l.selected !== null)) {
        const row = g.lines[items.indexOf(unanswered)];
        reject(
          row,
          errors,
          "item_chosen",
          `Give yes or no: other lines of quote ${number} record the customer's choice`,
        );
        ok = false;
      }
      const chosen = ref.values.chosenOption as string | null;
      if (chosen !== null && !items.some((l) => l.option === chosen)) {
        reject(
          ref,
          errors,
          "chosen_option",
          `No line of quote ${number} has the option ${show("chosenOption", chosen)}`,
        );
        ok = false;
      }
    }
    // A quote counts its chosen lines, else its always-included lines and its first option's;
    // they take the document's discount. Its other lines are priced each on its own.
    const counted = new Set(type === "quotes" ? countedLines(items as Required<LineItem>[]) : items);
    const priceLine = (i: number) => ({
      quantityMilli: items[i]!.quantityMilli,
      unitPriceCents: items[i]!.unitPriceCents,
      discount: discountOf(lines[i]!.v.itemDiscountType, lines[i]!.v.itemDiscountValue),
      rates: lines[i]!.tax.rates,
    });
    const countedAt = items.flatMap((l, i) => (counted.has(l) ? [i] : []));
    const discount = discountOf(
      ref.values.discountType as DiscountType | null,
      ref.values.discountValue as number | null,
    );
    const figures = priceDocument({ lines: countedAt.map(priceLine), discount });
    const byLine = new Map(countedAt.map((at, k) => [at, figures.lines[k]!]));
    items.forEach((item, i) => {
      const f = byLine.get(i) ?? priceDocument({ lines: [priceLine(i)] }).lines[0]!;
      item.lineSubtotalCents = f.amount;
      item.lineDiscountCents = f.lineDiscount;
      item.lineTaxCents = f.tax;
      item.lineTotalCents = f.net + f.tax;
      const own = priceLine(i).discount;
      if (own?.type === "amount" && own.cents > f.amount) {
        reject(
          lines[i]!.row,
          errors,
          "item_discount_value",
          `Is more than the line's amount (${formatCents(f.amount)})`,
        );
        ok = false;
      }
    });
    if (discount?.type === "amount" && discount.cents > figures.subtotal - figures.lineDiscounts) {
      reject(
        ref,
        errors,
        "discount_value",
        `Is more than the ${label}'s lines after their discounts (${formatCents(figures.subtotal - figures.lineDiscounts)})`,
      );
      ok = false;
    }
    if (figures.subtotal + figures.tax > Number.MAX_SAFE_INTEGER) {
      reject(ref, errors, "item_unit_price", `The total of ${label} ${number} is too large`);
      ok = false;
    }
    const totalCents = figures.total;
    const fields: Record<string, unknown> = {};
    for (const key of DOC_FIELDS[type]) fields[key] = ref.values[key];
    const base = {
      ...fields,
      number,
      rowNumbers: g.rowNumbers,
      ok,
      customerEmail: ref.values.customerEmail as string | null,
      customerExternalId: ref.values.customerExternalId as string | null,
      currency: ref.values.currency as string,
      issueDate: ref.values.issueDate as string | null,
      items,
      subtotalCents: figures.subtotal,
      ...storedDiscount(discount),
      discountCents: figures.discount,
      taxCents: figures.tax,
      totalCents,
    };
    if (type === "quotes") {
      const q = ref.values as unknown as QuoteLineRow;
      documents.push({
        ...base,
        title: q.title,
        status: q.status,
        validUntil: q.validUntil,
        notes: q.notes,
        chosenOption: q.chosenOption,
      });
      continue;
    }
    const inv = ref.values as unknown as InvoiceLineRow;
    const total = formatCents(totalCents);
    let paid = inv.amountPaidCents ?? (inv.status === "paid" ? totalCents : 0);
    let problem: string | null = null;
    if (paid > totalCents) problem = `Cannot be more than the invoice total (${total})`;
    else if (inv.status === "paid" && paid !== totalCents)
      problem = `Must equal the invoice total (${total}) when status is paid`;
    else if (inv.status === "partial" && paid >= totalCents)
      problem = `Must be below the invoice total (${total}) when status is partial`;
    if (problem) {
      reject(ref, errors, "amount_paid", problem);
      base.ok = false;
      paid = Math.min(paid, totalCents);
    }
    documents.push({
      ...base,
      status: inv.status,
      dueDate: inv.dueDate,
      amountPaidCents: paid,
      balanceCents: totalCents - paid,
    });
  }
  return documents;
}
