// Billing event normalisation (CONTRACT section 8). Payloads are shaped on the providers'
// documented examples: Stripe's API reference objects (both the pre-2025 shape and the
// 2025-03-31 "basil" shape, which moved period ends onto items and invoice prices into
// pricing), and Paddle Billing's notification fixtures from PaddleHQ/paddle-python-sdk
// (tests/Unit/Entities/_fixtures/notification/entity/*.json), trimmed.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Webhooks } from "@paddle/paddle-node-sdk";
import { normaliseEvent, type NormalisedEvent } from "../../app/services/billing/events.server";

const TENANT = "3f0c8f5e-8d7a-4c51-9a47-6f1b2f3c9d10";
const TENANT_2 = "01939d4e-7b3a-7c2e-8f10-5a6b7c8d9e0f"; // a v7 UUID
const at = (unix: number) => new Date(unix * 1000);

function expectOk(result: ReturnType<typeof normaliseEvent>): NormalisedEvent {
  if (!result.ok) assert.fail(`expected ok, got: ${result.reason}`);
  return result.event;
}

function expectRefused(result: ReturnType<typeof normaliseEvent>, label: string): void {
  assert.equal(result.ok, false, label);
  if (!result.ok) assert.equal(typeof result.reason, "string");
}

// --- Stripe -------------------------------------------------------------------------------

function stripeEvent(type: string, object: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    id: "evt_1NG8Du2eZvKYlo2CUI79vXWy",
    object: "event",
    api_version: "2025-03-31.basil",
    created: 1_712_917_129,
    data: { object, previous_attributes: {} },
    livemode: false,
    pending_webhooks: 1,
    request: { id: "req_Rr7tHLtbgpZnmV", idempotency_key: "4b4a8b0e-6c8f-4a55-9a4c-9c1e6a0b3f21" },
    type,
    ...extra,
  };
}

// Subscription as sent by API 2025-03-31 and later: period on the item.
function stripeSubscription(overrides: Record<string, unknown> = {}) {
  return {
    id: "sub_1MowQVLkdIwHu7ixeRlqHVzs",
    object: "subscription",
    billing_cycle_anchor: 1_712_917_127,
    cancel_at_period_end: false,
    collection_method: "charge_automatically",
    created: 1_712_917_127,
    currency: "usd",
    customer: "cus_Na6dX7aXxi11N4",
    items: {
      object: "list",
      data: [
        {
          id: "si_Na6dzxczY5fwHx",
          object: "subscription_item",
          created: 1_712_917_128,
          current_period_start: 1_712_917_127,
          current_period_end: 1_715_509_127,
          metadata: {},
          price: {
            id: "price_1MowQULkdIwHu7ixraBm864M",
            object: "price",
            active: true,
            currency: "usd",
            product: "prod_Na6dGcTsmU0I4R",
            recurring: { interval: "month", interval_count: 1, usage_type: "licensed" },
            type: "recurring",
            unit_amount: 4900,
          },
          quantity: 1,
          subscription: "sub_1MowQVLkdIwHu7ixeRlqHVzs",
        },
      ],
      has_more: false,
      total_count: 1,
      url: "/v1/subscription_items?subscription=sub_1MowQVLkdIwHu7ixeRlqHVzs",
    },
    latest_invoice: "in_1MowQWLkdIwHu7ixuzkSPfKd",
    livemode: false,
    metadata: { tenant_id: TENANT },
    start_date: 1_712_917_127,
    status: "active",
    ...overrides,
  };
}

