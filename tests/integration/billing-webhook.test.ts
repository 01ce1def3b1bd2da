// POST /api/billing/<provider>/webhook over HTTP (CONTRACT section 8): every acceptance point
// of the billing issue. The shared test server has no billing configuration (the 503 cases);
// the rest run against a server of our own with both providers configured.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { NodeRuntime, Webhooks } from "@paddle/paddle-node-sdk";
import { one, rows } from "../../db/index";
import {
  deliver,
  nowSeconds,
  PADDLE_SECRET,
  paddleSubscriptionEvent,
  STRIPE_OLD_SECRET,
  STRIPE_SECRET,
  startBillingServer,
  storedEvents,
  stripeHeader,
  stripeSubscriptionEvent,
  tenantBilling,
} from "../helpers/billing";
import { BASE_URL, envelope } from "../helpers/client";
import { createTenant } from "../helpers/fixtures";
import { startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;
before(async () => {
  server = await startBillingServer();
});
after(async () => {
  await server?.stop();
});

const stripeDelivery = (event: object, header?: string | null) =>
  deliver(server.url, "stripe", { body: JSON.stringify(event), header });

async function expectRefused(res: Response, status: number, code: string, provider: string, eventId: string) {
  assert.equal(res.status, status);
  const body = await envelope(res);
  assert.equal(body.success, false);
  assert.equal(body.error?.code, code);
  assert.deepEqual(await storedEvents(provider, eventId), [], "nothing stored");
}

async function expectStatus(
  res: Response,
  status: "processed" | "duplicate" | "ignored",
  event: { id?: string; event_id?: string; type?: string; event_type?: string },
) {
  const body = await envelope(res);
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(body.success, true);
  assert.deepEqual(body.data, { eventId: event.id ?? event.event_id, type: event.type ?? event.event_type, status });
}

describe("Stripe: a verified event is applied", () => {
  test("a header from stripe.webhooks.generateTestHeaderString: processed, stored, tenant updated", async () => {
    const tenant = await createTenant();
    const periodEnd = nowSeconds() + 30 * 86400;
    const event = stripeSubscriptionEvent("customer.subscription.created", {
      tenantId: tenant.id,
      price: "price_123",
      status: "trialing",
      periodEnd,
    });
    const res = await stripeDelivery(event);
    await expectStatus(res, "processed", event);

    const [stored] = await storedEvents("stripe", event.id);
    assert.equal(stored.status, "processed");
    assert.equal(stored.reason, null);
    assert.equal(stored.tenant_id, tenant.id);
    assert.equal(stored.type, "customer.subscription.created");
    assert.deepEqual(stored.payload, event, "the event is kept as received");

    const billing = await tenantBilling(tenant.id);
    assert.equal(billing.plan, "starter");
    assert.equal(billing.subscription_status, "trialing");
    assert.equal(billing.current_period_end?.getTime(), periodEnd * 1000);
    assert.equal(billing.billing_provider, "stripe");
    assert.equal(billing.billing_event_at?.getTime(), event.created * 1000);
  });

  test("the response is the envelope with a request id", async () => {
    const event = stripeSubscriptionEvent("customer.subscription.updated", { tenantId: (await createTenant()).id });
    const res = await stripeDelivery(event);
    const body = await envelope(res);
    assert.equal(res.headers.get("content-type")?.split(";")[0], "application/json");
    assert.equal(body.meta.requestId, res.headers.get("x-request-id"));
  });

  test("an event signed with the older secret of a rotation (comma list) is accepted", async () => {
    const event = stripeSubscriptionEvent("customer.subscription.updated", { tenantId: (await createTenant()).id });
    const body = JSON.stringify(event);
    await expectStatus(
      await deliver(server.url, "stripe", { body, header: stripeHeader(body, { secret: STRIPE_OLD_SECRET }) }),
      "processed",
      event,
    );
  });

  test("invoice.payment_failed marks the subscription past due and keeps the plan", async () => {
    const tenant = await createTenant();
    const created = stripeSubscriptionEvent("customer.subscription.created", {
      tenantId: tenant.id,
      price: "price_456",
      created: nowSeconds() - 60,
    });
    await expectStatus(await stripeDelivery(created), "processed", created);
    const failed = {
      id: `evt_failed_${tenant.id.slice(0, 8)}`,
      object: "event",
      created: nowSeconds(),
      type: "invoice.payment_failed",
      data: {
        object: {
          object: "invoice",
          parent: { subscription_details: { metadata: { tenant_id: tenant.id } } },
          lines: {
            data: [{ pricing: { price_details: { price: "price_456" } }, period: { end: nowSeconds() + 86400 } }],
          },
        },
      },
    };
    await expectStatus(await stripeDelivery(failed), "processed", failed);
    const billing = await tenantBilling(tenant.id);
    assert.equal(billing.plan, "pro");
    assert.equal(billing.subscription_status, "past_due");
  });
});

describe("Stripe: the signature timestamp must be within 300 s either way", () => {
  const cases = [
    { name: "301 s old", offset: (now: number) => now - 301, accepted: false },
    // Rounded up so a second ticking over during the request cannot bring it under 301 s.
    { name: "301 s ahead", offset: () => Math.ceil(Date.now() / 1000) + 301, accepted: false },
    { name: "299 s old", offset: (now: number) => now - 299, accepted: true },
  ];
  for (const c of cases) {
    test(`${c.name}: ${c.accepted ? "accepted" : "400 SIGNATURE_INVALID, nothing stored"}`, async () => {
      const tenant = await createTenant();
      const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: tenant.id });
      const body = JSON.stringify(event);
      const res = await deliver(server.url, "stripe", {
        body,
        header: stripeHeader(body, { timestamp: c.offset(nowSeconds()) }),
      });
      if (c.accepted) {
        await expectStatus(res, "processed", event);
        assert.equal((await tenantBilling(tenant.id)).plan, "pro");
      } else {
        await expectRefused(res, 400, "SIGNATURE_INVALID", "stripe", event.id);
        assert.equal((await tenantBilling(tenant.id)).plan, null, "the tenant is unchanged");
      }
    });
  }
});

