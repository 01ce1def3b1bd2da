/**
 * How the schema spreads over a Citus cluster (docs/decisions/210-distribution.md,
 * docs/scale-out.md), and the rules that keep it distributable. One list, read by the
 * distributing migration (0081) and by the schema test, so a new table is classified once.
 *
 * - `tenants` is distributed by its `id`; every other table with a `tenant_id` is a tenant
 *   table, distributed by `tenant_id` and co-located with `tenants`.
 * - Reference tables are copied to every node: small, read across tenants, written rarely.
 * - Local tables stay on the coordinator, where the app connects: the app's own bookkeeping,
 *   never joined with a tenant table.
 */
import type pg from "pg";

export const DISTRIBUTION_ROOT = "tenants";

/** Copied to every node. login_emails: which businesses an e-mail signs in to (sign-in only). */
export const REFERENCE_TABLES: readonly string[] = ["login_emails"];

/**
 * On the coordinator only. billing_events: the providers' event log, stored by (provider,
 * event id) before the tenant is known. rate_limits: per-IP and per-account counters.
 * maintenance_runs: the cleanup's runs. schema_migrations: the migrator's own list.
 * schema_functions: which function files are applied (db/functions.ts).
 */
export const LOCAL_TABLES: readonly string[] = [
  "billing_events",
  "rate_limits",
  "maintenance_runs",
  "schema_migrations",
  "schema_functions",
];

/** Functions run on the worker that holds the tenant, by their tenant argument. */
export const DISTRIBUTED_FUNCTIONS: ReadonlyArray<{ signature: string; argument: string }> = [
  { signature: "field_push(uuid, uuid, uuid, boolean, jsonb, jsonb)", argument: "p_tenant" },
  {
    signature:
      "field_apply_mutation(uuid, uuid, uuid, bigint, text, uuid, boolean, text, text[], text, timestamptz, timestamptz, timestamptz, uuid)",
    argument: "p_tenant",
  },
  // Fair sharing's leases (migration 0013, docs/decisions/193): on the worker holding the tenant,
  // so the per-tenant advisory lock and the count are that worker's.
  { signature: "app_claim_work(uuid, uuid, text, integer, integer, integer)", argument: "p_tenant" },
  { signature: "app_release_work(uuid, uuid)", argument: "p_tenant" },
];

type Queryable = Pick<pg.Client, "query">;

/**
 * Every way the schema in `public` breaks the rules of a distributed schema; empty when it
 * keeps them. Works on plain PostgreSQL (no Citus needed):
 * 1. every table is the root, a tenant table (tenant_id NOT NULL), a reference or a local table;
 * 2. every tenant table has a primary key, and every primary key and unique index of a tenant
 *    table includes tenant_id;
 * 3. every foreign key between tenant tables includes tenant_id and neither sets NULL nor a
 *    default on delete or update (Citus refuses those actions on the distribution column's key);
 * 4. no reference or local table references a tenant table or the root;
 * 5. the app's own functions are PL/pgSQL (SQL functions with parameters are inlined and then
 *    cannot be planned as one tenant's query);
 * 6. every trigger function of a tenant table is shard-local (`shardLocalViolations`).
 */
