import assert from "node:assert/strict";
import { test } from "node:test";
import { rows } from "../../db/index";

// Tables that belong to no tenant. billing_events is the providers' event log: an event is
// stored once by (provider, event id) before we know whether it names one of our tenants,
// so its tenant_id is NULL for unknown tenants (docs/decisions/040-billing-intake.md).
// maintenance_runs: the cleanup's runs across all servers (docs/decisions/102).
const GLOBAL = new Set(["tenants", "schema_migrations", "rate_limits", "billing_events", "maintenance_runs"]);

test("every tenant-owned table has tenant_id NOT NULL in its primary key", async () => {
  const tables = await rows<{ table_name: string }>(
    `SELECT t.table_name FROM information_schema.tables t WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  assert.ok(tables.length > 5, `only ${JSON.stringify(tables)} in ${process.env.DATABASE_URL}`);
  for (const { table_name } of tables) {
    if (GLOBAL.has(table_name)) continue;
    const col = await rows<{ is_nullable: string }>(
      `SELECT is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND column_name = 'tenant_id'`,
      [table_name],
    );
    assert.equal(col[0]?.is_nullable, "NO", `${table_name}.tenant_id NOT NULL`);
    const pk = await rows<{ column_name: string }>(
      `SELECT a.attname AS column_name FROM pg_index i
         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
        WHERE i.indrelid = $1::regclass AND i.indisprimary`,
      [`public.${table_name}`],
    );
    assert.ok(pk.some((c) => c.column_name === "tenant_id"), `${table_name}: tenant_id is in the primary key`);
  }
});

test("every foreign key between tenant-owned tables includes tenant_id", async () => {
  const fks = await rows<{ table: string; name: string; cols: string[] }>(
    `SELECT c.conrelid::regclass::text AS table, c.conname AS name,
            array(SELECT attname FROM pg_attribute WHERE attrelid = c.conrelid AND attnum = ANY(c.conkey))::text[] AS cols
       FROM pg_constraint c WHERE c.contype = 'f' AND c.confrelid <> 'tenants'::regclass`,
  );
  for (const fk of fks) assert.ok(fk.cols.includes("tenant_id"), `${fk.table}.${fk.name} includes tenant_id`);
});