// Invoice as sent by API 2025-03-31 and later: tenant under parent.subscription_details,
// price under lines.data[].pricing.price_details.
function stripeInvoice(overrides: Record<string, unknown> = {}) {
  return {
    id: "in_1MtHbELkdIwHu7ixl4OzzPMv",
    object: "invoice",
    amount_due: 4900,
    amount_paid: 4900,
    amount_remaining: 0,
    billing_reason: "subscription_cycle",
    collection_method: "charge_automatically",
    created: 1_715_509_127,
    currency: "usd",
    customer: "cus_Na6dX7aXxi11N4",
    lines: {
      object: "list",
      data: [
        {
          id: "il_1MtHbELkdIwHu7ixEKbDnJ8O",
          object: "line_item",
          amount: 4900,
          currency: "usd",
          description: "1 × Pro (at $49.00 / month)",
          parent: {
            type: "subscription_item_details",
            subscription_item_details: {
              subscription: "sub_1MowQVLkdIwHu7ixeRlqHVzs",
              subscription_item: "si_Na6dzxczY5fwHx",
            },
          },
          period: { start: 1_715_509_127, end: 1_718_187_527 },
          pricing: {
            type: "price_details",
            price_details: { price: "price_1MowQULkdIwHu7ixraBm864M", product: "prod_Na6dGcTsmU0I4R" },
            unit_amount_decimal: "4900",
          },
          quantity: 1,
        },
      ],
      has_more: false,
      total_count: 1,
      url: "/v1/invoices/in_1MtHbELkdIwHu7ixl4OzzPMv/lines",
    },
    livemode: false,
    metadata: {},
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { metadata: { tenant_id: TENANT }, subscription: "sub_1MowQVLkdIwHu7ixeRlqHVzs" },
    },
    status: "paid",
    ...overrides,
  };
}

// Invoice as sent by API versions before 2025-03-31.
function stripeLegacyInvoice(overrides: Record<string, unknown> = {}) {
  return {
    id: "in_1NtHbELkdIwHu7ixa9Y2v8xq",
    object: "invoice",
    amount_due: 1900,
    amount_paid: 1900,
    customer: "cus_Na6dX7aXxi11N4",
    lines: {
      object: "list",
      data: [
        {
          id: "il_1NtHbELkdIwHu7ixQ0cWcW1b",
          object: "line_item",
          amount: 1900,
          period: { start: 1_709_251_200, end: 1_711_929_600 },
          plan: { id: "price_1LstarterMonthly", object: "plan", interval: "month" },
          price: { id: "price_1LstarterMonthly", object: "price", unit_amount: 1900 },
          subscription: "sub_1LstarterSub",
          type: "subscription",
        },
      ],
      has_more: false,
    },
    metadata: {},
    status: "paid",
    subscription: "sub_1LstarterSub",
    subscription_details: { metadata: { tenant_id: TENANT } },
    ...overrides,
  };
}

function stripeCheckoutSession(overrides: Record<string, unknown> = {}) {
  return {
    id: "cs_test_a11YYufWQzNY63zpQ6QSNRQhkUpVph4WRmzW0zWJO2znZKdVujZ0N0S22u",
    object: "checkout.session",
    amount_total: 4900,
    client_reference_id: TENANT,
    currency: "usd",
    customer: "cus_Na6dX7aXxi11N4",
    livemode: false,
    metadata: {},
    mode: "subscription",
    payment_status: "paid",
    status: "complete",
    subscription: "sub_1MowQVLkdIwHu7ixeRlqHVzs",
    success_url: "https://example.com/settings/billing?checkout=success",
    ...overrides,
  };
}

