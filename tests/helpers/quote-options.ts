// A quote with options ("Good", "Better", "Best") and optional items, as the quote builder
// stores them (migration 0021), for the tests of issue 20.
import { one, rows } from "../../db/index";
import { createQuote } from "./fixtures";

export const OPTION_LINES = [
  { key: "call", description: "Service call", unitPriceCents: 8_900, option: null, optional: false },
  { key: "good", description: "Repair the burner assembly", unitPriceCents: 20_000, option: "Good", optional: false },
  {
    key: "better",
    description: "New 50 gal standard water heater",
    unitPriceCents: 120_000,
    taxRate: "8.25",
    option: "Better",
    optional: false,
  },
  { key: "best", description: "Tankless water heater", unitPriceCents: 240_000, option: "Best", optional: false },
  { key: "warranty", description: "Extended 5-year warranty", unitPriceCents: 15_000, option: null, optional: true },
  { key: "haul", description: "Haul away the old unit", unitPriceCents: 6_000, option: null, optional: true },
  { key: "descale", description: "Tankless descaling kit", unitPriceCents: 8_000, option: "Best", optional: true },
] as const;
export type LineKey = (typeof OPTION_LINES)[number]["key"];

/**
 * A sent quote with the lines above; its stored total is the default choice ("Good", nothing
 * optional: $289.00). "Better" with the warranty: $89 + $1,200 + $99 tax + $150 = $1,538.00.
 */
export async function quoteWithOptions(
  tenantId: string,
  customerId: string,
  o: { depositPercent?: string; depositCents?: number; number?: string } = {},
) {
  const q = await createQuote(tenantId, {
    customerId,
    number: o.number,
    items: OPTION_LINES.map((l) => ({
      description: l.description,
      unitPriceCents: l.unitPriceCents,
      taxRate: "taxRate" in l ? l.taxRate : "0",
    })),
  });
  for (const [i, l] of OPTION_LINES.entries()) {
    await rows(
      `UPDATE quote_items SET option_name = $4, optional = $5 WHERE tenant_id = $1 AND quote_id = $2 AND position = $3`,
      [tenantId, q.id, i + 1, l.option, l.optional],
    );
  }
  await rows(
    `UPDATE quotes SET subtotal_cents = 28900, tax_cents = 0, total_cents = 28900, deposit_percent = $3, deposit_cents = $4 WHERE tenant_id = $1 AND id = $2`,
    [tenantId, q.id, o.depositPercent ?? null, o.depositCents ?? null],
  );
  const items = await rows<{ id: string; position: number }>(
    `SELECT id, position FROM quote_items WHERE tenant_id = $1 AND quote_id = $2 ORDER BY position`,
    [tenantId, q.id],
  );
  const ids = Object.fromEntries(OPTION_LINES.map((l, i) => [l.key, items[i].id])) as Record<LineKey, string>;
  return { id: q.id, number: q.number, ids };
}

/** The quote's recorded choice: the option, totals, and each line's `selected` by key. */
export async function recordedChoice(tenantId: string, quoteId: string) {
  const quote = await one<{
    status: string;
    chosen_option: string | null;
    subtotal_cents: string;
    tax_cents: string;
    total_cents: string;
    approved_name: string | null;
    approved_ip: string | null;
    approved_user_agent: string | null;
    approved_at: Date | null;
  }>(
    `SELECT status, chosen_option, subtotal_cents, tax_cents, total_cents, approved_name, approved_ip, approved_user_agent, approved_at FROM quotes WHERE tenant_id = $1 AND id = $2`,
    [tenantId, quoteId],
  );
  const items = await rows<{ selected: boolean | null }>(
    `SELECT selected FROM quote_items WHERE tenant_id = $1 AND quote_id = $2 ORDER BY position`,
    [tenantId, quoteId],
  );
  const selected = Object.fromEntries(OPTION_LINES.map((l, i) => [l.key, items[i]?.selected ?? null])) as Record<
    LineKey,
    boolean | null
  >;
  return {
    ...quote!,
    total_cents: Number(quote!.total_cents),
    subtotal_cents: Number(quote!.subtotal_cents),
    tax_cents: Number(quote!.tax_cents),
    selected,
  };
}

/** `selected` for "Better" with the warranty. */
export const BETTER_WITH_WARRANTY: Record<LineKey, boolean> = {
  call: true,
  good: false,
  better: true,
  best: false,
  warranty: true,
  haul: false,
  descale: false,
};
