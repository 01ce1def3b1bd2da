/** B4: 2,000 Stripe-signed events at 20 connections, one in ten repeated; one row per event id. */
import pg from "pg";
import { stripeSignatureHeader } from "../app/services/billing/signatures.server";
import { figure, type Figure } from "./lib";
import { pool } from "./session";

export const BENCH_STRIPE = { secret: "whsec_bench_0123456789abcdef", pricePlans: "price_bench_pro:pro" };

export async function benchBilling(baseUrl: string, databaseUrl: string, tenantId: string): Promise<Figure[]> {
  const total = 2000;
  const events = Array.from({ length: total }, (_, i) => {
    // Every tenth delivery repeats the one before it (a provider's retry).
    const n = i % 10 === 9 ? i - 1 : i;
    return JSON.stringify({
      id: `evt_bench_${n}`,
      type: "customer.subscription.updated",
      created: 1_700_000_000 + n,
      data: {
        object: {
          id: "sub_bench",
          status: "active",
          metadata: { tenant_id: tenantId },
          current_period_end: 1_900_000_000,
          items: { data: [{ price: { id: "price_bench_pro" } }] },
        },
      },
    });
  });
  const unique = new Set(events.map((e) => JSON.parse(e).id)).size;
  const started = performance.now();
  const statuses = await pool(total, 20, async (i) => {
    const body = events[i];
    const res = await fetch(`${baseUrl}/api/billing/stripe/webhook`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": stripeSignatureHeader(body, BENCH_STRIPE.secret, Math.floor(Date.now() / 1000)),
      },
      body,
    });
    await res.arrayBuffer();
    return res.status;
  });
  const seconds = (performance.now() - started) / 1000;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query(
    `SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS d FROM billing_events WHERE provider = 'stripe' AND event_id LIKE 'evt_bench_%'`,
  );
  await client.end();
  const ok = statuses.filter((s) => s === 200).length;
  return [
    figure(
      "B4 webhook events per second (20 connections)",
      total / seconds,
      "events/s",
      ">= 500",
      total / seconds >= 500 && ok === total,
    ),
    figure(
      "B4 stored rows per event id (unique ids sent)",
      rows[0].n / unique,
      "rows/id",
      "= 1",
      rows[0].n === unique && rows[0].d === unique,
    ),
  ];
}