describe("Stripe events", () => {
  it("customer.subscription.created (2025 shape): status, price, item period end, tenant", () => {
    const e = expectOk(normaliseEvent("stripe", stripeEvent("customer.subscription.created", stripeSubscription())));
    assert.deepEqual(e, {
      eventId: "evt_1NG8Du2eZvKYlo2CUI79vXWy",
      type: "customer.subscription.created",
      occurredAt: at(1_712_917_129),
      kind: "subscription",
      tenantId: TENANT,
      priceId: "price_1MowQULkdIwHu7ixraBm864M",
      subscriptionStatus: "active",
      currentPeriodEnd: at(1_715_509_127),
    });
  });

  it("customer.subscription.updated (pre-2025 shape): top-level current_period_end wins", () => {
    const sub = stripeSubscription({ status: "past_due", current_period_end: 1_720_000_000 });
    const e = expectOk(normaliseEvent("stripe", stripeEvent("customer.subscription.updated", sub)));
    assert.equal(e.kind, "subscription");
    assert.equal(e.subscriptionStatus, "past_due");
    assert.deepEqual(e.currentPeriodEnd, at(1_720_000_000));
  });

  it("customer.subscription.deleted is always canceled", () => {
    for (const status of ["canceled", "incomplete_expired", "active"]) {
      const e = expectOk(
        normaliseEvent("stripe", stripeEvent("customer.subscription.deleted", stripeSubscription({ status }))),
      );
      assert.equal(e.kind, "subscription");
      assert.equal(e.subscriptionStatus, "canceled", `from ${status}`);
    }
  });

  it("a subscription event without a status is refused", () => {
    const { status: _status, ...withoutStatus } = stripeSubscription();
    const result = normaliseEvent("stripe", stripeEvent("customer.subscription.updated", withoutStatus));
    expectRefused(result, "no status");
    // Still identifiable, so the intake can store it as ignored instead of refusing it.
    assert.equal(result.ok === false && result.envelope?.eventId, "evt_1NG8Du2eZvKYlo2CUI79vXWy");
    assert.equal(result.ok === false && result.envelope?.type, "customer.subscription.updated");
  });

  it("an event without its envelope is refused with no envelope to store", () => {
    const result = normaliseEvent("stripe", { type: "customer.subscription.updated", data: { object: {} } });
    expectRefused(result, "no id");
    assert.equal(result.ok === false && result.envelope, undefined);
  });

  it("invoice.paid (2025 shape): parent.subscription_details tenant, pricing price, line period end", () => {
    const e = expectOk(normaliseEvent("stripe", stripeEvent("invoice.paid", stripeInvoice())));
    assert.equal(e.kind, "invoice_paid");
    assert.equal(e.tenantId, TENANT);
    assert.equal(e.priceId, "price_1MowQULkdIwHu7ixraBm864M");
    assert.equal(e.subscriptionStatus, "active");
    assert.deepEqual(e.currentPeriodEnd, at(1_718_187_527));
  });

  it("invoice.payment_succeeded (pre-2025 shape): subscription_details tenant, line price object", () => {
    const e = expectOk(normaliseEvent("stripe", stripeEvent("invoice.payment_succeeded", stripeLegacyInvoice())));
    assert.equal(e.kind, "invoice_paid");
    assert.equal(e.tenantId, TENANT);
    assert.equal(e.priceId, "price_1LstarterMonthly");
    assert.equal(e.subscriptionStatus, "active");
    assert.deepEqual(e.currentPeriodEnd, at(1_711_929_600));
  });

  it("invoice.payment_failed: past_due", () => {
    const e = expectOk(
      normaliseEvent(
        "stripe",
        stripeEvent("invoice.payment_failed", stripeInvoice({ status: "open", amount_paid: 0 })),
      ),
    );
    assert.equal(e.kind, "payment_failed");
    assert.equal(e.subscriptionStatus, "past_due");
    assert.equal(e.tenantId, TENANT);
    assert.equal(e.priceId, "price_1MowQULkdIwHu7ixraBm864M");
  });

  it("invoice tenant precedence: invoice metadata, then subscription_details, then parent", () => {
    const all = stripeInvoice({
      metadata: { tenant_id: TENANT_2 },
      subscription_details: { metadata: { tenant_id: "11111111-1111-4111-8111-111111111111" } },
    });
    assert.equal(expectOk(normaliseEvent("stripe", stripeEvent("invoice.paid", all))).tenantId, TENANT_2);
    const noInvoiceMeta = stripeInvoice({ subscription_details: { metadata: { tenant_id: TENANT_2 } } });
    assert.equal(expectOk(normaliseEvent("stripe", stripeEvent("invoice.paid", noInvoiceMeta))).tenantId, TENANT_2);
    // A non-UUID in a higher-precedence place does not hide a valid one lower down.
    const junkFirst = stripeInvoice({ metadata: { tenant_id: "acme" } });
    assert.equal(expectOk(normaliseEvent("stripe", stripeEvent("invoice.paid", junkFirst))).tenantId, TENANT);
  });

  it("checkout.session.completed in subscription mode: subscription, active, tenant from client_reference_id", () => {
    const e = expectOk(normaliseEvent("stripe", stripeEvent("checkout.session.completed", stripeCheckoutSession())));
    assert.equal(e.kind, "subscription");
    assert.equal(e.subscriptionStatus, "active");
    assert.equal(e.tenantId, TENANT);
    assert.equal(e.priceId, null);
    assert.equal(e.currentPeriodEnd, null);
  });

  it("checkout.session.completed falls back to metadata.tenant_id", () => {
    const session = stripeCheckoutSession({ client_reference_id: null, metadata: { tenant_id: TENANT_2 } });
    assert.equal(
      expectOk(normaliseEvent("stripe", stripeEvent("checkout.session.completed", session))).tenantId,
      TENANT_2,
    );
  });

  it("checkout.session.completed in payment mode is other", () => {
    const e = expectOk(
      normaliseEvent(
        "stripe",
        stripeEvent("checkout.session.completed", stripeCheckoutSession({ mode: "payment", subscription: null })),
      ),
    );
    assert.equal(e.kind, "other");
    assert.equal(e.subscriptionStatus, null);
  });

  it("an unknown type is other with no facts", () => {
    const customer = { id: "cus_123", object: "customer", email: "test@stripe.com", metadata: { tenant_id: TENANT } };
    const e = expectOk(normaliseEvent("stripe", stripeEvent("customer.created", customer)));
    assert.deepEqual(
      {
        kind: e.kind,
        tenantId: e.tenantId,
        priceId: e.priceId,
        subscriptionStatus: e.subscriptionStatus,
        currentPeriodEnd: e.currentPeriodEnd,
      },
      { kind: "other", tenantId: null, priceId: null, subscriptionStatus: null, currentPeriodEnd: null },
    );
    assert.equal(e.type, "customer.created");
  });

  it("a tenant id that is not a UUID becomes null; an upper-case UUID is lower-cased", () => {
    for (const tenant_id of [
      "acme-plumbing",
      "42",
      "",
      `${TENANT} `,
      `{${TENANT}}`,
      TENANT.replace(/-/g, ""),
      "3f0c8f5e-8d7a-4c51-9a47-6f1b2f3c9d1g",
    ]) {
      const e = expectOk(
        normaliseEvent(
          "stripe",
          stripeEvent("customer.subscription.updated", stripeSubscription({ metadata: { tenant_id } })),
        ),
      );
      assert.equal(e.tenantId, null, JSON.stringify(tenant_id));
    }
    const numeric = expectOk(
      normaliseEvent(
        "stripe",
        stripeEvent("customer.subscription.updated", stripeSubscription({ metadata: { tenant_id: 42 } })),
      ),
    );
    assert.equal(numeric.tenantId, null);
    const upper = expectOk(
      normaliseEvent(
        "stripe",
        stripeEvent(
          "customer.subscription.updated",
          stripeSubscription({ metadata: { tenant_id: TENANT.toUpperCase() } }),
        ),
      ),
    );
    assert.equal(upper.tenantId, TENANT);
  });

  it("optional fields of an odd shape degrade to null instead of failing", () => {
    const odd = stripeSubscription({ metadata: "tenant", items: { data: "none" }, current_period_end: "soon" });
    const e = expectOk(normaliseEvent("stripe", stripeEvent("customer.subscription.updated", odd)));
    assert.equal(e.tenantId, null);
    assert.equal(e.priceId, null);
    assert.equal(e.currentPeriodEnd, null);
    const noLines = expectOk(
      normaliseEvent("stripe", stripeEvent("invoice.paid", stripeInvoice({ lines: { data: [] } }))),
    );
    assert.equal(noLines.priceId, null);
    assert.equal(noLines.currentPeriodEnd, null);
  });

  it("refuses malformed envelopes", () => {
    const good = stripeEvent("invoice.paid", stripeInvoice());
    const cases: Array<[string, unknown]> = [
      ["null", null],
      ["string", JSON.stringify(good)],
      ["array", [good]],
      ["number", 7],
      ["no id", { ...good, id: undefined }],
      ["empty id", { ...good, id: "" }],
      ["numeric id", { ...good, id: 123 }],
      ["no type", { ...good, type: undefined }],
      ["created as string", { ...good, created: "1712917129" }],
      ["created in ms as float", { ...good, created: 1712917129.5 }],
      ["negative created", { ...good, created: -1 }],
      ["no data", { ...good, data: undefined }],
      ["data.object missing", { ...good, data: {} }],
      ["data.object array", { ...good, data: { object: [] } }],
      [
        "Paddle event sent to Stripe",
        { event_id: "evt_01", event_type: "subscription.created", occurred_at: "2024-04-12T10:18:49Z", data: {} },
      ],
    ];
    for (const [label, payload] of cases) expectRefused(normaliseEvent("stripe", payload), label);
  });
});

