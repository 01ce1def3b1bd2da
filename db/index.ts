import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import pg from "pg";
import { Sequelize } from "sequelize-typescript";
import { Transaction, type TransactionOptions } from "sequelize";
import { MODELS } from "./models";
import { isUuid } from "./ids";

// PostgreSQL `bigint` and `numeric` arrive as strings by default; counts and sums here fit a JS number.
pg.types.setTypeParser(20, (v) => Number(v));

declare global {
  var __db: Sequelize | undefined;
  var __dbOptions: DbOptions | undefined;
}

/**
 * How to reach the database, given explicitly (db/ reads no environment): the app passes
 * `databaseOptions(env())` (app/server.ts), scripts and the test runner pass what they
 * started or were given.
 */
export type DbOptions = {
  /** postgres:// connection string. */
  url: string;
  poolMax?: number;
  acquireMs?: number;
  /** Tells one server's sessions apart in pg_stat_activity (the fault tests). */
  applicationName?: string;
  /** The role every connection switches to (the app role, so row-level security applies). */
  setRole?: string;
  /** Every statement on stderr. */
  logSql?: boolean;
};

/**
 * node-postgres as Sequelize gets it, with one difference: each client listens for "error" from
 * its creation. Sequelize adds its own listener only once the connect has resolved, a microtask
 * after the connect's last message; an error read in the same chunk (PostgreSQL shutting down
 * sends "terminating connection due to administrator command" to every new session) found no
 * listener and ended the process. The client is marked as Sequelize's own listener marks it
 * (`_invalid`), so the pool drops it, and its first query fails as a lost connection (503).
 */
class ListeningClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on("error", () => void ((this as { _invalid?: boolean })._invalid = true));
  }
}
const PG_LISTENING: typeof pg = Object.create(pg, { Client: { value: ListeningClient } });
/** Sets the options the one Sequelize instance is created with (before its first use; a later call applies after closeDb). */
export function configureDb(options: DbOptions): void {
  globalThis.__dbOptions = options;
}

/** The options the database was configured with (the live-update listener connects with the same). */
export function dbOptions(): DbOptions {
  const options = globalThis.__dbOptions;
  if (!options)
    throw new Error(
      "The database is not configured: call configureDb() first (the app does it from env() in app/server.ts)",
    );
  return options;
}

export type Tx = Transaction;

/**
 * The one Sequelize instance of the process, kept on globalThis so development rebuilds and
 * the compiled server bundle share it. Created on first use from the configured options
 * (configureDb); `options` apply when this call creates it (the migrator of scripts/start.ts
 * needs a pool of two).
 */
export function db(options: { poolMax?: number } = {}): Sequelize {
  if (!globalThis.__db) {
    const config = dbOptions();
    const setRole = config.setRole;
    globalThis.__db = new Sequelize(config.url, {
      dialect: "postgres",
      dialectModule: PG_LISTENING,
      logging: config.logSql ? (sql) => process.stderr.write(sql + "\n") : false,
      models: MODELS,
      pool: {
        max: options.poolMax ?? config.poolMax ?? 10,
        min: 0,
        acquire: config.acquireMs ?? 5000,
        idle: 10_000,
        evict: 5_000,
      },
      dialectOptions: {
        // DB_APPLICATION_NAME tells one server's sessions apart in pg_stat_activity (the fault tests).
        application_name: config.applicationName || "fieldservice",
        statement_timeout: 30_000,
        // A database host that does not answer fails the connect after 5 s instead of the
        // kernel's ~2 minutes; TCP keepalive lets the OS notice a vanished peer on a pooled
        // connection eventually (docs/decisions/081).
        connectionTimeoutMillis: 5_000,
        keepAlive: true,
      },
      // The server serves requests as the unprivileged app role, so row-level security applies
      // to every query (migrations ran before, as the owner). Tests and scripts stay the owner.
      hooks: setRole
        ? {
            afterConnect: async (connection: unknown) =>
              void (await (connection as pg.Client).query(`SET ROLE ${pg.escapeIdentifier(setRole)}`)),
          }
        : {},
      define: { underscored: true, timestamps: true },
    });
    withTenantBegin(globalThis.__db);
  }
  return globalThis.__db;
}

export async function closeDb() {
  const instance = globalThis.__db;
  globalThis.__db = undefined;
  await instance?.close();
}

/**
 * Runs `fn` in one transaction scoped to a tenant: `app.tenant_id` is set for the
 * transaction only (`SET LOCAL`), so a pooled connection never carries one tenant's setting
 * into another request. Row-level security policies read it. `SET LOCAL` as its own
 * statement (not `set_config`) is what Citus passes on to the workers
 * (`citus.propagate_set_commands = 'local'`, docs/scale-out.md).
 */
export async function inTenant<T>(tenantId: string, fn: (t: Tx) => Promise<T>): Promise<T> {
  // The setting travels with the transaction's first statement (startTransaction below).
  return db().transaction({ tenantId } as TransactionOptions, fn);
}