describe("Stripe: anything but a correct signature of the exact bytes is refused", () => {
  test("a re-serialised body (same JSON, other bytes): 400, nothing stored", async () => {
    const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: (await createTenant()).id });
    const signed = JSON.stringify(event, null, 2); // what the provider sent and signed
    const reserialised = JSON.stringify(JSON.parse(signed)); // what a body-parsing proxy forwards
    await expectRefused(
      await deliver(server.url, "stripe", { body: reserialised, header: stripeHeader(signed) }),
      400,
      "SIGNATURE_INVALID",
      "stripe",
      event.id,
    );
  });

  test("a wrong secret: 400, nothing stored", async () => {
    const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: (await createTenant()).id });
    const body = JSON.stringify(event);
    const header = stripeHeader(body, { secret: "whsec_somebody_elses_secret_0123456789" });
    await expectRefused(
      await deliver(server.url, "stripe", { body, header }),
      400,
      "SIGNATURE_INVALID",
      "stripe",
      event.id,
    );
  });

  test("a v0-only header (even with a correct HMAC under v0): 400, nothing stored", async () => {
    const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: (await createTenant()).id });
    const body = JSON.stringify(event);
    const t = nowSeconds();
    const v0 = createHmac("sha256", STRIPE_SECRET).update(`${t}.${body}`).digest("hex");
    await expectRefused(
      await deliver(server.url, "stripe", { body, header: `t=${t},v0=${v0}` }),
      400,
      "SIGNATURE_INVALID",
      "stripe",
      event.id,
    );
  });

  test("no signature header: 400, nothing stored", async () => {
    const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: (await createTenant()).id });
    const res = await stripeDelivery(event, null);
    assert.equal(res.status, 400);
    const body = await envelope(res);
    assert.match(body.error!.message, /Stripe-Signature/);
    assert.deepEqual(await storedEvents("stripe", event.id), []);
  });

  test("the signature in the other provider's header: 400, nothing stored", async () => {
    const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: (await createTenant()).id });
    const body = JSON.stringify(event);
    const res = await deliver(server.url, "stripe", {
      body,
      header: null,
      headers: { "paddle-signature": stripeHeader(body) },
    });
    await expectRefused(res, 400, "SIGNATURE_INVALID", "stripe", event.id);
  });

  test("a bad v1 followed by a good v1: accepted", async () => {
    const tenant = await createTenant();
    const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: tenant.id });
    const body = JSON.stringify(event);
    const good = stripeHeader(body); // t=...,v1=<good>
    const [t, v1] = good.split(",");
    const header = `${t},v1=${"0".repeat(64)},${v1}`;
    await expectStatus(await deliver(server.url, "stripe", { body, header }), "processed", event);
    assert.equal((await tenantBilling(tenant.id)).plan, "pro");
  });

  test("a valid signature on malformed JSON: 400 BAD_REQUEST, nothing stored", async () => {
    const body = '{"id": "evt_malformed_json", "type": "customer.subscription.created", ';
    const res = await deliver(server.url, "stripe", { body });
    assert.equal(res.status, 400);
    assert.equal((await envelope(res)).error?.code, "BAD_REQUEST");
    assert.deepEqual(await storedEvents("stripe", "evt_malformed_json"), []);
  });

  test("a valid signature on JSON that is not an event: 400 BAD_REQUEST, nothing stored", async () => {
    const res = await deliver(server.url, "stripe", { body: JSON.stringify({ hello: "world" }) });
    assert.equal(res.status, 400);
    assert.equal((await envelope(res)).error?.code, "BAD_REQUEST");
    assert.deepEqual(
      await rows(`SELECT 1 FROM billing_events WHERE payload = $1`, [JSON.stringify({ hello: "world" })]),
      [],
    );
  });
});

