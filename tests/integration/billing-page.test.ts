// /settings/billing: the owner sees the plan, status, period end and recent events that the
// webhook intake stored; other roles get the 403 page; other tenants' events never show.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { deliver, nowSeconds, startBillingServer, stripeSubscriptionEvent } from "../helpers/billing";
import { Client, clientFor, envelope } from "../helpers/client";
import { createTenantWithUsers, twoTenants } from "../helpers/fixtures";
import type { RunningServer } from "../helpers/server";

let server: RunningServer;
before(async () => {
  server = await startBillingServer();
});
after(async () => {
  await server?.stop();
});

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

describe("/settings/billing", () => {
  test("the owner sees plan, status, period end and the events, newest first", async () => {
    const { a, b } = await twoTenants();
    const now = nowSeconds();
    const periodEnd = Date.UTC(2031, 4, 14, 12, 0, 0) / 1000;
    const created = stripeSubscriptionEvent("customer.subscription.created", {
      tenantId: a.id,
      price: "price_123",
      status: "trialing",
      created: now - 60,
    });
    const updated = stripeSubscriptionEvent("customer.subscription.updated", {
      tenantId: a.id,
      price: "price_456",
      status: "past_due",
      created: now - 30,
      periodEnd,
    });
    const unknownPrice = stripeSubscriptionEvent("customer.subscription.updated", {
      tenantId: a.id,
      price: "price_999",
      created: now,
    });
    const otherTenant = stripeSubscriptionEvent("customer.subscription.created", {
      tenantId: b.id,
      id: "evt_tenant_b_only",
    });
    for (const e of [created, updated, unknownPrice, otherTenant]) {
      const res = await deliver(server.url, "stripe", { body: JSON.stringify(e) });
      assert.equal(res.status, 200, JSON.stringify(await envelope(res)));
    }

    const owner = await clientFor(a.users.owner, server.url);
    const res = await owner.get("/settings/billing");
    assert.equal(res.status, 200);
    const page = text(await res.text());
    assert.match(page, /Plan Pro/);
    assert.match(page, /Status Past due/);
    assert.match(page, /Current period ends May 14, 2031/);
    assert.match(page, /Billed through Stripe/);
    assert.match(page, /Stripe Configured/);
    assert.match(page, /Paddle Billing Configured/);
    assert.doesNotMatch(page, /Billing is not set up/);
    assert.ok(page.includes(a.id), "the account id to give the provider");
    // Events: newest first, with what happened to each.
    const order = [unknownPrice.id, updated.id, created.id].map((id) => page.indexOf(id));
    assert.ok(
      order.every((i) => i > 0),
      "all three events listed",
    );
    assert.deepEqual(
      [...order].sort((x, y) => x - y),
      order,
      "newest first",
    );
    assert.match(page, /Ignored Unknown price price_999 \(not in the price plans\)/);
    assert.equal((page.match(/Applied/g) ?? []).length, 2);
    assert.ok(!page.includes("evt_tenant_b_only"), "another tenant's event is not shown");
  });

  test("a tenant with no billing yet: no plan, an empty event list", async () => {
    const t = await createTenantWithUsers();
    const owner = await clientFor(t.users.owner, server.url);
    const page = text(await (await owner.get("/settings/billing")).text());
    assert.match(page, /Plan No plan yet/);
    assert.match(page, /No billing events yet/);
  });

  test("without a configured provider the page says so plainly", async () => {
    const t = await createTenantWithUsers();
    const owner = await clientFor(t.users.owner); // the shared server: no billing configuration
    const res = await owner.get("/settings/billing");
    assert.equal(res.status, 200);
    const page = text(await res.text());
    assert.match(page, /Billing is not set up on this server/);
    assert.match(page, /Stripe Not configured/);
    assert.match(page, /BILLING_STRIPE_WEBHOOK_SECRET and BILLING_STRIPE_PRICE_PLANS/);
  });

  test("admin, office and technician get the 403 page; signed out goes to login", async () => {
    const t = await createTenantWithUsers();
    for (const role of ["admin", "office", "technician"] as const) {
      const res = await (await clientFor(t.users[role])).get("/settings/billing");
      assert.equal(res.status, 403, role);
      assert.match(
        await res.text(),
        /You don&#x27;t have access to this page|Only the account owner can see billing|Your role does not give access/,
        role,
      );
    }
    const anonymous = await new Client().get("/settings/billing");
    assert.equal(anonymous.status, 302);
    assert.equal(anonymous.headers.get("location"), "/login?redirectTo=%2Fsettings%2Fbilling");
  });

  test("the navigation shows Billing to the owner only", async () => {
    const t = await createTenantWithUsers();
    const ownerPage = await (await (await clientFor(t.users.owner)).get("/settings/billing")).text();
    assert.match(ownerPage, /href="\/settings\/billing"/);
    const adminPage = await (await (await clientFor(t.users.admin)).get("/")).text();
    assert.doesNotMatch(adminPage, /href="\/settings\/billing"/);
  });
});
