import type { Migration } from "../migrate";
import { APP_ROLE } from "./0009-row-level-security";

// Import from another product (docs/decisions/150-152):
// - customer_properties: a customer's service properties (label + address); a job may name one.
// - import_uploads: a file waiting at the mapping step (its headers and first rows apart, so
//   the step never reads the file itself).
// - import_mappings: the mapping a tenant chose, per type and header list, offered next time.
// - import_runs.mapping: which header went to which field, shown on the preview.
const CURRENT_TENANT = "NULLIF(current_setting('app.tenant_id', true), '')::uuid";
const TABLES = ["customer_properties", "import_uploads", "import_mappings"];

export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE customer_properties (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      customer_id uuid NOT NULL,
      position integer NOT NULL DEFAULT 1 CHECK (position >= 1),
      label text CHECK (label IS NULL OR length(label) <= 100),
      address_line1 text CHECK (address_line1 IS NULL OR length(address_line1) <= 200),
      address_line2 text CHECK (address_line2 IS NULL OR length(address_line2) <= 200),
      city text CHECK (city IS NULL OR length(city) <= 100),
      region text CHECK (region IS NULL OR length(region) <= 100),
      postal_code text CHECK (postal_code IS NULL OR length(postal_code) <= 20),
      country text CHECK (country IS NULL OR length(country) <= 100),
      import_run_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
    );
    CREATE INDEX customer_properties_customer ON customer_properties (tenant_id, customer_id, position);

    ALTER TABLE jobs ADD COLUMN property_id uuid;
    ALTER TABLE jobs ADD CONSTRAINT jobs_property_fkey FOREIGN KEY (tenant_id, property_id) REFERENCES customer_properties (tenant_id, id);
    CREATE INDEX jobs_property ON jobs (tenant_id, property_id) WHERE property_id IS NOT NULL;

    CREATE TABLE import_uploads (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      type text NOT NULL CHECK (type IN ('customers', 'jobs', 'quotes', 'invoices', 'team')),
      file_name text CHECK (file_name IS NULL OR length(file_name) <= 255),
      file_bytes bigint NOT NULL CHECK (file_bytes >= 0),
      headers jsonb NOT NULL,
      sample jsonb NOT NULL,
      data bytea NOT NULL,
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    ALTER TABLE import_uploads ALTER COLUMN data SET STORAGE EXTERNAL;

    CREATE TABLE import_mappings (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      type text NOT NULL CHECK (type IN ('customers', 'jobs', 'quotes', 'invoices', 'team')),
      header_key text NOT NULL,
      fields jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, type, header_key)
    );

    ALTER TABLE import_runs ADD COLUMN mapping jsonb;

    GRANT SELECT, INSERT, UPDATE, DELETE ON ${TABLES.join(", ")} TO ${APP_ROLE};
    ${TABLES.map(
      (t) => `ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${t} FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON ${t} USING (tenant_id = ${CURRENT_TENANT}) WITH CHECK (tenant_id = ${CURRENT_TENANT});`,
    ).join("\n    ")}
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE import_runs DROP COLUMN IF EXISTS mapping;
    DROP TABLE IF EXISTS import_mappings, import_uploads;
    ALTER TABLE jobs DROP COLUMN IF EXISTS property_id;
    DROP TABLE IF EXISTS customer_properties;
  `);
};