describe("each event is stored and applied once", () => {
  test("the same event twice: one row, one effect; the repeat answers duplicate and changes nothing", async () => {
    const tenant = await createTenant();
    const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: tenant.id, price: "price_123" });
    await expectStatus(await stripeDelivery(event), "processed", event);
    const first = await one<{ received_at: Date }>(
      `SELECT received_at FROM billing_events WHERE provider = 'stripe' AND event_id = $1`,
      [event.id],
    );

    // Someone changes the tenant by hand; a repeat of the event must not undo it.
    await rows(`UPDATE tenants SET plan = 'hand-set', subscription_status = 'paused' WHERE id = $1`, [tenant.id]);
    await expectStatus(await stripeDelivery(event), "duplicate", event);

    assert.equal((await storedEvents("stripe", event.id)).length, 1);
    const again = await one<{ received_at: Date }>(
      `SELECT received_at FROM billing_events WHERE provider = 'stripe' AND event_id = $1`,
      [event.id],
    );
    assert.equal(again!.received_at.getTime(), first!.received_at.getTime(), "the stored row is the first one");
    const billing = await tenantBilling(tenant.id);
    assert.equal(billing.plan, "hand-set");
    assert.equal(billing.subscription_status, "paused");
  });

  test("ten identical deliveries at once: one row, one processed, nine duplicates", async () => {
    const tenant = await createTenant();
    const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: tenant.id, price: "price_456" });
    const body = JSON.stringify(event);
    const header = stripeHeader(body);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => deliver(server.url, "stripe", { body, header })),
    );
    const statuses = await Promise.all(
      responses.map(async (r) => {
        assert.equal(r.status, 200);
        return (await envelope(r)).data.status as string;
      }),
    );
    assert.deepEqual(statuses.sort(), [
      "duplicate",
      "duplicate",
      "duplicate",
      "duplicate",
      "duplicate",
      "duplicate",
      "duplicate",
      "duplicate",
      "duplicate",
      "processed",
    ]);
    const stored = await storedEvents("stripe", event.id);
    assert.equal(stored.length, 1);
    assert.equal(stored[0].status, "processed");
    assert.equal((await tenantBilling(tenant.id)).plan, "pro");
  });

  test("ten different events for one tenant at once: all processed, the newest state wins", async () => {
    const tenant = await createTenant();
    const base = nowSeconds() - 100;
    const events = Array.from({ length: 10 }, (_, i) =>
      stripeSubscriptionEvent("customer.subscription.updated", {
        tenantId: tenant.id,
        price: i === 9 ? "price_123" : "price_456",
        created: base + i,
      }),
    );
    const responses = await Promise.all(events.map((e) => stripeDelivery(e)));
    const statuses = await Promise.all(responses.map(async (r) => (await envelope(r)).data?.status));
    for (const s of statuses) assert.ok(s === "processed" || s === "ignored", String(s));
    const billing = await tenantBilling(tenant.id);
    assert.equal(billing.plan, "starter", "the newest event (the last one) decides the plan");
    assert.equal(billing.billing_event_at?.getTime(), (base + 9) * 1000);
    assert.equal((await rows(`SELECT 1 FROM billing_events WHERE tenant_id = $1`, [tenant.id])).length, 10);
  });

  test("events of one tenant out of order and at once, each twice: the newest state, each fact from the newest that gives it", async () => {
    const tenant = await createTenant();
    const base = nowSeconds() - 200;
    const subscriptions = Array.from({ length: 12 }, (_, i) =>
      stripeSubscriptionEvent("customer.subscription.updated", {
        tenantId: tenant.id,
        price: i % 2 ? "price_123" : "price_456",
        status: i === 11 ? "active" : "trialing",
        created: base + i,
        periodEnd: base + 1000 + i,
      }),
    );
    // The newest event names no price and no period: the plan and the period end stay the
    // newest subscription event's.
    const failed = {
      id: `evt_failed_burst_${tenant.id.slice(0, 8)}`,
      object: "event",
      created: base + 12,
      type: "invoice.payment_failed",
      data: { object: { object: "invoice", parent: { subscription_details: { metadata: { tenant_id: tenant.id } } } } },
    };
    const newestFirst = [failed, ...subscriptions.reverse()];
    const responses = await Promise.all([...newestFirst, ...newestFirst].map((e) => stripeDelivery(e)));
    const statuses = await Promise.all(responses.map(async (r) => (await envelope(r)).data?.status));
    for (const s of statuses) assert.ok(["processed", "ignored", "duplicate"].includes(String(s)), String(s));
    assert.equal(statuses.filter((s) => s === "duplicate").length, 13, "each repeat is a duplicate");

    const billing = await tenantBilling(tenant.id);
    assert.equal(billing.plan, "starter", "event 11's price");
    assert.equal(billing.subscription_status, "past_due", "the newest event's status");
    assert.equal(billing.current_period_end?.getTime(), (base + 1011) * 1000, "event 11's period end");
    assert.equal(billing.billing_event_at?.getTime(), (base + 12) * 1000);
    assert.equal((await rows(`SELECT 1 FROM billing_events WHERE tenant_id = $1`, [tenant.id])).length, 13);

    // Late and older than everything applied: kept as ignored, the state unchanged.
    const late = stripeSubscriptionEvent("customer.subscription.updated", {
      tenantId: tenant.id,
      price: "price_456",
      created: base + 3,
    });
    await expectStatus(await stripeDelivery(late), "ignored", late);
    assert.deepEqual(await tenantBilling(tenant.id), billing);
  });

  test("the same event id from the other provider is a different event", async () => {
    const tenant = await createTenant();
    const id = `evt_shared_${tenant.id.slice(0, 8)}`;
    const stripeEvent = stripeSubscriptionEvent("customer.subscription.created", { tenantId: tenant.id, id });
    const paddleEvent = paddleSubscriptionEvent("subscription.created", { tenantId: tenant.id, id });
    await expectStatus(await stripeDelivery(stripeEvent), "processed", stripeEvent);
    await expectStatus(
      await deliver(server.url, "paddle", { body: JSON.stringify(paddleEvent) }),
      "processed",
      paddleEvent,
    );
  });
});

