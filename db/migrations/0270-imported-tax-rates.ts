import type { Migration } from "../migrate";

/**
 * A tax rate a quotes or invoices import created (a rate named in `item_tax_rate_name` that the
 * business did not have) keeps the import's run, so undoing the import removes it again while
 * nothing else has come to use it (docs/decisions/410-import-prices.md).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE tax_rates ADD COLUMN import_run_id uuid;
    CREATE INDEX tax_rates_import_run ON tax_rates (tenant_id, import_run_id) WHERE import_run_id IS NOT NULL;
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`ALTER TABLE tax_rates DROP COLUMN import_run_id;`);
};
