// The customer's choice on a quote with options and optional items (// docs/decisions/155-156): which lines a choice buys, what it totals, and the deposit it asks.
// Plain functions, no server imports: the portal card computes the live total with them in the
// browser, renders the no-JavaScript "Update total" page with them on the server, and the
// approval checks and records the same choice with them.

import type { Discount } from "~/services/money/prices";
import { priceLines, summaryOf, type PricedInput, type RateBook, type Summary } from "~/services/taxes/rate-book";

export type ChoiceLine = {
  id: string;
  option: string | null;
  optional: boolean;
  lineTotalCents: number;
  taxCents: number;
  /** What prices the line (quantity, price, discount, rate): the choice's figures come from it. */
  priced?: PricedInput;
};

/** The document's own discount and exemption, and the rates its lines name. */
export type ChoicePricing = { book: RateBook; discount: Discount | null; exemptReason: string | null };

/** Every figure of the lines a choice buys: the same function as every other document. */
export function choiceSummary(lines: readonly ChoiceLine[], choice: QuoteChoice, pricing: ChoicePricing): Summary {
  const chosen = lines.filter((l) => isChosen(l, choice) && l.priced).map((l) => l.priced!);
  const figures = priceLines(chosen, pricing.book, { discount: pricing.discount, exempt: !!pricing.exemptReason });
  return summaryOf(figures, { discount: pricing.discount, exemptReason: pricing.exemptReason });
}

export type QuoteChoice = { option: string | null; optionalItems: string[] };

/** The option groups of a quote, in the order their first line appears. */
export const choiceGroups = (lines: ReadonlyArray<{ option: string | null }>) => [
  ...new Set(lines.map((l) => l.option).filter((o): o is string => !!o)),
];

/** Optional lines the customer may tick with this option: the ones outside any group, and the option's own. */
export const tickable = (l: ChoiceLine, option: string | null) => l.optional && (!l.option || l.option === option);

/** Whether a line is bought by the choice: always-included lines, the chosen option's lines, the ticked optional ones. */
export function isChosen(l: ChoiceLine, choice: QuoteChoice): boolean {
  if (l.option && l.option !== choice.option) return false;
  return l.optional ? choice.optionalItems.includes(l.id) : true;
}

/** The choice's subtotal, discount, tax and total in cents (with `pricing`: priced again, discounts spread over the chosen lines). */
export function choiceTotals(
  lines: readonly ChoiceLine[],
  choice: QuoteChoice,
  pricing?: ChoicePricing,
): { subtotal: number; discount: number; tax: number; total: number; summary?: Summary } {
  if (pricing && lines.every((l) => l.priced)) {
    const summary = choiceSummary(lines, choice, pricing);
    return { subtotal: summary.subtotal, discount: summary.discount, tax: summary.tax, total: summary.total, summary };
  }
  let subtotal = 0;
  let tax = 0;
  for (const l of lines) {
    if (!isChosen(l, choice)) continue;
    subtotal += Number(l.lineTotalCents);
    tax += Number(l.taxCents);
  }
  return { subtotal, discount: 0, tax, total: subtotal + tax };
}

/** The totals rows of a document: subtotal, discount, tax per named rate (or the exemption). */
export function summaryRows(s: Summary): Array<[string, number]> {
  return [
    ["Subtotal", s.subtotal],
    ...(s.discount ? ([[s.discountLabel, -s.discount]] as Array<[string, number]>) : []),
    ...(s.exemptReason
      ? ([[`Tax exempt: ${s.exemptReason}`, 0]] as Array<[string, number]>)
      : s.taxes.length
        ? s.taxes.map((t): [string, number] => [t.label, t.cents])
        : ([["Tax", 0]] as Array<[string, number]>)),
  ];
}

/**
 * The choice a page starts from: the one the query or a refused form carries (kept when it is
 * valid), else the first option and no optional item (the quote's stored total).
 */
export function initialChoice(
  lines: readonly ChoiceLine[],
  wanted?: { option?: string | null; optionalItems?: readonly string[] },
): QuoteChoice {
  const groups = choiceGroups(lines);
  const option = wanted?.option && groups.includes(wanted.option) ? wanted.option : (groups[0] ?? null);
  const ids = new Set(wanted?.optionalItems ?? []);
  return { option, optionalItems: lines.filter((l) => tickable(l, option) && ids.has(l.id)).map((l) => l.id) };
}

/** The deposit asked on approval of a choice totalling `totalCents`: a percent (rounded half up) or an amount, at most the total. */
export function depositDue(deposit: { percent: string | null; cents: number | null }, totalCents: number): number {
  if (totalCents <= 0) return 0;
  if (deposit.percent !== null && deposit.percent !== undefined) {
    const hundredths = Math.round(Number(deposit.percent) * 100);
    return Math.min(totalCents, Math.floor((totalCents * hundredths + 5000) / 10000));
  }
  if (deposit.cents) return Math.min(totalCents, Number(deposit.cents));
  return 0;
}

/** "25%" or "$100.00" as the builder's field shows a stored deposit. */
export const depositLabel = (percent: string | null, cents: number | null, money: (c: number) => string) =>
  percent !== null ? `${Number(percent)}%` : cents ? money(Number(cents)) : null;
