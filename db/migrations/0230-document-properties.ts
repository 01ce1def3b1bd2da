import type { Migration } from "../migrate";

/**
 * A quote, an invoice and a booking request may name one of the customer's service properties,
 * as a job does (docs/decisions/391): carried from the request or the quote to the job, and from
 * the job to its invoice. The foreign key holds the tenant; that the property is the document's
 * own customer's is checked by the command that writes it.
 */
const TABLES = ["quotes", "invoices", "booking_requests"] as const;

export const up: Migration = async ({ context: sql }) => {
  for (const table of TABLES)
    await sql.query(`
      ALTER TABLE ${table} ADD COLUMN property_id uuid;
      ALTER TABLE ${table} ADD CONSTRAINT ${table}_property_fkey
        FOREIGN KEY (tenant_id, property_id) REFERENCES customer_properties (tenant_id, id);
      CREATE INDEX ${table}_property ON ${table} (tenant_id, property_id) WHERE property_id IS NOT NULL;
    `);
};

export const down: Migration = async ({ context: sql }) => {
  for (const table of TABLES) await sql.query(`ALTER TABLE ${table} DROP COLUMN IF EXISTS property_id;`);
};
