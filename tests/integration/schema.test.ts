import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { distributionViolations, LOCAL_TABLES, REFERENCE_TABLES } from "../../db/distribution";
import { inTenant, rows } from "../../db/index";
import { removeLoginEmails } from "../../db/login-emails";
import { createTenant, createUser } from "../helpers/fixtures";

// The schema of every tenant table, and its staying distributable by tenant on Citus (issue 25, docs/decisions/210): checked on
// plain PostgreSQL, against the migrated test database, by the rules of db/distribution.ts.

let client: pg.Client;
before(async () => {
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
});
after(async () => {
  await client.end();
});

/** Runs `fn` in a transaction that is always rolled back: the schema is left as it was. */
async function rolledBack<T>(fn: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    return await fn();
  } finally {
    await client.query("ROLLBACK");
  }
}

test("the migrated schema keeps every rule of a schema distributed by tenant", async () => {
  assert.deepEqual(await distributionViolations(client), []);
});

test("every table is classified: tenant tables hold tenant_id, the others are listed", async () => {
  const { rows } = await client.query<{ relname: string }>(
    `SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY 1`,
  );
  const names = rows.map((r) => r.relname);
  for (const listed of [...REFERENCE_TABLES, ...LOCAL_TABLES]) assert.ok(names.includes(listed), listed);
  assert.ok(names.length > 25, `only ${names.length} tables`);
});

test("a new table with a global unique key is refused (and so are the other broken rules)", async () => {
  // Each broken change with what the schema check must say about it. On a Citus coordinator the
  // database itself may refuse a change first (e.g. a reference table pointing at a distributed
  // one): that change is refused all the same, by Citus instead of the check. On plain PostgreSQL
  // every change goes in and the check must name each one.
  const onCitus = (
    await client.query<{ citus: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`,
    )
  ).rows[0]!.citus;
  const broken: Array<{ sql: string; says: RegExp[] }> = [
    {
      sql: `CREATE TABLE gift_cards (tenant_id uuid NOT NULL REFERENCES tenants (id), id uuid NOT NULL, code text NOT NULL UNIQUE, PRIMARY KEY (tenant_id, id))`,
      says: [/^gift_cards: unique key gift_cards_code_key does not include tenant_id$/],
    },
    {
      sql: `CREATE TABLE gift_card_uses (
        tenant_id uuid NOT NULL, id uuid NOT NULL, user_id uuid, PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE SET NULL (user_id))`,
      says: [/^gift_card_uses\.\S+: SET NULL or SET DEFAULT action$/],
    },
    {
      sql: `CREATE TABLE audit_log (id bigint PRIMARY KEY, tenant uuid REFERENCES tenants (id))`,
      // Unlisted, audit_log is held to a tenant table's rules too.
      says: [
        /^audit_log: no tenant_id, and not listed/,
        /^audit_log: unique key audit_log_pkey does not include tenant_id$/,
        /^audit_log\.audit_log_tenant_fkey: the foreign key does not include tenant_id$/,
      ],
    },
    {
      sql: `ALTER TABLE login_emails ADD FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)`,
      says: [/^login_emails\.\S+: a reference table references users$/],
    },
    {
      sql: `CREATE FUNCTION count_jobs(p uuid) RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM jobs WHERE tenant_id = p'`,
      says: [/^count_jobs\(uuid\): written in sql, not PL\/pgSQL$/],
    },
    {
      // A trigger as the summaries were first written: on a cluster each fails on the shard
      // (docs/decisions/496-summaries-on-a-citus-cluster.md).
      sql: `CREATE FUNCTION notes_count() RETURNS trigger LANGUAGE plpgsql AS $fn$
            DECLARE v_tenant uuid; v_n bigint; v_zone text;
            BEGIN
              INSERT INTO summary_deltas (tenant_id, figure, period, amount)
              SELECT r.tenant_id, 'quotes_sent', now()::date, count(*) FROM added r JOIN customers c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id GROUP BY 1;
              SELECT count(*) INTO v_n FROM jobs j WHERE j.customer_id IS NOT NULL;
              SELECT count(*) INTO v_n FROM jobs j WHERE j.tenant_id = v_tenant;
              SELECT time_zone INTO v_zone FROM tenants WHERE id = v_tenant;
              IF TG_TABLE_NAME = 'jobs' THEN RETURN NULL; END IF;
              UPDATE jobs j SET completed_at = coalesce(j.completed_at, now()) WHERE j.tenant_id = v_tenant;
              RETURN NULL;
            END $fn$;
            CREATE TRIGGER notes_count AFTER INSERT ON jobs REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION notes_count()`,
      says: [
        /^notes_count: names the transition table added and summary_deltas in one statement/,
        /^notes_count: inserts into summary_deltas rows not of one tenant value/,
        /^notes_count: reads customers without c\.tenant_id = one tenant/,
        /^notes_count: reads jobs without j\.tenant_id = one tenant/,
        /^notes_count: reads its table's name \(TG_TABLE_NAME\)$/,
        /^notes_count: now\(\) inside coalesce in a modification on jobs/,
      ],
    },
  ];
  const refusedByCitus: string[] = [];
  const found = await rolledBack(async () => {
    for (const change of broken) {
      if (!onCitus) {
        await client.query(change.sql);
        continue;
      }
      await client.query("SAVEPOINT change");
      try {
        await client.query(change.sql);
        await client.query("RELEASE SAVEPOINT change");
      } catch {
        await client.query("ROLLBACK TO SAVEPOINT change");
        refusedByCitus.push(change.sql);
      }
    }
    return distributionViolations(client);
  });
  const expected = broken.filter((c) => !refusedByCitus.includes(c.sql)).flatMap((c) => c.says);
  for (const pattern of expected)
    assert.ok(
      found.some((v) => pattern.test(v)),
      `${pattern} in ${JSON.stringify(found, null, 1)}`,
    );
  assert.equal(found.length, expected.length, JSON.stringify(found));
  assert.ok(expected.length >= 5, `the check itself refused most of them (${expected.length} findings)`);
  // Rolled back: the schema is clean again.
  assert.deepEqual(await distributionViolations(client), []);
});

