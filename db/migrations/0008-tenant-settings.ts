import type { Migration } from "../migrate";

// A tenant's non-secret preferences, one JSON object per settings area (accounting, calendar,
// llm). Secrets never live here: docs/decisions/060-tenant-settings.md.
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE tenant_settings (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      key text NOT NULL CHECK (key ~ '^[a-z][a-z0-9_]{0,62}$'),
      value jsonb NOT NULL CHECK (jsonb_typeof(value) = 'object'),
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by uuid,
      PRIMARY KEY (tenant_id, key),
      FOREIGN KEY (tenant_id, updated_by) REFERENCES users (tenant_id, id) ON DELETE SET NULL (updated_by)
    );
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`DROP TABLE tenant_settings;`);
};
