// Billing webhook signatures (CONTRACT section 8), checked against vectors and code
// written by the providers themselves rather than only against our own signer.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import Stripe from "stripe";
import { NodeRuntime, Webhooks } from "@paddle/paddle-node-sdk";
import fc from "fast-check";
import {
  paddleSignatureHeader,
  stripeSignatureHeader,
  verifyPaddleSignature,
  verifyStripeSignature,
} from "../../app/services/billing/signatures.server";

const stripe = new Stripe("sk_test_x");

// --- Published vectors ------------------------------------------------------------------

// Stripe: stripe/stripe-dotnet, src/StripeTests/Services/Events/EventUtilityTest.cs with
// its fixture src/StripeTests/Resources/event_test_signature.json (LF line endings, final
// newline included). Secret "webhook_secret", t=1533204620. The v0 entry is not ours to
// check (Stripe's legacy test-mode scheme) and must simply be ignored.
const STRIPE_VECTOR = {
  secret: "webhook_secret",
  timestamp: 1533204620,
  header:
    "t=1533204620,v1=2220f87ef101a04665f11cdf770523143f875572008577fa0f20882ddb9cc3c7," +
    "v0=63f3a72374a733066c4be69ed7f8e5ac85c22c9f0a6a612ab9a025a9e4ee7eef",
  body: `{
  "id": "evt_123",
  "object": "event",
  "account": "acct_123",
  "api_version": "2017-05-25",
  "created": 1533204620,
  "data": {
    "object": {
      "id": "cus_123",
      "object": "customer",
      "created": 123456789,
      "email": "test@stripe.com",
      "livemode": false,
      "metadata": {}
    }
  },
  "livemode": false,
  "pending_webhooks": 1,
  "request": {
    "id": "req_123",
    "idempotency_key": "idempotency-key-123"
  },
  "type": "customer.created"
}
`,
};

// Paddle: PaddleHQ/paddle-python-sdk, tests/Unit/Notification/test_Verifier.py. Body
// "hello-world", ts=1696195954, a dummy h1 before the real one, and three secrets of
// which only the third signed it (their rotation test).
const PADDLE_VECTOR = {
  header: "ts=1696195954;h1=dummy;h1=d96299976a6eb066f484d7fde011ac56fc32b38fc9940bc419d6e537fdc6ef02",
  body: "hello-world",
  timestamp: 1696195954,
  secrets: [
    "pdl_ntf_01hbpjmytsa32fhr36nqgc3kgb_TjIG2BXbm83HPXqNfziwe506sBEdqL/4",
    "pdl_ntf_01hbpjmytsa32fhr36nqgc3kgb_vB/yIOnTOCWIvpBadM5jzBZPHc7OmdSo",
    "pdl_ntf_01hbpjmytsa32fhr36nqgc3kgb_WvRO0eL4Bj9rgYYIBZY6wZhG4EHy9jzh",
  ],
};

const SECRET = "whsec_test_secret_for_unit_tests";
const OTHER_SECRET = "whsec_a_different_secret";
const T = 1_760_000_000;
const BODY = JSON.stringify({ id: "evt_1", object: "event", type: "invoice.paid" }, null, 2);
const bytes = (s: string) => Buffer.from(s, "utf8");

// Providers differ only in syntax; the rules are shared, so each rule runs for both.
const providers = [
  {
    name: "Stripe",
    verify: verifyStripeSignature,
    sign: (body: string, secret: string, t: number) =>
      stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: t }),
    header: (t: string | number, sigs: string[], scheme = "v1") =>
      [`t=${t}`, ...sigs.map((s) => `${scheme}=${s}`)].join(","),
    digest: (body: string, secret: string, t: number) =>
      createHmac("sha256", secret).update(`${t}.${body}`).digest("hex"),
    otherScheme: "v0",
  },
  {
    name: "Paddle",
    verify: verifyPaddleSignature,
    sign: (body: string, secret: string, t: number) => paddleSignatureHeader(body, secret, t),
    header: (t: string | number, sigs: string[], scheme = "h1") =>
      [`ts=${t}`, ...sigs.map((s) => `${scheme}=${s}`)].join(";"),
    digest: (body: string, secret: string, t: number) =>
      createHmac("sha256", secret).update(`${t}:${body}`).digest("hex"),
    otherScheme: "h2",
  },
];

