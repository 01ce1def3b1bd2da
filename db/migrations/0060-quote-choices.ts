import type { Migration } from "../migrate";
import { tenantTableSecurity } from "./0020-history-and-numbering";

// Quote choices (docs/decisions/155-157): what the customer chose (the option
// group), the deposit a quote asks for on approval and the deposit paid, and the customer's
// requests for changes to a sent quote.
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE quotes
      ADD COLUMN chosen_option text CHECK (chosen_option IS NULL OR length(chosen_option) BETWEEN 1 AND 100),
      -- A deposit on approval: a percent of the chosen total, or a fixed amount (never both).
      ADD COLUMN deposit_percent numeric(5, 2) CHECK (deposit_percent IS NULL OR (deposit_percent > 0 AND deposit_percent <= 100)),
      ADD COLUMN deposit_cents bigint CHECK (deposit_cents IS NULL OR deposit_cents > 0),
      ADD CONSTRAINT quotes_one_deposit_kind CHECK (deposit_percent IS NULL OR deposit_cents IS NULL);

    -- The deposit paid with the approval (sandbox: no money moves). It waits here until the
    -- job's invoice exists, which then receives it as a payment (payment_id, invoice_id).
    CREATE TABLE quote_deposits (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      quote_id uuid NOT NULL,
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      currency char(3) NOT NULL,
      method text NOT NULL DEFAULT 'sandbox' CHECK (method IN ('sandbox')),
      reference text NOT NULL,
      payer_ip text,
      paid_at timestamptz NOT NULL DEFAULT now(),
      invoice_id uuid,
      payment_id uuid,
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, quote_id) REFERENCES quotes (tenant_id, id),
      FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id),
      FOREIGN KEY (tenant_id, payment_id) REFERENCES payments (tenant_id, id)
    );
    -- One deposit per quote: a second approval cannot pay twice.
    CREATE UNIQUE INDEX quote_deposits_quote_key ON quote_deposits (tenant_id, quote_id);
    ${tenantTableSecurity("quote_deposits")}

    CREATE TABLE quote_change_requests (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      quote_id uuid NOT NULL,
      customer_id uuid NOT NULL,
      message text NOT NULL CHECK (length(message) BETWEEN 1 AND 2000),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, quote_id) REFERENCES quotes (tenant_id, id),
      FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id)
    );
    CREATE INDEX quote_change_requests_recent ON quote_change_requests (tenant_id, created_at DESC);
    CREATE INDEX quote_change_requests_quote ON quote_change_requests (tenant_id, quote_id, created_at);
    ${tenantTableSecurity("quote_change_requests")}
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP TABLE quote_change_requests;
    DROP TABLE quote_deposits;
    ALTER TABLE quotes DROP CONSTRAINT quotes_one_deposit_kind, DROP COLUMN chosen_option, DROP COLUMN deposit_percent, DROP COLUMN deposit_cents;
  `);
};
