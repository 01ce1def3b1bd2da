// The customer's choice on a quote with options and optional items (// docs/decisions/155-156): which lines a choice buys, what it totals, and the deposit it asks.
// Plain functions, no server imports: the portal card computes the live total with them in the
// browser, renders the no-JavaScript "Update total" page with them on the server, and the
// approval checks and records the same choice with them.

export type ChoiceLine = {
  id: string;
  option: string | null;
  optional: boolean;
  lineTotalCents: number;
  taxCents: number;
};

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

/** The choice's subtotal, tax and total in cents (each line's stored amount and tax, summed). */
export function choiceTotals(lines: readonly ChoiceLine[], choice: QuoteChoice) {
  let subtotal = 0;
  let tax = 0;
  for (const l of lines) {
    if (!isChosen(l, choice)) continue;
    subtotal += Number(l.lineTotalCents);
    tax += Number(l.taxCents);
  }
  return { subtotal, tax, total: subtotal + tax };
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
