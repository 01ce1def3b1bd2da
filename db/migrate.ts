import { Umzug } from "umzug";
import type { Sequelize } from "sequelize";
import { DISTRIBUTION_ROOT, LOCAL_TABLES, REFERENCE_TABLES } from "./distribution";
import { MIGRATIONS } from "./migrations";
import { applyFunctions } from "./functions";
import { sqlStatements } from "./sql-statements";

export { sqlStatements };

export type Migration = (params: { context: Sequelize; name: string }) => Promise<void>;
export type MigrationModule = { up: Migration; down: Migration };

const LOCK_KEY = 7_316_204; // pg_advisory_lock key: one migrator at a time across servers

/**
 * On a Citus coordinator, the migrations' `sql.query(text)` runs each statement of the text as
 * its own query, all in one transaction (docs/decisions/228-citus-run.md), because:
 * - Citus refuses a query string of several statements that changes a distributed table;
 * - `citus.multi_shard_modify_mode = 'sequential'`: one connection per worker, since Citus
 *   refuses to create a function after a parallel DDL in the same transaction;
 * - `citus.enable_unsafe_triggers = on`: Citus refuses any trigger DDL on a distributed table
 *   without it (the tables' triggers touch only their own tenant's co-located rows).
 * On plain PostgreSQL the text goes as written.
 */
async function migrationContext(sequelize: Sequelize): Promise<Sequelize> {
  const [found] = await sequelize.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
  if (!(found as unknown[]).length) return sequelize;
  const query = sequelize.query.bind(sequelize) as (sql: string, options?: object) => Promise<unknown>;
  const split = async (sql: unknown, options?: object) => {
    if (typeof sql !== "string" || options || /\bCONCURRENTLY\b/i.test(sql)) return query(sql as string, options);
    // One transaction, as PostgreSQL runs a query string of several statements.
    return sequelize.transaction(async (transaction) => {
      await query(`SET LOCAL citus.multi_shard_modify_mode = 'sequential'`, { transaction });
      await query(`SET LOCAL citus.enable_unsafe_triggers = on`, { transaction });
      let last: unknown;
      const created: string[] = [];
      for (const statement of sqlStatements(sql)) {
        last = await query(statement, { transaction });
        const table = /^CREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:public\.)?"?(\w+)"?\s*\(/i.exec(
          statement.replace(/^(\s*--[^\n]*\n)*\s*/, ""),
        );
        if (table) created.push(table[1]!);
      }
      for (const name of created) await distributeNewTable(name, (text, bind) => query(text, { transaction, bind }));
      return last;
    });
  };
  return new Proxy(sequelize, {
    get: (target, key, receiver) => (key === "query" ? split : Reflect.get(target, key, receiver)),
  });
}

/**
 * A table created by a migration's query after the schema was distributed (0081), and not
 * distributed by the query itself, is distributed at the end of that query, as
 * db/distribution.ts classifies it: a tenant table by tenant_id co-located with the root, a
 * reference table copied to every node, a local table left on the coordinator. (A foreign key
 * from an existing distributed table to the new one must come in a later query.)
 */
async function distributeNewTable(name: string, query: (sql: string, bind?: unknown[]) => Promise<unknown>) {
  if (name === DISTRIBUTION_ROOT || LOCAL_TABLES.includes(name)) return;
  const [found] = (await query(
    `SELECT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass($1)) AS root,
            EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass($2)) AS done,
            EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($2) AND attname = 'tenant_id' AND NOT attisdropped) AS tenant`,
    [DISTRIBUTION_ROOT, name],
  )) as [Array<{ root: boolean; done: boolean; tenant: boolean }>];
  const { root, done, tenant } = found[0]!;
  if (!root || done) return; // before 0081 (it distributes every table), or distributed by the migration
  if (REFERENCE_TABLES.includes(name)) await query(`SELECT create_reference_table($1)`, [name]);
  else if (tenant)
    await query(`SELECT create_distributed_table($1, 'tenant_id', colocate_with => $2)`, [name, DISTRIBUTION_ROOT]);
}

/** The umzug instance: migrations recorded in `schema_migrations`, each applied in its own transaction. */
export function migrator(sequelize: Sequelize, logger: Console | undefined = undefined) {
  let context: Promise<Sequelize> | undefined;
  const forMigrations = () => (context ??= migrationContext(sequelize));
  return new Umzug<Sequelize>({
    migrations: MIGRATIONS.map(([name, mod]) => ({
      name,
      up: async ({ context }) => {
        const sql = await forMigrations();
        return context.transaction(() => mod.up({ context: sql, name }));
      },
      down: async ({ context }) => {
        const sql = await forMigrations();
        return context.transaction(() => mod.down({ context: sql, name }));
      },
    })),
    context: sequelize,
    storage: {
      async executed({ context }) {
        await context.query(
          `CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
        );
        const [result] = await context.query(`SELECT name FROM schema_migrations ORDER BY name`);
        return (result as Array<{ name: string }>).map((r) => r.name);
      },
      async logMigration({ name, context }) {
        await context.query(`INSERT INTO schema_migrations (name) VALUES ($1)`, { bind: [name] });
      },
      async unlogMigration({ name, context }) {
        await context.query(`DELETE FROM schema_migrations WHERE name = $1`, { bind: [name] });
      },
    },
    logger,
  });
}

/**
 * Applies every pending migration, then every function file that changed (db/functions.ts),
 * holding an advisory lock so concurrent starts do not race.
 */
export async function migrateUp(sequelize: Sequelize) {
  const q = sequelize.getQueryInterface().sequelize;
  // A session-level lock needs one connection for the whole run: take it on a dedicated transaction.
  return q.transaction(async (t) => {
    await q.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`, { transaction: t });
    const applied = await migrator(sequelize).up();
    await applyFunctions(sequelize);
    return applied;
  });
}
