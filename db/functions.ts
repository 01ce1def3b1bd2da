import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Sequelize, Transaction } from "sequelize";
import { DISTRIBUTED_FUNCTIONS, DISTRIBUTION_ROOT } from "./distribution";
import { sqlStatements } from "./sql-statements";
import { APP_ROLE } from "./migrations/0009-row-level-security";

/**
 * The database's functions and procedures as files (docs/decisions/275-sql-functions-as-files.md):
 * `db/functions/<name>.sql` holds the one current definition of `<name>` (CREATE OR REPLACE
 * FUNCTION or PROCEDURE). Migrations change tables; after them, `applyFunctions` creates each
 * function whose file changed, or whose definition in the database no longer is the one the
 * file made (a rollback put an older one back), and records both hashes in `schema_functions`.
 */
export const FUNCTIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "functions");

export type FunctionFile = { name: string; sql: string; hash: string };

export function functionFiles(dir = FUNCTIONS_DIR): FunctionFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((f) => {
      const sql = fs.readFileSync(path.join(dir, f), "utf8");
      return { name: f.slice(0, -4), sql, hash: createHash("sha256").update(sql).digest("hex") };
    });
}

/** One function file's text, for a migration that must create a trigger on it before the files are applied. */
export function functionSql(name: string, dir = FUNCTIONS_DIR): string {
  return fs.readFileSync(path.join(dir, `${name}.sql`), "utf8");
}

type Query = (sql: string, bind?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** The hash of what the database holds under a name: every overload's full definition. */
async function definitionHash(query: Query, name: string): Promise<string> {
  const found = await query(
    `SELECT coalesce(string_agg(pg_get_functiondef(p.oid), E'\\n' ORDER BY p.oid::regprocedure::text), '') AS def
       FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace AND p.proname = $1`,
    [name],
  );
  return createHash("sha256")
    .update(String(found[0]?.def ?? ""))
    .digest("hex");
}

async function overloads(query: Query, name: string): Promise<Array<{ oid: string; signature: string; kind: string }>> {
  return (await query(
    `SELECT p.oid::text AS oid, p.oid::regprocedure::text AS signature, p.prokind AS kind
       FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace AND p.proname = $1`,
    [name],
  )) as Array<{ oid: string; signature: string; kind: string }>;
}

/**
 * Creates every function whose file or live definition changed, each in its own transaction
 * (the caller holds the migrator's advisory lock). A file that changes a function's arguments
 * creates a new overload: the old ones of that name are dropped in the same transaction, so
 * each name has one definition. Returns the names applied.
 */
export async function applyFunctions(sequelize: Sequelize, files = functionFiles()): Promise<string[]> {
  await sequelize.query(`CREATE TABLE IF NOT EXISTS schema_functions (
    name text PRIMARY KEY, file_hash text NOT NULL, definition_hash text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  // The migrator's own bookkeeping, like schema_migrations: nothing the app role reads.
  await sequelize.query(`DO $do$ BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN REVOKE ALL ON schema_functions FROM ${APP_ROLE}; END IF;
  END $do$`);
  const [citusRows] = await sequelize.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
  const citus = (citusRows as unknown[]).length > 0;
  const [storedRows] = await sequelize.query(`SELECT name, file_hash, definition_hash FROM schema_functions`);
  const stored = new Map(
    (storedRows as Array<{ name: string; file_hash: string; definition_hash: string }>).map((r) => [r.name, r]),
  );
  const applied: string[] = [];
  for (const file of files) {
    const before = stored.get(file.name);
    const plain: Query = async (sql, bind) =>
      (await sequelize.query(sql, { bind }))[0] as Array<Record<string, unknown>>;
    if (before?.file_hash === file.hash && before.definition_hash === (await definitionHash(plain, file.name)))
      continue;
    await sequelize.transaction(async (transaction: Transaction) => {
      const query: Query = async (sql, bind) =>
        (await sequelize.query(sql, { bind, transaction }))[0] as Array<Record<string, unknown>>;
      if (citus) {
        // As the migrations run on Citus (db/migrate.ts): one connection per worker, triggers allowed.
        await query(`SET LOCAL citus.multi_shard_modify_mode = 'sequential'`);
        await query(`SET LOCAL citus.enable_unsafe_triggers = on`);
      }
      const old = await overloads(query, file.name);
      for (const statement of sqlStatements(file.sql)) await query(statement);
      const now = await overloads(query, file.name);
      const oldOids = new Set(old.map((o) => o.oid));
      if (now.some((o) => !oldOids.has(o.oid))) {
        // New arguments: the file's definition is the new overload; the old ones go. (A file
        // that drops and recreates its function under the same arguments, to change its result
        // columns, left no old one to drop.)
        const kept = new Set(now.filter((o) => !oldOids.has(o.oid)).map((o) => o.signature));
        for (const o of old.filter((x) => !kept.has(x.signature)))
          await query(`DROP ${o.kind === "p" ? "PROCEDURE" : "FUNCTION"} ${o.signature}`);
      }
      if (citus) {
        for (const d of DISTRIBUTED_FUNCTIONS.filter((f) => f.signature.startsWith(`${file.name}(`)))
          await query(
            // Citus records every new function in pg_dist_object (to create it on the workers):
            // only one with a distribution argument is already delegated to its tenant's worker.
            `SELECT create_distributed_function($1::regprocedure, $2, colocate_with => $3)
              WHERE NOT EXISTS (SELECT 1 FROM pg_dist_object WHERE objid = $1::regprocedure
                                   AND distribution_argument_index IS NOT NULL)`,
            [d.signature, d.argument, DISTRIBUTION_ROOT],
          );
      }
      await query(
        `INSERT INTO schema_functions (name, file_hash, definition_hash) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET file_hash = EXCLUDED.file_hash, definition_hash = EXCLUDED.definition_hash, applied_at = now()`,
        [file.name, file.hash, await definitionHash(query, file.name)],
      );
    });
    applied.push(file.name);
  }
  return applied;
}
