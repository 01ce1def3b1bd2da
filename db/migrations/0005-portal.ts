import type { Migration } from "../migrate";

// The portal's booking form carries a key made when the page renders, like the payment form:
// a double click or a resubmitted page records one booking request (docs/decisions/021).
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE booking_requests ADD COLUMN idempotency_key text;
    CREATE UNIQUE INDEX booking_requests_idempotency_key ON booking_requests (tenant_id, idempotency_key)
      WHERE idempotency_key IS NOT NULL;
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`ALTER TABLE booking_requests DROP COLUMN idempotency_key;`);
};
