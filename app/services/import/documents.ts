// Quote and invoice documents: rows sharing a `number` form one document,
// which must agree on its document-level columns; its line and document totals (rounded half
// up per line, totals are sums of the lines that count: a quote's chosen lines, else its
// always-included lines and its first option's) and, for invoices, the amount paid against the
// status. Pure.
import { QUOTE_FIELDS } from "~/services/quotes/fields";
import { INVOICE_FIELDS } from "~/services/invoices/fields";
import { countedLines } from "~/services/documents/line-items";
import { SPACE_RUNS } from "./cells";
import { documentFieldsOf, type FieldList } from "./field-list";
import type { RowError } from "./parse.server";
import { keyValue, reject, type AnyRow } from "./keys";
import type { InvoiceDocument, InvoiceLineRow, LineFields, LineItem, QuoteDocument, QuoteLineRow } from "./row-types";

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
  const s = String(v).replace(SPACE_RUNS, " ");
  return JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);
}

/** Round half up for non-negative n: floor(n / d + 1/2). */
const roundHalfUp = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);

export function buildDocuments(
  type: "quotes" | "invoices",
  rows: AnyRow[],
  errors: RowError[],
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
    let subtotal = 0n;
    let tax = 0n;
    const items: LineItem[] = g.lines.map((row, i) => {
      const v = row.values as unknown as LineFields & Partial<QuoteLineRow>;
      const lineSubtotal = roundHalfUp(BigInt(v.itemQuantityMilli) * BigInt(v.itemUnitPriceCents), 1000n);
      const lineTax = roundHalfUp(lineSubtotal * BigInt(v.taxRatePpm), 1_000_000n);
      return {
        rowNumber: row.rowNumber,
        position: i + 1,
        description: v.itemDescription,
        quantityMilli: v.itemQuantityMilli,
        unitPriceCents: v.itemUnitPriceCents,
        taxRatePpm: v.taxRatePpm,
        lineSubtotalCents: Number(lineSubtotal),
        lineTaxCents: Number(lineTax),
        lineTotalCents: Number(lineSubtotal + lineTax),
        ...(type === "quotes"
          ? { option: v.itemOption ?? null, optional: !!v.itemOptional, selected: v.itemChosen ?? null }
          : {}),
      };
    });
    let ok = g.ok;
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
    // A quote counts its chosen lines, else its always-included lines and its first option's.
    for (const l of type === "quotes" ? countedLines(items as Required<LineItem>[]) : items) {
      subtotal += BigInt(l.lineSubtotalCents);
      tax += BigInt(l.lineTaxCents);
    }
    if (subtotal + tax > BigInt(Number.MAX_SAFE_INTEGER)) {
      reject(ref, errors, "item_unit_price", `The total of ${label} ${number} is too large`);
      ok = false;
    }
    const totalCents = Number(subtotal + tax);
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
      subtotalCents: Number(subtotal),
      taxCents: Number(tax),
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