// --- Paddle Billing -----------------------------------------------------------------------

function paddleEvent(event_type: string, data: Record<string, unknown>) {
  return {
    event_id: "evt_01hv8x2acma2gz8he4s3rk7y6s",
    event_type,
    occurred_at: "2024-04-12T10:18:49.621022Z",
    notification_id: "ntf_01hv8x2af1vbsd3jtxtjh0ykdf",
    data,
  };
}

const PADDLE_PRICE = {
  id: "pri_01gsz8x8sawmvhz1pv30nge1ke",
  name: "Monthly (per seat)",
  type: "standard",
  status: "active",
  quantity: { maximum: 999, minimum: 1 },
  tax_mode: "account_setting",
  created_at: "2023-02-23T13:55:22.538367Z",
  product_id: "pro_01gsz4t5hdjse780zja8vvr7jg",
  unit_price: { amount: "3000", currency_code: "USD" },
  updated_at: "2024-04-11T13:54:52.254748Z",
  custom_data: null,
  description: "Monthly",
  import_meta: null,
  trial_period: null,
  billing_cycle: { interval: "month", frequency: 1 },
  unit_price_overrides: [],
};

function paddleSubscription(overrides: Record<string, unknown> = {}) {
  return {
    id: "sub_01hv8x29kz0t586xy6zn1a62ny",
    items: [
      {
        price: PADDLE_PRICE,
        status: "active",
        quantity: 10,
        recurring: true,
        created_at: "2024-04-12T10:18:48.831Z",
        updated_at: "2024-04-12T10:18:48.831Z",
        trial_dates: null,
        next_billed_at: "2024-05-12T10:18:47.635628Z",
        previously_billed_at: "2024-04-12T10:18:47.635628Z",
      },
    ],
    status: "active",
    discount: null,
    paused_at: null,
    address_id: "add_01hv8gq3318ktkfengj2r75gfx",
    created_at: "2024-04-12T10:18:48.831Z",
    started_at: "2024-04-12T10:18:47.635628Z",
    updated_at: "2024-04-12T10:18:48.831Z",
    business_id: null,
    canceled_at: null,
    custom_data: { tenant_id: TENANT },
    customer_id: "ctm_01hv6y1jedq4p1n0yqn5ba3ky4",
    import_meta: null,
    billing_cycle: { interval: "month", frequency: 1 },
    currency_code: "USD",
    next_billed_at: "2024-05-12T10:18:47.635628Z",
    transaction_id: "txn_01hv8wptq8987qeep44cyrewp9",
    billing_details: null,
    collection_mode: "automatic",
    first_billed_at: "2024-04-12T10:18:47.635628Z",
    scheduled_change: null,
    current_billing_period: { ends_at: "2024-05-12T10:18:47.635628Z", starts_at: "2024-04-12T10:18:47.635628Z" },
    ...overrides,
  };
}