/**
 * A tenant's transaction opens with its setting in the same round trip: START TRANSACTION
 * and SET LOCAL sent as one simple query (the id is a checked uuid, so it is inlined
 * safely). Every request pays for this exchange, and on this platform a round trip to
 * PostgreSQL costs more than most of the work done with its answer (profiled).
 */
function withTenantBegin(instance: Sequelize) {
  const qi = instance.getQueryInterface();
  const start = qi.startTransaction.bind(qi);
  qi.startTransaction = async (transaction, options) => {
    const tenantId = (transaction as unknown as { options?: { tenantId?: string } }).options?.tenantId;
    if (!tenantId || (transaction as unknown as { parent?: unknown }).parent) return start(transaction, options);
    if (!isUuid(tenantId)) throw new Error("inTenant: the tenant id is not a uuid");
    const ms = statementTimeout.getStore();
    const timeout = ms && Number.isInteger(ms) && ms > 0 ? ` SET LOCAL statement_timeout = ${ms};` : "";
    await instance.query(`START TRANSACTION; SET LOCAL app.tenant_id = '${tenantId}';${timeout}`, {
      ...options,
      transaction,
    });
  };
}

// The statement timeout of the work a request is doing (a search, a report, an import:
// app/services/limits/work.server.ts). Tenant transactions begun inside take it.
const statementTimeout = new AsyncLocalStorage<number>();

/**
 * Runs `fn` with `ms` as the statement timeout of every tenant transaction it begins
 * (`SET LOCAL statement_timeout`, sent with the transaction's first round trip). Outside, the
 * connection's default (30 s) applies.
 */
export function withStatementTimeout<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  return statementTimeout.run(ms, fn);
}

/** A transaction with no tenant (sign-up, sign-in lookups, webhooks before the tenant is known). */
export async function inSystem<T>(fn: (t: Tx) => Promise<T>): Promise<T> {
  return db().transaction(async (t) => fn(t));
}

/**
 * A value as a jsonb literal (pg's escaping), for the rare statement that cannot take a
 * parameter. Every `$` is written as the JSON escape `\u0024` (the same value), so nothing in
 * the text reads as a bind parameter.
 */
export const jsonbLiteral = (value: unknown): string =>
  `${pg.escapeLiteral(JSON.stringify(value).replace(/\$/g, "\\u0024"))}::jsonb`;

/** Plain rows from SQL with bind parameters ($1, $2...). */
/**
 * A timestamp column or expression as milliseconds since the epoch, a float8: the driver reads a
 * number far cheaper than it parses a timestamp's text into a Date, which counts where a page
 * reads hundreds of them (docs/decisions/498-the-week-board-goes-out-gzipped-from-kept-blocks.md).
 */
export const epochMs = (sql: string) => `(extract(epoch FROM ${sql}) * 1000)::float8`;

export async function rows<T = Record<string, unknown>>(sql: string, bind: unknown[] = [], t?: Tx): Promise<T[]> {
  const [result] = await db().query(sql, { bind, transaction: t, raw: true });
  return result as T[];
}

/**
 * Rows of a statement PostgreSQL plans once per connection: a named prepared statement, named by
 * a hash of its text (the driver parses it on a connection's first use; after a few runs
 * PostgreSQL keeps a generic plan when it costs no more than planning anew). For a large read a
 * page runs on every view: its parse is always saved, its planning too where PostgreSQL keeps the
 * generic plan (a dashboard's lists took about 3 ms to plan and 0.2 ms to run). It runs on the
 * transaction's own connection. Opt-in: the app's other statements are many and mostly cheap to
 * plan, and each name is kept by every connection that ran it.
 */
export async function preparedRows<T extends object = Record<string, unknown>>(
  sql: string,
  bind: unknown[],
  t: Tx,
): Promise<T[]> {
  const client = (t as unknown as { connection: pg.Client }).connection;
  const name = `fw_${createHash("sha1").update(sql).digest("hex")}`;
  return (await client.query<T>({ name, text: sql, values: bind })).rows;
}

/**
 * An `INSERT ... SELECT` (without RETURNING) that inserts rows computed from arrays or a
 * subquery; returns how many. Run with RETURNING and counted: Citus runs such a statement
 * through the coordinator as a COPY, which row-level security refuses, unless the statement
 * returns rows (docs/decisions/228-citus-run.md).
 */
export async function insertSelect(sql: string, bind: unknown[] = [], t?: Tx): Promise<number> {
  const [r] = await rows<{ n: number }>(`WITH ins AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM ins`, bind, t);
  return r!.n;
}

export async function one<T = Record<string, unknown>>(
  sql: string,
  bind: unknown[] = [],
  t?: Tx,
): Promise<T | undefined> {
  return (await rows<T>(sql, bind, t))[0];
}
