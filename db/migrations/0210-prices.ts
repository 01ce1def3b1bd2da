import type { Migration } from "../migrate";
import { tenantTableSecurity } from "./0020-history-and-numbering";

/**
 * Prices as businesses charge them (docs/decisions/380-prices.md, 381-tax-rates.md):
 *
 * - `tax_rates`: named rates (a percent with 3 decimals) and tax groups (`is_group`, their
 *   member rates in `tax_group_rates`) in one id space, so a line names either with one column.
 *   One default per tenant; archived ones stay for the documents that carry them. The foreign
 *   keys from the lines and from the groups make a rate in use impossible to delete.
 * - Line items (quote, invoice, job) and price book items: `tax_rate_id`; the lines also take a
 *   discount (percent or amount) and keep the discount it came to in cents.
 * - Quotes and invoices: a document discount (percent or amount, and its cents) and the reason
 *   a document carries no tax (its customer was tax exempt when it was made).
 * - Customers: `tax_exempt` and its reason.
 */
const lineTables = ["quote_items", "invoice_items", "job_items"];
// Each column's check is named as PostgreSQL would name it: Citus refuses an unnamed constraint
// in ADD COLUMN on a distributed table.
const discountColumns = (table: string, prefix = "") => `
  ADD COLUMN ${prefix}discount_type text CONSTRAINT ${table}_${prefix}discount_type_check CHECK (${prefix}discount_type IN ('percent', 'amount')),
  ADD COLUMN ${prefix}discount_percent numeric(6, 3) CONSTRAINT ${table}_${prefix}discount_percent_check CHECK (${prefix}discount_percent BETWEEN 0 AND 100),
  ADD COLUMN ${prefix}discount_amount_cents bigint CONSTRAINT ${table}_${prefix}discount_amount_cents_check CHECK (${prefix}discount_amount_cents >= 0),
  ADD COLUMN ${prefix}discount_cents bigint NOT NULL DEFAULT 0 CONSTRAINT ${table}_${prefix}discount_cents_check CHECK (${prefix}discount_cents >= 0)`;

export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE tax_rates (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      is_group boolean NOT NULL DEFAULT false,
      -- A rate's percent; a group's is the sum of its members'.
      rate numeric(6, 3) CHECK (rate BETWEEN 0 AND 100),
      is_default boolean NOT NULL DEFAULT false,
      archived_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      CHECK (is_group OR rate IS NOT NULL),
      CHECK (NOT (is_default AND archived_at IS NOT NULL))
    );
    CREATE UNIQUE INDEX tax_rates_name ON tax_rates (tenant_id, lower(name)) WHERE archived_at IS NULL;
    CREATE UNIQUE INDEX tax_rates_one_default ON tax_rates (tenant_id) WHERE is_default;
    CREATE TABLE tax_group_rates (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      group_id uuid NOT NULL,
      rate_id uuid NOT NULL,
      position integer NOT NULL,
      PRIMARY KEY (tenant_id, group_id, rate_id),
      FOREIGN KEY (tenant_id, group_id) REFERENCES tax_rates (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, rate_id) REFERENCES tax_rates (tenant_id, id)
    );
    ${tenantTableSecurity("tax_rates")}
    ${tenantTableSecurity("tax_group_rates")}
    DO $do$ BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        PERFORM create_distributed_table('tax_rates', 'tenant_id', colocate_with => 'tenants');
        PERFORM create_distributed_table('tax_group_rates', 'tenant_id', colocate_with => 'tenants');
      END IF;
    END $do$;

    ${lineTables.map((t) => `ALTER TABLE ${t} ADD COLUMN tax_rate_id uuid, ${discountColumns(t)};`).join("\n")}
    ALTER TABLE price_book_items ADD COLUMN tax_rate_id uuid;
    ALTER TABLE quotes ${discountColumns("quotes")}, ADD COLUMN tax_exempt_reason text;
    ALTER TABLE invoices ${discountColumns("invoices")}, ADD COLUMN tax_exempt_reason text;
    ALTER TABLE customers ADD COLUMN tax_exempt boolean NOT NULL DEFAULT false,
      ADD COLUMN tax_exempt_reason text CONSTRAINT customers_tax_exempt_reason_check CHECK (length(tax_exempt_reason) <= 200);
  `);
  // Foreign keys from tables distributed before this migration come in their own query (db/migrate.ts).
  for (const t of [...lineTables, "price_book_items"]) {
    await sql.query(`
      ALTER TABLE ${t} ADD CONSTRAINT ${t}_tax_rate_fkey
        FOREIGN KEY (tenant_id, tax_rate_id) REFERENCES tax_rates (tenant_id, id);
      CREATE INDEX ${t}_tax_rate ON ${t} (tenant_id, tax_rate_id) WHERE tax_rate_id IS NOT NULL;
    `);
  }
};

export const down: Migration = async ({ context: sql }) => {
  const drop = (prefix = "") =>
    ["discount_type", "discount_percent", "discount_amount_cents", "discount_cents"]
      .map((c) => `DROP COLUMN ${prefix}${c}`)
      .join(", ");
  await sql.query(`
    ${lineTables.map((t) => `ALTER TABLE ${t} DROP COLUMN tax_rate_id, ${drop()};`).join("\n")}
    ALTER TABLE price_book_items DROP COLUMN tax_rate_id;
    ALTER TABLE quotes ${drop()}, DROP COLUMN tax_exempt_reason;
    ALTER TABLE invoices ${drop()}, DROP COLUMN tax_exempt_reason;
    ALTER TABLE customers DROP COLUMN tax_exempt, DROP COLUMN tax_exempt_reason;
    DROP TABLE tax_group_rates, tax_rates;
  `);
};