describe("delivery order", () => {
  test("subscription.updated, then an older subscription.created arriving late: the newer state stays", async () => {
    const tenant = await createTenant();
    const now = nowSeconds();
    const updated = stripeSubscriptionEvent("customer.subscription.updated", {
      tenantId: tenant.id,
      price: "price_456",
      status: "active",
      created: now - 10,
      periodEnd: now + 40 * 86400,
    });
    const created = stripeSubscriptionEvent("customer.subscription.created", {
      tenantId: tenant.id,
      price: "price_123",
      status: "incomplete",
      created: now - 20,
      periodEnd: now + 30 * 86400,
    });
    await expectStatus(await stripeDelivery(updated), "processed", updated);
    await expectStatus(await stripeDelivery(created), "ignored", created);

    const billing = await tenantBilling(tenant.id);
    assert.equal(billing.plan, "pro");
    assert.equal(billing.subscription_status, "active");
    assert.equal(billing.current_period_end?.getTime(), (now + 40 * 86400) * 1000);
    assert.equal(billing.billing_event_at?.getTime(), (now - 10) * 1000);
    const [late] = await storedEvents("stripe", created.id);
    assert.equal(late.status, "ignored");
    assert.equal(late.reason, "older than the last applied event");
    assert.equal(late.tenant_id, tenant.id);
  });

  test("events of the same second apply in arrival order", async () => {
    const tenant = await createTenant();
    const t = nowSeconds() - 5;
    const a = stripeSubscriptionEvent("customer.subscription.created", {
      tenantId: tenant.id,
      status: "incomplete",
      created: t,
    });
    const b = stripeSubscriptionEvent("customer.subscription.updated", {
      tenantId: tenant.id,
      status: "active",
      created: t,
    });
    await expectStatus(await stripeDelivery(a), "processed", a);
    await expectStatus(await stripeDelivery(b), "processed", b);
    assert.equal((await tenantBilling(tenant.id)).subscription_status, "active");
  });

  test("customer.subscription.deleted sets the status to canceled", async () => {
    const tenant = await createTenant();
    const created = stripeSubscriptionEvent("customer.subscription.created", {
      tenantId: tenant.id,
      created: nowSeconds() - 50,
    });
    const deleted = stripeSubscriptionEvent("customer.subscription.deleted", { tenantId: tenant.id, status: "active" });
    await expectStatus(await stripeDelivery(created), "processed", created);
    await expectStatus(await stripeDelivery(deleted), "processed", deleted);
    const billing = await tenantBilling(tenant.id);
    assert.equal(billing.subscription_status, "canceled");
    assert.equal(billing.plan, "pro");
  });
});

