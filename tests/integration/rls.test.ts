import assert from "node:assert/strict";
import { test } from "node:test";
import { db, rows, type Tx } from "../../db/index";
import { isUuid } from "../../db/ids";
import { APP_ROLE, GLOBAL_TABLES } from "../../db/migrations/0009-row-level-security";
import { LOCAL_TABLES } from "../../db/distribution";
import { createCustomer, createInvoice, createJob, twoTenants } from "../helpers/fixtures";
import { Client, clientFor } from "../helpers/client";

/** Runs `fn` as the app role with `tenantId` set, the way the server runs a request, then rolls back. */
async function asApp<T>(
  tenantId: string | null,
  fn: (q: (sql: string, bind?: unknown[]) => Promise<any[]>, t: Tx) => Promise<T>,
): Promise<T> {
  const t = await db().transaction();
  try {
    await db().query(`SET LOCAL ROLE ${APP_ROLE}`, { transaction: t });
    // As db/index.ts sets it: SET LOCAL (a checked uuid), which Citus passes on to the workers.
    if (tenantId) {
      assert.ok(isUuid(tenantId));
      await db().query(`SET LOCAL app.tenant_id = '${tenantId}'`, { transaction: t });
    }
    return await fn(async (sql, bind = []) => (await db().query(sql, { bind, transaction: t }))[0] as any[], t);
  } finally {
    await t.rollback();
  }
}

test("every tenant-owned table has row-level security enabled and forced", async () => {
  const tables = await rows<{ name: string; rls: boolean; forced: boolean }>(
    `SELECT c.relname AS name, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r'`,
  );
  assert.ok(tables.length > 10);
  for (const t of tables) {
    if ((GLOBAL_TABLES.includes(t.name) || LOCAL_TABLES.includes(t.name)) && t.name !== "tenants") continue;
    assert.ok(t.rls && t.forced, `${t.name}: row-level security enabled and forced`);
  }
  const role = await rows<{ rolsuper: boolean; rolbypassrls: boolean }>(
    `SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1`,
    [APP_ROLE],
  );
  assert.deepEqual(role[0], { rolsuper: false, rolbypassrls: false });
  const owned = await rows(`SELECT 1 FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE r.rolname = $1`, [
    APP_ROLE,
  ]);
  assert.equal(owned.length, 0, "the app role owns nothing");
});

test("with the service checks bypassed, the app role reads, changes and references nothing of another tenant", async () => {
  const { a, b } = await twoTenants();
  const custA = await createCustomer(a.id);
  const custB = await createCustomer(b.id, { name: "Secret Customer of B" });
  const jobB = await createJob(b.id, { customerId: custB.id });
  const invB = await createInvoice(b.id, { customerId: custB.id });

  await asApp(a.id, async (q) => {
    // Read: no row of B in any table, even asking by id.
    assert.equal((await q(`SELECT * FROM customers WHERE id = $1`, [custB.id])).length, 0);
    assert.equal((await q(`SELECT * FROM jobs WHERE tenant_id = $1`, [b.id])).length, 0);
    assert.equal((await q(`SELECT * FROM invoices WHERE id = $1`, [invB.id])).length, 0);
    assert.equal((await q(`SELECT * FROM users WHERE tenant_id = $1`, [b.id])).length, 0);
    assert.equal((await q(`SELECT * FROM tenants WHERE id = $1`, [b.id])).length, 0);
    assert.ok((await q(`SELECT * FROM customers WHERE id = $1`, [custA.id])).length === 1, "its own rows are visible");
    // Change: updates and deletes of B's rows touch nothing.
    assert.equal((await q(`UPDATE customers SET name = 'hacked' WHERE id = $1 RETURNING id`, [custB.id])).length, 0);
    assert.equal((await q(`DELETE FROM jobs WHERE id = $1 RETURNING id`, [jobB.id])).length, 0);
  });
  await asApp(a.id, async (q) => {
    // Insert into B: refused by the policy.
    await assert.rejects(q(`INSERT INTO customers (tenant_id, name) VALUES ($1, 'x')`, [b.id]), /row-level security/);
  });
  await asApp(a.id, async (q) => {
    // Reference: a job of A pointing at B's customer fails the composite foreign key.
    await assert.rejects(
      q(`INSERT INTO jobs (tenant_id, customer_id, title) VALUES ($1, $2, 'x')`, [a.id, custB.id]),
      /foreign key/,
    );
  });
  await asApp(null, async (q) => {
    assert.equal((await q(`SELECT * FROM customers`)).length, 0, "no tenant set: nothing visible");
  });
  const still = await rows<{ name: string }>(`SELECT name FROM customers WHERE tenant_id = $1 AND id = $2`, [
    b.id,
    custB.id,
  ]);
  assert.equal(still[0].name, "Secret Customer of B");
});

test("a pooled connection never carries one tenant's setting into the next use", async () => {
  const { a } = await twoTenants();
  const { inTenant } = await import("../../db/index");
  for (let i = 0; i < 20; i++) {
    await inTenant(a.id, (t) => rows(`SELECT 1`, [], t));
    const [r] = await rows<{ v: string | null }>(`SELECT current_setting('app.tenant_id', true) AS v`);
    assert.ok(!r.v, `the setting is gone after the transaction (got ${r.v})`);
  }
});

test("the server answers each tenant from its own rows under concurrent load", async () => {
  const { a, b } = await twoTenants();
  for (let i = 0; i < 3; i++) await createCustomer(a.id);
  const [ca, cb] = [await clientFor(a.users.owner), await clientFor(b.users.owner)];
  const pages = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? cb : ca).get("/")));
  for (const [i, res] of pages.entries()) {
    const html = await res.text();
    const count = html.match(/Customers<\/div><div class="stat-value">(\d+)/)?.[1];
    assert.equal(count, i % 2 ? "0" : "3", `request ${i}`);
  }
  assert.ok(new Client());
});

test("a statement prepared once per connection answers each tenant from its own rows, its plan kept", async () => {
  const { a, b } = await twoTenants();
  const tag = `Prepared ${a.id.slice(0, 8)}`;
  await createCustomer(a.id, { name: `${tag} A` });
  await createCustomer(b.id, { name: `${tag} B` });
  const { preparedRows } = await import("../../db/index");
  // No tenant condition in the text: row-level security alone keeps the tenants apart, also
  // once PostgreSQL keeps a generic plan (after five runs on a connection).
  const sql = `SELECT c.name FROM customers c WHERE c.name LIKE $1 ORDER BY c.name`;
  for (let i = 0; i < 12; i++) {
    const tenant = i % 2 ? b : a;
    const names = await asApp(tenant.id, (_q, t) => preparedRows<{ name: string }>(sql, [`${tag}%`], t));
    assert.deepEqual(
      names.map((r) => r.name),
      [`${tag} ${i % 2 ? "B" : "A"}`],
      `run ${i}`,
    );
  }
  const kept = await asApp(a.id, async (q, t) => {
    await preparedRows(sql, ["x"], t);
    return q(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`, [sql]);
  });
  assert.equal(kept[0].n, 1, "the statement is prepared on the connection that ran it");
});
