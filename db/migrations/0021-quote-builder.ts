import type { Migration } from "../migrate";
import { tenantTableSecurity } from "./0020-history-and-numbering";

// The quote builder's data model (docs/decisions/122): options
// ("Good", "Better", "Best") and optional items on quote lines, the links quote <-> job and
// quote <- booking request, the company's settings and the price book.
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    -- A line belongs to an option group (empty = always included) and may be optional.
    -- selected: what the customer chose on approval (NULL until a choice is recorded).
    ALTER TABLE quote_items
      ADD COLUMN option_name text CHECK (option_name IS NULL OR length(option_name) BETWEEN 1 AND 100),
      ADD COLUMN optional boolean NOT NULL DEFAULT false,
      ADD COLUMN selected boolean;

    ALTER TABLE quotes
      ADD COLUMN job_id uuid,
      ADD COLUMN converted_at timestamptz,
      ADD COLUMN booking_request_id uuid,
      ADD FOREIGN KEY (tenant_id, booking_request_id) REFERENCES booking_requests (tenant_id, id);
    ALTER TABLE jobs ADD COLUMN quote_id uuid, ADD FOREIGN KEY (tenant_id, quote_id) REFERENCES quotes (tenant_id, id);
    ALTER TABLE quotes ADD FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id);
    -- One job per quote: a second convert, even at the same instant, finds the first one's job.
    CREATE UNIQUE INDEX jobs_quote_key ON jobs (tenant_id, quote_id) WHERE quote_id IS NOT NULL;
    CREATE INDEX quotes_booking_request ON quotes (tenant_id, booking_request_id) WHERE booking_request_id IS NOT NULL;
    -- Lists newest first by the document's date, then number.
    CREATE INDEX quotes_issue_order ON quotes (tenant_id, issue_date, number, id);
    CREATE INDEX invoices_issue_order ON invoices (tenant_id, issue_date, number, id);

    -- Company settings (/settings/company): the business's contact details and defaults.
    ALTER TABLE tenants
      ADD COLUMN phone text CHECK (phone IS NULL OR length(phone) <= 50),
      ADD COLUMN email text CHECK (email IS NULL OR length(email) <= 254),
      ADD COLUMN address text CHECK (address IS NULL OR length(address) <= 500),
      ADD COLUMN currency char(3) NOT NULL DEFAULT 'USD',
      ADD COLUMN default_tax_rate numeric(6, 3) NOT NULL DEFAULT 0 CHECK (default_tax_rate BETWEEN 0 AND 100),
      ADD COLUMN payment_terms_days integer NOT NULL DEFAULT 14 CHECK (payment_terms_days BETWEEN 0 AND 365),
      ADD COLUMN quote_validity_days integer NOT NULL DEFAULT 30 CHECK (quote_validity_days BETWEEN 1 AND 365);

    -- The price book: services and products a line item can be picked from.
    CREATE TABLE price_book_items (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      kind text NOT NULL DEFAULT 'service' CHECK (kind IN ('service', 'product')),
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
      description text CHECK (description IS NULL OR length(description) <= 1000),
      unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
      tax_rate numeric(6, 3) NOT NULL DEFAULT 0 CHECK (tax_rate BETWEEN 0 AND 100),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX price_book_items_name_key ON price_book_items (tenant_id, lower(name));
    ${tenantTableSecurity("price_book_items")}
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP TABLE price_book_items;
    ALTER TABLE tenants DROP COLUMN phone, DROP COLUMN email, DROP COLUMN address, DROP COLUMN currency,
      DROP COLUMN default_tax_rate, DROP COLUMN payment_terms_days, DROP COLUMN quote_validity_days;
    DROP INDEX invoices_issue_order, quotes_issue_order, quotes_booking_request;
    ALTER TABLE quotes DROP COLUMN job_id, DROP COLUMN converted_at, DROP COLUMN booking_request_id;
    ALTER TABLE jobs DROP COLUMN quote_id;
    ALTER TABLE quote_items DROP COLUMN option_name, DROP COLUMN optional, DROP COLUMN selected;
  `);
};