describe("verified events that cannot be applied are stored as ignored, with the reason", () => {
  test("unknown tenant (a UUID that is no tenant): ignored, stored without a tenant", async () => {
    const ghost = "6d1f3c1e-0000-4a53-9d8e-1f2a3b4c5d6e";
    const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: ghost });
    await expectStatus(await stripeDelivery(event), "ignored", event);
    const [stored] = await storedEvents("stripe", event.id);
    assert.equal(stored.status, "ignored");
    assert.equal(stored.reason, `unknown tenant ${ghost}`);
    assert.equal(stored.tenant_id, null);
  });

  test("no tenant id in the event: ignored", async () => {
    const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: null });
    await expectStatus(await stripeDelivery(event), "ignored", event);
    const [stored] = await storedEvents("stripe", event.id);
    assert.match(stored.reason!, /names no tenant/);
  });

  test("unknown price: ignored with the price named, the tenant unchanged", async () => {
    const tenant = await createTenant();
    const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: tenant.id, price: "price_999" });
    await expectStatus(await stripeDelivery(event), "ignored", event);
    const [stored] = await storedEvents("stripe", event.id);
    assert.equal(stored.reason, "unknown price price_999 (not in the price plans)");
    assert.equal(stored.tenant_id, tenant.id, "the owner sees it among their events");
    const billing = await tenantBilling(tenant.id);
    assert.equal(billing.plan, null);
    assert.equal(billing.subscription_status, null);
  });

  test("an event type with no billing effect: ignored, kept", async () => {
    const tenant = await createTenant();
    const event = {
      id: `evt_cust_${tenant.id.slice(0, 8)}`,
      object: "event",
      created: nowSeconds(),
      type: "customer.created",
      data: { object: { object: "customer", metadata: { tenant_id: tenant.id } } },
    };
    await expectStatus(await stripeDelivery(event), "ignored", event);
    const [stored] = await storedEvents("stripe", event.id);
    assert.equal(stored.reason, "customer.created does not change billing");
    assert.equal((await tenantBilling(tenant.id)).billing_event_at, null);
  });

  test("a subscription event whose object cannot be read: ignored with the reason, not refused", async () => {
    const tenant = await createTenant();
    const event = stripeSubscriptionEvent("customer.subscription.updated", { tenantId: tenant.id });
    delete (event.data.object as { status?: string }).status;
    await expectStatus(await stripeDelivery(event), "ignored", event);
    const [stored] = await storedEvents("stripe", event.id);
    assert.match(stored.reason!, /^unreadable event: subscription event without a status/);
    assert.equal((await tenantBilling(tenant.id)).subscription_status, null);
  });
});