export async function distributionViolations(client: Queryable): Promise<string[]> {
  const out: string[] = [];
  const special = new Set([DISTRIBUTION_ROOT, ...REFERENCE_TABLES, ...LOCAL_TABLES]);

  const { rows: tables } = await client.query<{ name: string; tenant_nullable: string | null }>(
    `SELECT c.relname AS name,
            (SELECT CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END FROM pg_attribute a
              WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped) AS tenant_nullable
       FROM pg_class c
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY 1`,
  );
  const tenantTables = new Set<string>();
  for (const t of tables) {
    if (special.has(t.name)) continue;
    if (t.tenant_nullable === null)
      out.push(`${t.name}: no tenant_id, and not listed as a reference or local table (db/distribution.ts)`);
    else if (t.tenant_nullable === "YES") out.push(`${t.name}: tenant_id may be NULL`);
    tenantTables.add(t.name);
  }
  for (const name of special) {
    if (!tables.some((t) => t.name === name)) out.push(`${name}: listed in db/distribution.ts but not in the schema`);
  }

  const { rows: keys } = await client.query<{ tbl: string; idx: string; has_tenant: boolean }>(
    `SELECT i.indrelid::regclass::text AS tbl, i.indexrelid::regclass::text AS idx,
            EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = i.indrelid AND a.attname = 'tenant_id'
                     AND a.attnum = ANY (i.indkey::int2[])) AS has_tenant
       FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
      WHERE c.relnamespace = 'public'::regnamespace AND (i.indisunique OR i.indisprimary)`,
  );
  for (const k of keys) {
    if (tenantTables.has(k.tbl) && !k.has_tenant) out.push(`${k.tbl}: unique key ${k.idx} does not include tenant_id`);
  }
  const { rows: keyed } = await client.query<{ tbl: string }>(
    `SELECT i.indrelid::regclass::text AS tbl FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
      WHERE c.relnamespace = 'public'::regnamespace AND i.indisprimary`,
  );
  for (const t of tenantTables) if (!keyed.some((k) => k.tbl === t)) out.push(`${t}: no primary key`);

  const { rows: fks } = await client.query<{
    tbl: string;
    target: string;
    name: string;
    cols: string[];
    del: string;
    upd: string;
  }>(
    `SELECT c.conrelid::regclass::text AS tbl, c.confrelid::regclass::text AS target, c.conname AS name,
            array(SELECT a.attname FROM pg_attribute a WHERE a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey))::text[] AS cols,
            c.confdeltype::text AS del, c.confupdtype::text AS upd
       FROM pg_constraint c
      WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace`,
  );
  const distributed = (t: string) => t === DISTRIBUTION_ROOT || tenantTables.has(t);
  for (const fk of fks) {
    if (!distributed(fk.tbl)) {
      if (distributed(fk.target))
        out.push(
          `${fk.tbl}.${fk.name}: a ${REFERENCE_TABLES.includes(fk.tbl) ? "reference" : "local"} table references ${fk.target}`,
        );
      continue;
    }
    if (!fk.cols.includes("tenant_id")) out.push(`${fk.tbl}.${fk.name}: the foreign key does not include tenant_id`);
    if (["n", "d"].includes(fk.del) || ["n", "d"].includes(fk.upd))
      out.push(`${fk.tbl}.${fk.name}: SET NULL or SET DEFAULT action`);
  }

  const { rows: functions } = await client.query<{ name: string; language: string }>(
    `SELECT p.oid::regprocedure::text AS name, l.lanname AS language
       FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
      WHERE p.pronamespace = 'public'::regnamespace
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')`,
  );
  for (const f of functions) {
    if (f.language !== "plpgsql") out.push(`${f.name}: written in ${f.language}, not PL/pgSQL`);
  }

  const { rows: triggers } = await client.query<{ name: string; source: string; transitions: string[] }>(
    `SELECT p.proname AS name, p.prosrc AS source,
            array_remove(array_agg(DISTINCT t.tgoldtable::text) || array_agg(DISTINCT t.tgnewtable::text), NULL) AS transitions
       FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid JOIN pg_class c ON c.oid = t.tgrelid
      WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace AND p.pronamespace = 'public'::regnamespace
      GROUP BY p.proname, p.prosrc ORDER BY 1`,
  );
  const onShards = new Set([DISTRIBUTION_ROOT, ...tenantTables]);
  for (const t of triggers) out.push(...shardLocalViolations(t.name, t.source, onShards, t.transitions));
  return out;
}

/** How a statement of a trigger function may name the row's one tenant. */
const TENANT_VALUE = String.raw`(?:v_tenant|p_tenant|OLD\.tenant_id|NEW\.tenant_id|NEW\.id|OLD\.id)\b`;
const NOT_AN_ALIAS = new Set(
  "where on set join left right inner full cross using values select group order limit returning as and or natural lateral".split(
    " ",
  ),
);