test("the app writes sign-in's login e-mails with the users (no trigger: on Citus it would fire on a worker's shard)", async () => {
  const { rows: triggers } = await client.query(
    `SELECT tgname FROM pg_trigger WHERE tgrelid = 'users'::regclass AND NOT tgisinternal`,
  );
  assert.deepEqual(triggers, []);
  const tenant = await createTenant("Distribution Plumbing");
  const user = await createUser(tenant.id, { role: "technician" });
  const logins = async () =>
    (await client.query(`SELECT email, user_id FROM login_emails WHERE tenant_id = $1`, [tenant.id])).rows;
  assert.deepEqual(await logins(), [{ email: user.email, user_id: user.id }], "written with the user");
  await inTenant(tenant.id, async (t) => {
    await removeLoginEmails(tenant.id, [user.id], t);
    await rows(`DELETE FROM users WHERE tenant_id = $1 AND id = $2`, [tenant.id, user.id], t);
  });
  assert.deepEqual(await logins(), [], "and removed with it");
});

test("without SET NULL keys nothing dangles: a tenant leaves with everything", async () => {
  await rolledBack(async () => {
    const {
      rows: [tenant],
    } = await client.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('Distribution Plumbing') RETURNING id`);

    // A tenant's deletion cascades through keys that are now NO ACTION (checked after the cascade).
    const {
      rows: [tech],
    } = await client.query<{ id: string }>(
      `INSERT INTO users (tenant_id, email, name, role) VALUES ($1, 'tech@example.test', 'Tom', 'technician') RETURNING id`,
      [tenant.id],
    );
    const {
      rows: [customer],
    } = await client.query<{ id: string }>(`INSERT INTO customers (tenant_id, name) VALUES ($1, 'Ada') RETURNING id`, [
      tenant.id,
    ]);
    await client.query(`INSERT INTO jobs (tenant_id, customer_id, title, assignee_id) VALUES ($1, $2, 'Fix tap', $3)`, [
      tenant.id,
      customer.id,
      tech.id,
    ]);
    await client.query(`DELETE FROM tenants WHERE id = $1`, [tenant.id]);
    assert.equal((await client.query(`SELECT 1 FROM jobs WHERE tenant_id = $1`, [tenant.id])).rowCount, 0);
  });
});

test("a user others refer to cannot be deleted (NO ACTION), where SET NULL used to blank the reference", async () => {
  await rolledBack(async () => {
    const {
      rows: [tenant],
    } = await client.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('Keys Electric') RETURNING id`);
    const {
      rows: [tech],
    } = await client.query<{ id: string }>(
      `INSERT INTO users (tenant_id, email, name, role) VALUES ($1, 'keys@example.test', 'Kim', 'technician') RETURNING id`,
      [tenant.id],
    );
    const {
      rows: [customer],
    } = await client.query<{ id: string }>(`INSERT INTO customers (tenant_id, name) VALUES ($1, 'Bo') RETURNING id`, [
      tenant.id,
    ]);
    await client.query(`INSERT INTO jobs (tenant_id, customer_id, title, assignee_id) VALUES ($1, $2, 'Rewire', $3)`, [
      tenant.id,
      customer.id,
      tech.id,
    ]);
    await client.query("SAVEPOINT s");
    await assert.rejects(
      client.query(`DELETE FROM users WHERE tenant_id = $1 AND id = $2`, [tenant.id, tech.id]),
      /violates foreign key constraint/,
    );
    await client.query("ROLLBACK TO SAVEPOINT s");
  });
});