describe("published vectors", () => {
  it("accepts Stripe's vector from stripe-dotnet (v0 ignored)", () => {
    const r = verifyStripeSignature(
      bytes(STRIPE_VECTOR.body),
      STRIPE_VECTOR.header,
      [STRIPE_VECTOR.secret],
      STRIPE_VECTOR.timestamp + 100,
    );
    assert.deepEqual(r, { ok: true, timestamp: STRIPE_VECTOR.timestamp });
  });

  it("Stripe's own SDK agrees on that vector", () => {
    const event = stripe.webhooks.constructEvent(
      STRIPE_VECTOR.body,
      STRIPE_VECTOR.header,
      STRIPE_VECTOR.secret,
      300,
      undefined,
      (STRIPE_VECTOR.timestamp + 100) * 1000,
    );
    assert.equal(event.id, "evt_123");
  });

  it("rejects Stripe's vector once the body has lost its final newline", () => {
    const r = verifyStripeSignature(
      bytes(STRIPE_VECTOR.body.trimEnd()),
      STRIPE_VECTOR.header,
      [STRIPE_VECTOR.secret],
      STRIPE_VECTOR.timestamp,
    );
    assert.equal(r.ok, false);
  });

  it("accepts Paddle's vector from paddle-python-sdk (dummy h1 first, third secret of three)", () => {
    const r = verifyPaddleSignature(
      bytes(PADDLE_VECTOR.body),
      PADDLE_VECTOR.header,
      PADDLE_VECTOR.secrets,
      PADDLE_VECTOR.timestamp,
    );
    assert.deepEqual(r, { ok: true, timestamp: PADDLE_VECTOR.timestamp });
  });

  it("rejects Paddle's vector with only the secrets that did not sign it", () => {
    const r = verifyPaddleSignature(
      bytes(PADDLE_VECTOR.body),
      PADDLE_VECTOR.header,
      PADDLE_VECTOR.secrets.slice(0, 2),
      PADDLE_VECTOR.timestamp,
    );
    assert.equal(r.ok, false);
  });

  it("our header builders reproduce both vectors", () => {
    assert.ok(
      STRIPE_VECTOR.header.startsWith(
        stripeSignatureHeader(STRIPE_VECTOR.body, STRIPE_VECTOR.secret, STRIPE_VECTOR.timestamp),
      ),
    );
    assert.ok(
      PADDLE_VECTOR.header.endsWith(
        paddleSignatureHeader(PADDLE_VECTOR.body, PADDLE_VECTOR.secrets[2], PADDLE_VECTOR.timestamp).split(";")[1],
      ),
    );
  });
});

describe("cross-checks with the providers' SDKs", () => {
  it("a header from stripe.webhooks.generateTestHeaderString verifies", () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: SECRET, timestamp: T });
    assert.deepEqual(verifyStripeSignature(bytes(BODY), header, [SECRET], T), { ok: true, timestamp: T });
  });

  it("a header we build is accepted by stripe.webhooks.constructEvent", () => {
    const header = stripeSignatureHeader(BODY, SECRET, T);
    const event = stripe.webhooks.constructEvent(BODY, header, SECRET, 300, undefined, T * 1000);
    assert.equal(event.id, "evt_1");
  });

  // Paddle's Node SDK has no signer, checks against the real clock with a 5 s window and
  // reads only the last h1, so the comparison uses fresh single-h1 headers.
  it("@paddle/paddle-node-sdk and we agree on fresh headers", async () => {
    NodeRuntime.initialize();
    const webhooks = new Webhooks();
    const body = JSON.stringify({
      event_id: "evt_01hv8x2acma2gz8he4s3rk7y6s",
      event_type: "subscription.updated",
      occurred_at: new Date().toISOString(),
      notification_id: "ntf_01hv8x2af1vbsd3jtxtjh0ykdf",
      data: {
        id: "sub_01hv8x29kz0t586xy6zn1a62ny",
        status: "active",
        customer_id: "ctm_01hv6y1jedq4p1n0yqn5ba3ky4",
        address_id: "add_01hv8gq3318ktkfengj2r75gfx",
        currency_code: "USD",
        created_at: "2024-04-12T10:18:48.831Z",
        updated_at: "2024-04-12T10:18:48.831Z",
        collection_mode: "automatic",
        billing_cycle: { interval: "month", frequency: 1 },
        current_billing_period: { starts_at: "2024-04-12T10:18:47.635Z", ends_at: "2024-05-12T10:18:47.635Z" },
        items: [],
        custom_data: { tenant_id: "0b6f1c1e-3c1a-4a53-9d8e-1f2a3b4c5d6e" },
      },
    });
    const now = Math.floor(Date.now() / 1000);
    const cases = [
      { name: "ours, right secret", body, header: paddleSignatureHeader(body, SECRET, now), expected: true },
      { name: "wrong secret", body, header: paddleSignatureHeader(body, OTHER_SECRET, now), expected: false },
      {
        name: "tampered body",
        body: body.replace("updated", "canceled"),
        header: paddleSignatureHeader(body, SECRET, now),
        expected: false,
      },
    ];
    for (const c of cases) {
      const sdk = await webhooks.isSignatureValid(c.body, SECRET, c.header);
      const ours = verifyPaddleSignature(bytes(c.body), c.header, [SECRET], now).ok;
      assert.equal(sdk, c.expected, `SDK on ${c.name}`);
      assert.equal(ours, c.expected, `us on ${c.name}`);
    }
    const event = await webhooks.unmarshal(body, SECRET, paddleSignatureHeader(body, SECRET, now));
    assert.equal(event.eventId, "evt_01hv8x2acma2gz8he4s3rk7y6s");
  });
});