/**
 * On a Citus cluster a trigger fires on the shard of its row, on the node holding the row's
 * tenant, and may read and write only that node's co-located shards: a query that is not
 * provably one tenant's is refused there ("cannot execute a distributed query from a query on
 * a shard"; docs/decisions/496-summaries-on-a-citus-cluster.md). So, read from a trigger
 * function's source, each statement that names a distributed table must:
 * - not also name a transition table (`new_rows`, `old_rows`, ...): Citus cannot plan the two
 *   together; the changed rows are copied into arrays or variables first;
 * - filter each distributed table it reads, updates or deletes by one tenant value
 *   (`<alias>.tenant_id = v_tenant`, `tenants.id = NEW.tenant_id`, ...);
 * - insert rows whose tenant is that value (`VALUES (v_tenant, ...` or `SELECT v_tenant, ...`).
 * And no statement naming a distributed table calls now() inside coalesce (Citus refuses a
 * function that is not immutable inside a modification's CASE or COALESCE: read it into a
 * variable first); and the function may not read its table's name (on a shard it is
 * `<table>_<shard id>`): a function shared by several tables is told which by its trigger's
 * argument (`TG_ARGV`).
 */
export function shardLocalViolations(
  name: string,
  source: string,
  distributed: ReadonlySet<string>,
  transitions: readonly string[],
): string[] {
  const out: string[] = [];
  const code = source.replace(/--[^\n]*/g, "");
  // On a shard the trigger's table is named <table>_<shard id>.
  if (/\bTG_(TABLE_NAME|RELNAME)\b/i.test(code)) out.push(`${name}: reads its table's name (TG_TABLE_NAME)`);
  for (const raw of code.split(";")) {
    const statement = raw.replace(/\s+/g, " ");
    const refs = [
      ...statement.matchAll(
        /\b(FROM|JOIN|INTO|UPDATE|USING)\s+(?:ONLY\s+)?([a-z_][a-z0-9_]*)(?=(?:\s+(?:AS\s+)?([a-z_][a-z0-9_]*))?)/gi,
      ),
    ]
      .map((m) => ({ clause: m[1]!.toUpperCase(), table: m[2]!.toLowerCase(), alias: m[3]?.toLowerCase() }))
      .filter((r) => distributed.has(r.table));
    if (refs.length === 0) continue;
    const where = statement.trim().slice(0, 60);
    const transition = transitions.find((t) => new RegExp(String.raw`\b${t}\b`, "i").test(statement));
    if (transition)
      out.push(
        `${name}: names the transition table ${transition} and ${refs[0]!.table} in one statement ("${where}...")`,
      );
    if (/\b(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\b/i.test(statement) && /\bcoalesce\([^()]*\bnow\(\)/i.test(statement))
      out.push(`${name}: now() inside coalesce in a modification on ${refs[0]!.table} ("${where}...")`);
    for (const r of refs) {
      if (r.clause === "INTO") {
        // INSERT INTO <table>: SELECT ... INTO names variables, never a table
        if (!new RegExp(String.raw`\)\s*(?:VALUES\s*\(|SELECT\s+)${TENANT_VALUE}`, "i").test(statement))
          out.push(`${name}: inserts into ${r.table} rows not of one tenant value ("${where}...")`);
        continue;
      }
      const alias = r.alias && !NOT_AN_ALIAS.has(r.alias) ? r.alias : r.table;
      const column = r.table === DISTRIBUTION_ROOT ? "id" : "tenant_id";
      const filter = new RegExp(String.raw`(?:\b${alias}\.|[^.\w])${column}\s*=\s*${TENANT_VALUE}`, "i");
      if (!filter.test(statement))
        out.push(`${name}: reads ${r.table} without ${alias}.${column} = one tenant ("${where}...")`);
    }
  }
  return out;
}
