/**
 * A year of files for the accountant (docs/decisions/365): "a year of accountant files <= 5 s".
 *
 * A tenant with three years of invoices (12,000 a year, three lines each, two of them taxed) and
 * a payment on most of them; the bench downloads each of the three files for the last 365 days
 * (GET /settings/accounting/files, through the production server, as the owner) and times each
 * from request to last byte. The goal is each file within 5 s; the three together are shown too.
 * `BENCH_ONLY=ACCT npm run bench` runs this figure alone (writes bench/results/acct.json).
 */
import pg from "pg";
import { closeDb, configureDb } from "../db/index";
import { createTenantWithUsers } from "../scripts/seeds/factories";
import { clientFor } from "../tests/helpers/client";
import { figure, round, type Figure } from "./lib";

const PER_YEAR = Number(process.env.BENCH_ACCT_INVOICES ?? 12_000);
const YEARS = 3;
const CUSTOMERS = 3_000;
const RUNS = 3;

/** The tenant: three years of invoices, their lines and payments (set-based, seconds). */
export async function seedAccountantYears(databaseUrl: string) {
  process.env.DATABASE_URL = databaseUrl;
  configureDb({ url: databaseUrl });
  const t = await createTenantWithUsers("Bench Accountant Files");
  const client = new pg.Client({ connectionString: databaseUrl, statement_timeout: 0, application_name: "bench:acct" });
  await client.connect();
  let range: { from: string; to: string };
  try {
    const q = (sql: string, bind: unknown[] = []) => client.query(sql, bind);
    const tid = t.id;
    await q(`UPDATE tenants SET time_zone = 'America/Chicago' WHERE id = $1`, [tid]);
    await q(
      `INSERT INTO customers (tenant_id, name, email, address_line1, city, region, postal_code, country)
       SELECT $1, 'Customer ' || lpad(g::text, 5, '0'), 'c' || g || '@acct.bench', g || ' Main St', 'Austin', 'TX', '78701', 'US'
         FROM generate_series(1, ${CUSTOMERS}) g`,
      [tid],
    );
    const total = PER_YEAR * YEARS;
    // Invoice g: issued (today - 1 - g % (365 * YEARS)) days ago; 1 in 25 draft, 1 in 50 void.
    await q(
      `WITH c AS (SELECT id, row_number() OVER (ORDER BY name) AS k FROM customers WHERE tenant_id = $1)
       INSERT INTO invoices (tenant_id, customer_id, number, status, issue_date, due_date, currency, subtotal_cents, tax_cents, total_cents, sent_at)
       SELECT $1, c.id, 'INV-' || lpad(g::text, 6, '0'),
              CASE WHEN g % 25 = 0 THEN 'draft' WHEN g % 50 = 1 THEN 'void' WHEN g % 3 = 0 THEN 'sent' ELSE 'paid' END,
              (now() AT TIME ZONE 'America/Chicago')::date - 1 - (g * 7919) % (365 * ${YEARS}),
              (now() AT TIME ZONE 'America/Chicago')::date + 29 - (g * 7919) % (365 * ${YEARS}),
              'USD', 0, 0, 0, now()
         FROM generate_series(1, ${total}) g JOIN c ON c.k = 1 + g % ${CUSTOMERS}`,
      [tid],
    );
    await q(
      `INSERT INTO invoice_items (tenant_id, invoice_id, position, description, quantity, unit_price_cents, tax_rate, line_total_cents, tax_cents)
       SELECT i.tenant_id, i.id, k, (ARRAY['Service call', 'Parts: fittings and valves', 'Labour (hours)'])[k],
              CASE k WHEN 3 THEN 1.5 ELSE k END, 4_000 + k * 1_250 + n % 97,
              CASE k WHEN 3 THEN 0 ELSE 8.25 END,
              round((CASE k WHEN 3 THEN 1.5 ELSE k END) * (4_000 + k * 1_250 + n % 97)),
              CASE k WHEN 3 THEN 0 ELSE round(round(k * (4_000 + k * 1_250 + n % 97)) * 0.0825) END
         FROM invoices i, LATERAL (SELECT substr(i.number, 5)::int AS n) x, generate_series(1, 3) k
        WHERE i.tenant_id = $1`,
      [tid],
    );
    await q(
      `UPDATE invoices i SET subtotal_cents = s.sub, tax_cents = s.tax, total_cents = s.sub + s.tax,
                             amount_paid_cents = CASE WHEN i.status = 'paid' THEN s.sub + s.tax ELSE 0 END
         FROM (SELECT invoice_id, sum(line_total_cents) AS sub, sum(tax_cents) AS tax FROM invoice_items WHERE tenant_id = $1 GROUP BY 1) s
        WHERE i.tenant_id = $1 AND i.id = s.invoice_id`,
      [tid],
    );
    await q(
      `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference, recorded_at, received_on)
       SELECT tenant_id, id, total_cents, currency, 'check', 'CHK-' || substr(number, 5), issue_date + time '15:00', issue_date + 5
         FROM invoices WHERE tenant_id = $1 AND status = 'paid'`,
      [tid],
    );
    await q(`ANALYZE invoices, invoice_items, payments, customers`);
    const r = await q(
      `SELECT ((now() AT TIME ZONE 'America/Chicago')::date - 365)::text AS "from", ((now() AT TIME ZONE 'America/Chicago')::date - 1)::text AS "to"`,
    );
    range = r.rows[0];
  } finally {
    await client.end();
  }
  return { tenant: t, range };
}

export async function benchAccountantFiles(baseUrl: string, databaseUrl: string): Promise<Figure[]> {
  const { tenant, range } = await seedAccountantYears(databaseUrl);
  const owner = await clientFor(tenant.users.owner, baseUrl, { production: true });
  await closeDb();
  const figures: Figure[] = [];
  let sum = 0;
  for (const format of ["qbo", "xero", "iif"] as const) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = await owner.get(`/settings/accounting/files?format=${format}&from=${range.from}&to=${range.to}`);
      const body = await res.arrayBuffer();
      times.push(performance.now() - t0);
      if (res.status !== 200)
        throw new Error(`${format}: ${res.status} ${new TextDecoder().decode(body).slice(0, 300)}`);
      bytes = body.byteLength;
    }
    const median = times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
    sum += median;
    const seconds = median / 1000;
    figures.push(
      figure(
        `accountant file, a year (${PER_YEAR} invoices): ${format} (${round(bytes / 1e6, 1)} MB), median of ${RUNS}`,
        seconds,
        "s",
        "<= 5 s",
        seconds <= 5,
      ),
    );
  }
  figures.push(
    figure("accountant files, a year: the three files one after another", sum / 1000, "s", "measured", null),
  );
  return figures;
}