for (const p of providers) {
  describe(`${p.name} signature rules`, () => {
    const ok = (header: string | null, opts: { body?: string; secrets?: string[]; now?: number } = {}) =>
      p.verify(bytes(opts.body ?? BODY), header, opts.secrets ?? [SECRET], opts.now ?? T);

    it("accepts a correct signature and returns the signed timestamp", () => {
      assert.deepEqual(ok(p.sign(BODY, SECRET, T)), { ok: true, timestamp: T });
    });

    it("accepts a Uint8Array body as well as a Buffer", () => {
      const body = new Uint8Array(bytes(BODY));
      assert.equal(p.verify(body, p.sign(BODY, SECRET, T), [SECRET], T).ok, true);
    });

    it("accepts 299 s old and 299 s ahead, and exactly 300 s either way", () => {
      const header = p.sign(BODY, SECRET, T);
      for (const now of [T + 299, T - 299, T + 300, T - 300]) assert.equal(ok(header, { now }).ok, true, `now=${now}`);
    });

    it("rejects 301 s old and 301 s ahead", () => {
      const header = p.sign(BODY, SECRET, T);
      for (const now of [T + 301, T - 301]) {
        const r = ok(header, { now });
        assert.equal(r.ok, false, `now=${now}`);
        if (!r.ok) assert.match(r.reason, /tolerance/);
      }
    });

    it("honours a custom tolerance", () => {
      const header = p.sign(BODY, SECRET, T);
      assert.equal(p.verify(bytes(BODY), header, [SECRET], T + 10, 5).ok, false);
      assert.equal(p.verify(bytes(BODY), header, [SECRET], T + 5, 5).ok, true);
    });

    it("rejects a re-serialised body", () => {
      const header = p.sign(BODY, SECRET, T);
      const reserialised = JSON.stringify(JSON.parse(BODY));
      assert.notEqual(reserialised, BODY);
      assert.equal(ok(header, { body: reserialised }).ok, false);
    });

    it("rejects a signature made with another secret", () => {
      const r = ok(p.sign(BODY, OTHER_SECRET, T));
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.reason, /no signature matches/);
    });

    it("rejects a header carrying only another scheme's digest", () => {
      const header = p.header(T, [p.digest(BODY, SECRET, T)], p.otherScheme);
      const r = ok(header);
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.reason, /no (v1|h1) signature/);
    });

    it("rejects a missing header (null or empty)", () => {
      for (const h of [null, ""]) {
        const r = ok(h);
        assert.equal(r.ok, false);
        if (!r.ok) assert.match(r.reason, /missing/);
      }
    });

    it("accepts a bad digest followed by a good one", () => {
      const bad = p.digest(BODY, OTHER_SECRET, T);
      assert.equal(ok(p.header(T, [bad, p.digest(BODY, SECRET, T)])).ok, true);
      assert.equal(ok(p.header(T, ["not-hex", p.digest(BODY, SECRET, T)])).ok, true);
    });

    it("accepts the second secret of a rotation list, and rejects when it is gone", () => {
      const header = p.sign(BODY, OTHER_SECRET, T);
      assert.equal(ok(header, { secrets: [SECRET, OTHER_SECRET] }).ok, true);
      assert.equal(ok(header, { secrets: [SECRET] }).ok, false);
    });

    it("rejects when no secret is configured", () => {
      for (const secrets of [[], [""]]) assert.equal(ok(p.sign(BODY, SECRET, T), { secrets }).ok, false);
    });

    it("accepts an upper-case hex digest (same bytes)", () => {
      assert.equal(ok(p.header(T, [p.digest(BODY, SECRET, T).toUpperCase()])).ok, true);
    });

    it("rejects a non-numeric, negative, fractional or repeated timestamp", () => {
      const digest = p.digest(BODY, SECRET, T);
      for (const t of ["abc", "", "-5", "1.5", "0x10", "1e9", " 1", String(T) + "abc", "99999999999999999999"]) {
        assert.equal(ok(p.header(t, [digest])).ok, false, `t=${JSON.stringify(t)}`);
      }
      const sep = p.name === "Stripe" ? "," : ";";
      const key = p.name === "Stripe" ? "t" : "ts";
      assert.equal(ok(`${p.header(T, [digest])}${sep}${key}=${T}`).ok, false, "repeated timestamp");
    });

    it("rejects a header without a timestamp or without any digest", () => {
      const digest = p.digest(BODY, SECRET, T);
      const sigKey = p.name === "Stripe" ? "v1" : "h1";
      assert.equal(ok(`${sigKey}=${digest}`).ok, false);
      assert.equal(ok(p.header(T, [])).ok, false);
    });

    it("rejects a body that is not bytes", () => {
      const header = p.sign(BODY, SECRET, T);
      assert.equal(p.verify(BODY as unknown as Buffer, header, [SECRET], T).ok, false);
    });

    it("never throws on garbage headers", () => {
      const digest = p.digest(BODY, SECRET, T);
      const garbage: unknown[] = [
        undefined,
        42,
        {},
        [],
        "=",
        "==",
        ",,,",
        ";;;",
        "t",
        "t=",
        "ts=",
        "v1=",
        "h1=",
        "t=,v1=,v0=",
        "t,v1=,v0",
        "t,,",
        ",,",
        "ts=;h1=",
        `t=${T},v1=${digest.slice(0, 63)}`,
        `ts=${T};h1=${digest}0`,
        `t=${T},v1=zz${digest.slice(2)}`,
        "\u0000\uffff\ud800",
        "x".repeat(100_000),
        `t=${T},${"v1=".repeat(2000)}`,
        `ts=${T};h1=${digest};h1=${digest}`.replace(/;/g, ","),
      ];
      for (const h of garbage) {
        assert.doesNotThrow(() => p.verify(bytes(BODY), h as string, [SECRET], T));
        assert.equal(p.verify(bytes(BODY), h as string, [SECRET], T).ok, false, `header ${String(h).slice(0, 40)}`);
      }
      // Odd arguments elsewhere must not throw either.
      const header = p.sign(BODY, SECRET, T);
      assert.equal(p.verify(null as unknown as Buffer, header, [SECRET], T).ok, false);
      assert.equal(p.verify(bytes(BODY), header, null as unknown as string[], T).ok, false);
      assert.equal(p.verify(bytes(BODY), header, [SECRET], Number.NaN).ok, false);
      assert.equal(p.verify(bytes(BODY), header, [SECRET], T, -1).ok, false);
    });

    it("never throws and never accepts an arbitrary header (property)", () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 300 }), fc.uint8Array({ maxLength: 64 }), (header, body) => {
          const r = p.verify(body, header, [SECRET], T);
          return r.ok === false && typeof r.reason === "string";
        }),
        { numRuns: 500 },
      );
    });

    it("accepts any body signed correctly (property)", () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 512 }), fc.integer({ min: 0, max: 2 ** 33 }), (body, t) => {
          const header =
            p.name === "Stripe" ? stripeSignatureHeader(body, SECRET, t) : paddleSignatureHeader(body, SECRET, t);
          return p.verify(body, header, [SECRET], t).ok === true;
        }),
        { numRuns: 200 },
      );
    });
  });
}