function paddleTransaction(overrides: Record<string, unknown> = {}) {
  return {
    id: "txn_01hv8wptq8987qeep44cyrewp9",
    items: [{ price: PADDLE_PRICE, quantity: 10, proration: null }],
    origin: "subscription_recurring",
    status: "completed",
    payments: [
      {
        amount: "32662",
        status: "captured",
        created_at: "2024-05-12T10:18:50.118247Z",
        error_code: null,
        captured_at: "2024-05-12T10:18:52.412Z",
        method_details: {
          card: { type: "visa", last4: "4242", expiry_year: 2027, expiry_month: 1, cardholder_name: "Sam Miller" },
          type: "card",
        },
        payment_method_id: "paymtd_01hv8x1tpjfnttxddw73xnqx6s",
        payment_attempt_id: "d8d8a9b1-2f0e-4a7e-9a5b-5a3c1e5b9a11",
        stored_payment_method_id: "a78ece50-356f-4e0c-b72d-ad5368b0a0d9",
      },
    ],
    billed_at: "2024-05-12T10:18:48.294633Z",
    address_id: "add_01hv8gq3318ktkfengj2r75gfx",
    created_at: "2024-05-12T10:18:48.831Z",
    invoice_id: "inv_01hv8x3m2akfg1yq8bvv3z1f4a",
    updated_at: "2024-05-12T10:18:52.9Z",
    business_id: null,
    custom_data: { tenant_id: TENANT },
    customer_id: "ctm_01hv6y1jedq4p1n0yqn5ba3ky4",
    discount_id: null,
    currency_code: "USD",
    billing_period: { ends_at: "2024-06-12T10:18:47.635628Z", starts_at: "2024-05-12T10:18:47.635628Z" },
    invoice_number: "325-10566",
    billing_details: null,
    collection_mode: "automatic",
    subscription_id: "sub_01hv8x29kz0t586xy6zn1a62ny",
    ...overrides,
  };
}