describe("routing, configuration and limits", () => {
  test("an unknown provider is 404 NOT_FOUND for any method, configured or not", async () => {
    for (const base of [server.url, BASE_URL]) {
      for (const method of ["POST", "GET"]) {
        for (const path of ["/api/billing/acme/webhook", "/api/billing/Stripe/webhook"]) {
          const res = await fetch(base + path, { method, body: method === "POST" ? "{}" : undefined });
          assert.equal(res.status, 404, `${method} ${path}`);
          assert.equal((await envelope(res)).error?.code, "NOT_FOUND");
        }
      }
    }
  });

  test("GET on a known provider is 405 with Allow: POST", async () => {
    const res = await fetch(`${server.url}/api/billing/stripe/webhook`);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "POST");
    assert.equal((await envelope(res)).error?.code, "METHOD_NOT_ALLOWED");
  });

  test("without configuration (the shared server): 503 BILLING_DISABLED for both, nothing stored, even when correctly signed", async () => {
    const tenant = await createTenant();
    const stripeEvent = stripeSubscriptionEvent("customer.subscription.created", { tenantId: tenant.id });
    const paddleEvent = paddleSubscriptionEvent("subscription.created", { tenantId: tenant.id });
    await expectRefused(
      await deliver(BASE_URL, "stripe", { body: JSON.stringify(stripeEvent) }),
      503,
      "BILLING_DISABLED",
      "stripe",
      stripeEvent.id,
    );
    await expectRefused(
      await deliver(BASE_URL, "paddle", { body: JSON.stringify(paddleEvent) }),
      503,
      "BILLING_DISABLED",
      "paddle",
      paddleEvent.event_id,
    );
    assert.equal((await tenantBilling(tenant.id)).plan, null);
  });

  test("a secret without price plans, or price plans without a secret: 503 BILLING_DISABLED", async () => {
    const partial = await startServer({
      BILLING_STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
      BILLING_PADDLE_PRICE_PLANS: "pri_01pro:pro",
    });
    try {
      const stripeEvent = stripeSubscriptionEvent("customer.subscription.created", {
        tenantId: (await createTenant()).id,
      });
      const paddleEvent = paddleSubscriptionEvent("subscription.created", { tenantId: (await createTenant()).id });
      await expectRefused(
        await deliver(partial.url, "stripe", { body: JSON.stringify(stripeEvent) }),
        503,
        "BILLING_DISABLED",
        "stripe",
        stripeEvent.id,
      );
      await expectRefused(
        await deliver(partial.url, "paddle", { body: JSON.stringify(paddleEvent) }),
        503,
        "BILLING_DISABLED",
        "paddle",
        paddleEvent.event_id,
      );
    } finally {
      await partial.stop();
    }
  });

  test("a body over 256 KiB: 413 PAYLOAD_TOO_LARGE, nothing stored", async () => {
    const event = {
      ...stripeSubscriptionEvent("customer.subscription.created", { tenantId: (await createTenant()).id }),
      padding: "x".repeat(256 * 1024),
    };
    await expectRefused(await stripeDelivery(event), 413, "PAYLOAD_TOO_LARGE", "stripe", event.id);
  });

  test("a body over 256 KiB without Content-Length (streamed): 413, nothing stored", async () => {
    const event = {
      ...stripeSubscriptionEvent("customer.subscription.created", { tenantId: (await createTenant()).id }),
      padding: "x".repeat(300 * 1024),
    };
    const bytes = new TextEncoder().encode(JSON.stringify(event));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 16 * 1024) controller.enqueue(bytes.slice(i, i + 16 * 1024));
        controller.close();
      },
    });
    const res = await fetch(`${server.url}/api/billing/stripe/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": stripeHeader(JSON.stringify(event)) },
      body: stream,
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    await expectRefused(res, 413, "PAYLOAD_TOO_LARGE", "stripe", event.id);
  });

  test("a body of exactly 256 KiB is accepted", async () => {
    const tenant = await createTenant();
    const event = stripeSubscriptionEvent("customer.subscription.created", { tenantId: tenant.id });
    const bare = JSON.stringify({ ...event, padding: "" });
    const body = JSON.stringify({ ...event, padding: "x".repeat(256 * 1024 - Buffer.byteLength(bare)) });
    assert.equal(Buffer.byteLength(body), 256 * 1024);
    await expectStatus(await deliver(server.url, "stripe", { body }), "processed", event);
  });
});

describe("Paddle Billing", () => {
  const paddleDelivery = (event: object, header?: string | null) =>
    deliver(server.url, "paddle", { body: JSON.stringify(event), header });
  const sign = (body: string, ts: number, secret = PADDLE_SECRET) =>
    `ts=${ts};h1=${createHmac("sha256", secret).update(`${ts}:${body}`).digest("hex")}`;

  test("a signed subscription.created: processed; Paddle's own SDK agrees the header is valid", async () => {
    const tenant = await createTenant();
    const periodEnd = nowSeconds() + 30 * 86400;
    const event = paddleSubscriptionEvent("subscription.created", {
      tenantId: tenant.id,
      price: "pri_01starter",
      status: "active",
      periodEnd,
    });
    const body = JSON.stringify(event);
    const header = sign(body, nowSeconds());
    NodeRuntime.initialize();
    assert.equal(await new Webhooks().isSignatureValid(body, PADDLE_SECRET, header), true, "Paddle's SDK accepts it");
    await expectStatus(await deliver(server.url, "paddle", { body, header }), "processed", event);
    const billing = await tenantBilling(tenant.id);
    assert.equal(billing.plan, "starter");
    assert.equal(billing.subscription_status, "active");
    assert.equal(billing.current_period_end?.getTime(), periodEnd * 1000);
    assert.equal(billing.billing_provider, "paddle");
  });

  test("301 s old, 301 s ahead, wrong secret, no header, Stripe's syntax: 400, nothing stored; 299 s old accepted", async () => {
    const refused = [
      (body: string) => sign(body, nowSeconds() - 301),
      (body: string) => sign(body, Math.ceil(Date.now() / 1000) + 301),
      (body: string) => sign(body, nowSeconds(), "pdl_ntf_someone_elses_secret_0123456789"),
      () => null,
      (body: string) => sign(body, nowSeconds()).replace("ts=", "t=").replace(";h1=", ",v1="),
    ];
    for (const header of refused) {
      const event = paddleSubscriptionEvent("subscription.created", { tenantId: (await createTenant()).id });
      const body = JSON.stringify(event);
      await expectRefused(
        await deliver(server.url, "paddle", { body, header: header(body) }),
        400,
        "SIGNATURE_INVALID",
        "paddle",
        event.event_id,
      );
    }
    const event = paddleSubscriptionEvent("subscription.created", { tenantId: (await createTenant()).id });
    const body = JSON.stringify(event);
    await expectStatus(
      await deliver(server.url, "paddle", { body, header: sign(body, nowSeconds() - 299) }),
      "processed",
      event,
    );
  });

  test("a bad h1 followed by a good h1: accepted", async () => {
    const event = paddleSubscriptionEvent("subscription.created", { tenantId: (await createTenant()).id });
    const body = JSON.stringify(event);
    const [ts, h1] = sign(body, nowSeconds()).split(";");
    await expectStatus(
      await deliver(server.url, "paddle", { body, header: `${ts};h1=${"f".repeat(64)};${h1}` }),
      "processed",
      event,
    );
  });

  test("twice, then ten at once: one row each, repeats are duplicates", async () => {
    const tenant = await createTenant();
    const event = paddleSubscriptionEvent("subscription.created", { tenantId: tenant.id });
    await expectStatus(await paddleDelivery(event), "processed", event);
    await expectStatus(await paddleDelivery(event), "duplicate", event);

    const burst = paddleSubscriptionEvent("subscription.updated", { tenantId: tenant.id, status: "past_due" });
    const body = JSON.stringify(burst);
    const header = sign(body, nowSeconds());
    const statuses = await Promise.all(
      Array.from(
        { length: 10 },
        async () => (await envelope(await deliver(server.url, "paddle", { body, header }))).data.status as string,
      ),
    );
    assert.equal(statuses.filter((s) => s === "processed").length, 1);
    assert.equal(statuses.filter((s) => s === "duplicate").length, 9);
    assert.equal((await storedEvents("paddle", event.event_id)).length, 1);
    assert.equal((await storedEvents("paddle", burst.event_id)).length, 1);
    assert.equal((await tenantBilling(tenant.id)).subscription_status, "past_due");
  });

  test("subscription.updated, then an older subscription.created: the newer state stays", async () => {
    const tenant = await createTenant();
    const now = nowSeconds();
    const updated = paddleSubscriptionEvent("subscription.updated", {
      tenantId: tenant.id,
      price: "pri_01pro",
      status: "active",
      created: now - 10,
    });
    const created = paddleSubscriptionEvent("subscription.created", {
      tenantId: tenant.id,
      price: "pri_01starter",
      status: "trialing",
      created: now - 20,
    });
    await expectStatus(await paddleDelivery(updated), "processed", updated);
    await expectStatus(await paddleDelivery(created), "ignored", created);
    const billing = await tenantBilling(tenant.id);
    assert.equal(billing.plan, "pro");
    assert.equal(billing.subscription_status, "active");
  });

  test("unknown price: ignored with the reason; malformed JSON: 400", async () => {
    const tenant = await createTenant();
    const event = paddleSubscriptionEvent("subscription.created", { tenantId: tenant.id, price: "pri_01unknown" });
    await expectStatus(await paddleDelivery(event), "ignored", event);
    assert.equal(
      (await storedEvents("paddle", event.event_id))[0].reason,
      "unknown price pri_01unknown (not in the price plans)",
    );

    const res = await deliver(server.url, "paddle", { body: "{not json" });
    assert.equal(res.status, 400);
    assert.equal((await envelope(res)).error?.code, "BAD_REQUEST");
  });
});

describe("NUL bytes (issue 24)", () => {
  test("a correctly signed event holding \\u0000 is answered 200, stored once as received, and a repeat is a duplicate", async () => {
    const tenant = await createTenant();
    const event = stripeSubscriptionEvent("customer.subscription.updated", {
      tenantId: tenant.id,
      price: "price_123",
      status: "active",
    });
    const withNul = {
      ...event,
      data: { ...event.data, object: { ...event.data.object, description: "Plan\u0000note" } },
    };
    const body = JSON.stringify(withNul);
    assert.ok(body.includes("\\u0000"));
    await expectStatus(await stripeDelivery(withNul), "processed", withNul);
    const stored = await storedEvents("stripe", event.id);
    assert.equal(stored.length, 1);
    assert.equal(stored[0].body, body, "the raw body is kept byte for byte");
    assert.deepEqual(stored[0].payload, withNul);
    await expectStatus(await stripeDelivery(withNul), "duplicate", withNul);
    assert.equal((await storedEvents("stripe", event.id)).length, 1);
  });
});
