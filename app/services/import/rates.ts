// The tenant's named tax rates and groups as a file's `item_tax_rate_name` finds them: by name,
// case ignored, an active one before an archived one (docs/decisions/410-import-prices.md).
// Plain data, so it crosses into the CPU pool with the file. Pure.
import type { Rate } from "~/services/money/prices";
import type { RateBook } from "~/services/taxes/rate-book";

export type ImportRates = Record<string, { name: string; members: Rate[] }>;

/** The lower-case name a rate is found by. */
export const rateKey = (name: string) => name.toLowerCase();

export function importRatesOf(book: RateBook): ImportRates {
  const out: ImportRates = {};
  const all = Object.values(book).sort((a, b) => Number(a.archived) - Number(b.archived));
  for (const c of all) out[rateKey(c.name)] ??= { name: c.name, members: c.members };
  return out;
}