describe("Paddle Billing events", () => {
  it("subscription.created: status, first item's price, billing period end, tenant", () => {
    const e = expectOk(normaliseEvent("paddle", paddleEvent("subscription.created", paddleSubscription())));
    assert.deepEqual(e, {
      eventId: "evt_01hv8x2acma2gz8he4s3rk7y6s",
      type: "subscription.created",
      occurredAt: new Date("2024-04-12T10:18:49.621Z"),
      kind: "subscription",
      tenantId: TENANT,
      priceId: "pri_01gsz8x8sawmvhz1pv30nge1ke",
      subscriptionStatus: "active",
      currentPeriodEnd: new Date("2024-05-12T10:18:47.635Z"),
    });
  });

  it("every subscription lifecycle event takes data.status", () => {
    const cases: Array<[string, string]> = [
      ["subscription.updated", "active"],
      ["subscription.activated", "active"],
      ["subscription.canceled", "canceled"],
      ["subscription.past_due", "past_due"],
      ["subscription.paused", "paused"],
      ["subscription.resumed", "active"],
    ];
    for (const [type, status] of cases) {
      const e = expectOk(normaliseEvent("paddle", paddleEvent(type, paddleSubscription({ status }))));
      assert.equal(e.kind, "subscription", type);
      assert.equal(e.subscriptionStatus, status, type);
      assert.equal(e.tenantId, TENANT, type);
    }
  });

  it("a subscription event without a status is refused", () => {
    const result = normaliseEvent("paddle", paddleEvent("subscription.updated", paddleSubscription({ status: null })));
    expectRefused(result, "null status");
    assert.equal(result.ok === false && result.envelope?.type, "subscription.updated");
  });

  it("transaction.completed and transaction.paid: invoice_paid, active, price, billing period end", () => {
    for (const type of ["transaction.completed", "transaction.paid"]) {
      const e = expectOk(normaliseEvent("paddle", paddleEvent(type, paddleTransaction())));
      assert.equal(e.kind, "invoice_paid", type);
      assert.equal(e.subscriptionStatus, "active", type);
      assert.equal(e.tenantId, TENANT, type);
      assert.equal(e.priceId, "pri_01gsz8x8sawmvhz1pv30nge1ke", type);
      assert.deepEqual(e.currentPeriodEnd, new Date("2024-06-12T10:18:47.635Z"), type);
    }
  });

  it("transaction.payment_failed: payment_failed, past_due (fixture without custom_data or period)", () => {
    const failed = paddleTransaction({ status: "past_due", custom_data: null, billing_period: null });
    const e = expectOk(normaliseEvent("paddle", paddleEvent("transaction.payment_failed", failed)));
    assert.equal(e.kind, "payment_failed");
    assert.equal(e.subscriptionStatus, "past_due");
    assert.equal(e.tenantId, null);
    assert.equal(e.currentPeriodEnd, null);
    assert.equal(e.priceId, "pri_01gsz8x8sawmvhz1pv30nge1ke");
  });

  it("reads items[].price_id when the price object is absent", () => {
    const txn = paddleTransaction({ items: [{ price_id: "pri_01h1vjfevh5etwq3rb416a23h2", quantity: 1 }] });
    assert.equal(
      expectOk(normaliseEvent("paddle", paddleEvent("transaction.completed", txn))).priceId,
      "pri_01h1vjfevh5etwq3rb416a23h2",
    );
  });

  it("an unknown type is other with no facts", () => {
    for (const type of ["customer.created", "transaction.created", "subscription.trialing", "adjustment.updated"]) {
      const e = expectOk(normaliseEvent("paddle", paddleEvent(type, paddleSubscription())));
      assert.equal(e.kind, "other", type);
      assert.equal(e.tenantId, null, type);
      assert.equal(e.subscriptionStatus, null, type);
    }
  });

  it("a custom_data tenant id that is not a UUID becomes null", () => {
    for (const custom_data of [{ tenant_id: "acme" }, { tenant_id: 7 }, { tenantId: TENANT }, null, "x"]) {
      const e = expectOk(
        normaliseEvent("paddle", paddleEvent("subscription.updated", paddleSubscription({ custom_data }))),
      );
      assert.equal(e.tenantId, null, JSON.stringify(custom_data));
    }
  });

  it("accepts occurred_at with an offset and keeps the instant", () => {
    const e = expectOk(
      normaliseEvent("paddle", {
        ...paddleEvent("subscription.updated", paddleSubscription()),
        occurred_at: "2024-04-12T12:18:49.621+02:00",
      }),
    );
    assert.deepEqual(e.occurredAt, new Date("2024-04-12T10:18:49.621Z"));
  });

  it("refuses malformed envelopes", () => {
    const good = paddleEvent("subscription.updated", paddleSubscription());
    const cases: Array<[string, unknown]> = [
      ["undefined", undefined],
      ["array", [good]],
      ["no event_id", { ...good, event_id: undefined }],
      ["numeric event_id", { ...good, event_id: 1 }],
      ["no event_type", { ...good, event_type: "" }],
      ["occurred_at not a date", { ...good, occurred_at: "yesterday" }],
      ["occurred_at as unix seconds", { ...good, occurred_at: 1712917129 }],
      ["occurred_at impossible date", { ...good, occurred_at: "2024-02-31T10:00:00Z" }],
      ["data missing", { ...good, data: undefined }],
      ["data null", { ...good, data: null }],
      ["Stripe event sent to Paddle", stripeEvent("invoice.paid", stripeInvoice())],
    ];
    for (const [label, payload] of cases) expectRefused(normaliseEvent("paddle", payload), label);
  });

  // Paddle's own SDK turns the same payloads into typed events: both must read the same
  // tenant, price and period, which shows the fixtures have the shape Paddle sends.
  it("agrees with @paddle/paddle-node-sdk's reading of the same payloads", () => {
    const sub = paddleEvent("subscription.created", paddleSubscription());
    const sdkSub = Webhooks.fromJson(sub as never) as unknown as {
      eventId: string;
      data: {
        status: string;
        customData: { tenant_id?: string } | null;
        items: Array<{ price: { id: string } }>;
        currentBillingPeriod: { endsAt: string };
      };
    };
    const ours = expectOk(normaliseEvent("paddle", sub));
    assert.equal(sdkSub.eventId, ours.eventId);
    assert.equal(sdkSub.data.status, ours.subscriptionStatus);
    assert.equal(sdkSub.data.customData?.tenant_id, ours.tenantId);
    assert.equal(sdkSub.data.items[0].price.id, ours.priceId);
    assert.deepEqual(new Date(sdkSub.data.currentBillingPeriod.endsAt), ours.currentPeriodEnd);

    const txn = paddleEvent("transaction.completed", paddleTransaction());
    const sdkTxn = Webhooks.fromJson(txn as never) as unknown as {
      data: {
        customData: { tenant_id?: string } | null;
        items: Array<{ price: { id: string } }>;
        billingPeriod: { endsAt: string };
      };
    };
    const oursTxn = expectOk(normaliseEvent("paddle", txn));
    assert.equal(sdkTxn.data.customData?.tenant_id, oursTxn.tenantId);
    assert.equal(sdkTxn.data.items[0].price.id, oursTxn.priceId);
    assert.deepEqual(new Date(sdkTxn.data.billingPeriod.endsAt), oursTxn.currentPeriodEnd);
  });
});

describe("normaliseEvent", () => {
  it("refuses an unknown provider without throwing", () => {
    expectRefused(
      normaliseEvent("braintree" as never, stripeEvent("invoice.paid", stripeInvoice())),
      "unknown provider",
    );
  });

  it("does not throw on hostile payloads", () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error("boom");
        },
        ownKeys() {
          throw new Error("boom");
        },
      },
    );
    assert.doesNotThrow(() => normaliseEvent("stripe", hostile));
    assert.doesNotThrow(() => normaliseEvent("paddle", hostile));
    expectRefused(normaliseEvent("stripe", hostile), "proxy");
  });
});
