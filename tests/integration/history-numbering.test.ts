import assert from "node:assert/strict";
import { test } from "node:test";
import { inTenant, one } from "../../db/index";
import { historyOf, recordHistory } from "../../app/services/history/history.server";
import { nextDocumentNumber } from "../../app/services/records/numbering.server";
import { clientFor } from "../helpers/client";
import { createCustomer, createQuote, createTenantWithUsers } from "../helpers/fixtures";
import { textOf } from "../helpers/html";

// Document numbers (docs/decisions/121) and record history (docs/decisions/120).

/** Creates a quote row numbered by the counter, as quote creation does, in one transaction. */
async function numberedQuote(tenantId: string, customerId: string) {
  return inTenant(tenantId, async (t) => {
    const number = await nextDocumentNumber(t, tenantId, "quote");
    await one(
      `INSERT INTO quotes (tenant_id, customer_id, number) VALUES ($1, $2, $3)`,
      [tenantId, customerId, number],
      t,
    );
    return number;
  });
}

test("ten documents numbered at once get ten distinct consecutive numbers", async () => {
  const tenant = await createTenantWithUsers();
  const customer = await createCustomer(tenant.id);
  const numbers = await Promise.all(Array.from({ length: 10 }, () => numberedQuote(tenant.id, customer.id)));
  assert.deepEqual(
    [...numbers].sort(),
    Array.from({ length: 10 }, (_, i) => `Q-${String(i + 1).padStart(4, "0")}`),
  );
  // Each kind counts on its own, per tenant.
  const other = await createTenantWithUsers();
  assert.equal(await inTenant(other.id, (t) => nextDocumentNumber(t, other.id, "invoice")), "INV-0001");
  assert.equal(await numberedQuote(other.id, (await createCustomer(other.id)).id), "Q-0001");
});

test("a number an import used is skipped, and a rolled-back creation gives its number back", async () => {
  const tenant = await createTenantWithUsers();
  const customer = await createCustomer(tenant.id);
  for (const number of ["Q-0002", "Q-0003", "Q-0007"])
    await createQuote(tenant.id, { customerId: customer.id, number });
  const got: string[] = [];
  for (let i = 0; i < 6; i++) got.push(await numberedQuote(tenant.id, customer.id));
  assert.deepEqual(got, ["Q-0001", "Q-0004", "Q-0005", "Q-0006", "Q-0008", "Q-0009"]);
  await assert.rejects(
    inTenant(tenant.id, async (t) => {
      await nextDocumentNumber(t, tenant.id, "quote");
      throw new Error("creation failed");
    }),
    /creation failed/,
  );
  assert.equal(await numberedQuote(tenant.id, customer.id), "Q-0010");
  // A deleted quote's number is never handed out again.
  await one(`DELETE FROM quotes WHERE tenant_id = $1 AND number = 'Q-0010'`, [tenant.id]);
  assert.equal(await numberedQuote(tenant.id, customer.id), "Q-0011");
});

test("a record's history tells who did what, newest first, on its page", async () => {
  const tenant = await createTenantWithUsers();
  const customer = await createCustomer(tenant.id, { name: "Ann Customer" });
  const quote = await createQuote(tenant.id, { customerId: customer.id, status: "draft" });
  const owner = tenant.users.owner;
  const actor = { tenantId: tenant.id, userId: owner.id, role: owner.role };
  await inTenant(tenant.id, async (t) => {
    await recordHistory(t, actor, { recordType: "quote", recordId: quote.id, action: "created", summary: "Created" });
    await recordHistory(t, actor, { recordType: "quote", recordId: quote.id, action: "sent", summary: "Sent" });
  });
  await inTenant(tenant.id, (t) =>
    recordHistory(
      t,
      { tenantId: tenant.id, name: "Ann Customer", source: "portal" },
      { recordType: "quote", recordId: quote.id, action: "approved", summary: "Approved in the portal" },
    ),
  );
  // A change that rolls back leaves no history behind.
  await assert.rejects(
    inTenant(tenant.id, async (t) => {
      await recordHistory(t, actor, { recordType: "quote", recordId: quote.id, action: "updated", summary: "Edited" });
      throw new Error("rolled back");
    }),
  );
  const history = await historyOf(tenant.id, "quote", quote.id);
  assert.deepEqual(
    history.map((h) => [h.summary, h.who, h.source]),
    [
      ["Approved in the portal", "Ann Customer", "portal"],
      ["Sent", owner.name, "staff"],
      ["Created", owner.name, "staff"],
    ],
  );
  // Another tenant sees none of it.
  const other = await createTenantWithUsers();
  assert.deepEqual(await historyOf(other.id, "quote", quote.id), []);

  const page = textOf(await (await (await clientFor(owner)).get(`/quotes/${quote.id}`)).text());
  const approved = page.indexOf("Approved in the portal by Ann Customer");
  const sent = page.indexOf(`Sent by ${owner.name}`);
  assert.ok(approved > 0 && sent > approved, "the quote page shows the history newest first");
});
