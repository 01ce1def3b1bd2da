import { Umzug } from "umzug";
import type { Sequelize } from "sequelize";
import { MIGRATIONS } from "./migrations";

export type Migration = (params: { context: Sequelize; name: string }) => Promise<void>;
export type MigrationModule = { up: Migration; down: Migration };

const LOCK_KEY = 7_316_204; // pg_advisory_lock key: one migrator at a time across servers

/** The umzug instance: migrations recorded in `schema_migrations`, each applied in its own transaction. */
export function migrator(sequelize: Sequelize, logger: Console | undefined = undefined) {
  return new Umzug<Sequelize>({
    migrations: MIGRATIONS.map(([name, mod]) => ({
      name,
      up: ({ context }) => context.transaction(() => mod.up({ context, name })),
      down: ({ context }) => context.transaction(() => mod.down({ context, name })),
    })),
    context: sequelize,
    storage: {
      async executed({ context }) {
        await context.query(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
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

/** Applies every pending migration, holding an advisory lock so concurrent starts do not race. */
export async function migrateUp(sequelize: Sequelize) {
  const q = sequelize.getQueryInterface().sequelize;
  // A session-level lock needs one connection for the whole run: take it on a dedicated transaction.
  return q.transaction(async (t) => {
    await q.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`, { transaction: t });
    return migrator(sequelize).up();
  });
}
