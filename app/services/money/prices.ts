// Every figure of a quote or an invoice from its lines, in one pure function
// (docs/decisions/380-prices.md): integer cents throughout, BigInt where a product could pass
// 2^53, and one rounding rule: half up to the cent.
//
//   line amount      = quantity (thousandths) x unit price, rounded
//   line discount    = a percent (thousandths of a percent) of the amount, rounded, or an amount
//                      (never more than the line's amount)
//   document discount = a percent of the lines' amounts after their discounts, or an amount (never
//                      more than that sum), spread over the lines in proportion, each share
//                      rounded, the last line taking the remainder cent
//   tax              = per line and per rate, on the line's net amount, rounded, summed per rate
//   total            = subtotal - discount + tax

/** A discount as typed: a percent in thousandths of a percent (10% = 10000), or cents. */
export type Discount = { type: "percent"; milliPercent: number } | { type: "amount"; cents: number };

/** One named rate (or a percent typed on a line without a name: `name` null). ppm: 6.25% = 62500. */
export type Rate = { key: string; name: string | null; ppm: number };

export type PriceLine = {
  quantityMilli: number;
  unitPriceCents: number;
  discount?: Discount | null;
  /** The line's rates: none, one, or a group's members (each taxed on its own). */
  rates: readonly Rate[];
};

export type LineFigures = {
  amount: number;
  lineDiscount: number;
  documentShare: number;
  /** amount - lineDiscount - documentShare */
  net: number;
  taxes: Array<{ key: string; cents: number }>;
  tax: number;
};

export type RateTotal = { key: string; name: string | null; ppm: number; cents: number };

export type DocumentFigures = {
  lines: LineFigures[];
  /** Sum of the lines' amounts, before any discount. */
  subtotal: number;
  lineDiscounts: number;
  documentDiscount: number;
  /** lineDiscounts + documentDiscount */
  discount: number;
  /** subtotal - discount */
  net: number;
  /** Per rate, in the order the rates first appear on the lines; rates with no tax are kept. */
  taxes: RateTotal[];
  tax: number;
  total: number;
};

const halfUp = (n: bigint, d: bigint): bigint => (n >= 0n ? (2n * n + d) / (2n * d) : -((2n * -n + d) / (2n * d)));
const big = (n: number) => BigInt(Math.trunc(n));

/** quantity (thousandths) x unit price, rounded half up to the cent. */
export const lineAmount = (quantityMilli: number, unitPriceCents: number) =>
  Number(halfUp(big(quantityMilli) * big(unitPriceCents), 1000n));

/** A line's own discount in cents, never more than its amount. */
export function discountOf(amount: number, d: Discount | null | undefined): number {
  if (!d || amount <= 0) return 0;
  const cents = d.type === "percent" ? Number(halfUp(big(amount) * big(d.milliPercent), 100_000n)) : d.cents;
  return Math.min(Math.max(cents, 0), amount);
}

/** Tax at `ppm` on `net` cents, rounded half up. */
export const taxOn = (net: number, ppm: number) => Number(halfUp(big(net) * big(ppm), 1_000_000n));

/**
 * Spreads `total` cents over `weights` in proportion, each share rounded half up and the last
 * positive weight taking the remainder. When that remainder would fall outside 0..its weight
 * (many tiny lines each rounded up), the shares are taken from the running sum instead, which
 * keeps every share between 0 and its weight and the sum exact.
 */
export function spread(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map(() => 0);
  if (total <= 0 || sum <= 0) return shares;
  const last = weights.reduce((at, w, i) => (w > 0 ? i : at), -1);
  let given = 0;
  for (let i = 0; i < last; i++) {
    shares[i] = Number(halfUp(big(total) * big(weights[i]!), big(sum)));
    given += shares[i]!;
  }
  shares[last] = total - given;
  if (shares[last]! >= 0 && shares[last]! <= weights[last]!) return shares;
  let before = 0n;
  let cumulative = 0n;
  return weights.map((w) => {
    cumulative += big(w);
    const upTo = halfUp(big(total) * cumulative, big(sum));
    const share = Number(upTo - before);
    before = upTo;
    return share;
  });
}

/**
 * Every figure of a document from its counted lines. `exempt`: the customer pays no tax (the
 * rates stay on the lines, their tax is 0).
 */
export function priceDocument(input: {
  lines: readonly PriceLine[];
  discount?: Discount | null;
  exempt?: boolean;
}): DocumentFigures {
  const amounts = input.lines.map((l) => lineAmount(l.quantityMilli, l.unitPriceCents));
  const lineDiscounts = input.lines.map((l, i) => discountOf(amounts[i]!, l.discount));
  const afterLine = amounts.map((a, i) => a - lineDiscounts[i]!);
  const base = afterLine.reduce((a, b) => a + b, 0);
  const documentDiscount = discountOf(base, input.discount);
  const shares = spread(documentDiscount, afterLine);
  const taxes = new Map<string, RateTotal>();
  const lines = input.lines.map((l, i): LineFigures => {
    const net = afterLine[i]! - shares[i]!;
    const lineTaxes = l.rates.map((r) => {
      const cents = input.exempt ? 0 : taxOn(net, r.ppm);
      const t = taxes.get(r.key) ?? { key: r.key, name: r.name, ppm: r.ppm, cents: 0 };
      t.cents += cents;
      taxes.set(r.key, t);
      return { key: r.key, cents };
    });
    return {
      amount: amounts[i]!,
      lineDiscount: lineDiscounts[i]!,
      documentShare: shares[i]!,
      net,
      taxes: lineTaxes,
      tax: lineTaxes.reduce((a, t) => a + t.cents, 0),
    };
  });
  const subtotal = amounts.reduce((a, b) => a + b, 0);
  const lineDiscountSum = lineDiscounts.reduce((a, b) => a + b, 0);
  const discount = lineDiscountSum + documentDiscount;
  const tax = lines.reduce((a, l) => a + l.tax, 0);
  return {
    lines,
    subtotal,
    lineDiscounts: lineDiscountSum,
    documentDiscount,
    discount,
    net: subtotal - discount,
    taxes: [...taxes.values()],
    tax,
    total: subtotal - discount + tax,
  };
}

// --- Percents as exact text ------------------------------------------------------------------

/** "6.25" -> 62500 ppm, "10" -> 100000; null when it is not a percent of up to 3 decimals in 0..100. */
export function percentTextToPpm(s: string): number | null {
  const m = /^\s*(\d{1,3})(?:\.(\d{0,3}))?\s*%?\s*$/.exec(s);
  if (!m) return null;
  const ppm = Number(m[1]) * 10_000 + Number((m[2] ?? "").padEnd(3, "0")) * 10;
  return ppm <= 1_000_000 ? ppm : null;
}

/** 62500 -> "6.25", 100000 -> "10", 62510 -> "6.251". */
export function ppmToPercentText(ppm: number): string {
  const milli = Math.round(ppm / 10);
  const int = Math.trunc(milli / 1000);
  const frac = String(milli % 1000)
    .padStart(3, "0")
    .replace(/0+$/, "");
  return frac ? `${int}.${frac}` : String(int);
}

/** A rate as documents name it: "State 6.25%", or "Tax 8.25%" for a percent typed without a name. */
export const rateLabel = (r: { name: string | null; ppm: number }) => `${r.name ?? "Tax"} ${ppmToPercentText(r.ppm)}%`;

/** A discount as documents describe it: "10%" or null for an amount. */
export const discountLabel = (d: Discount | null | undefined) =>
  d?.type === "percent" ? `${ppmToPercentText(d.milliPercent * 10)}%` : null;
