// Billing configuration from the environment (CONTRACT sections 0 and 8).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { billingConfig, isBillingProvider } from "../../app/utils/billing-config";
import { parseEnv } from "../../app/utils/env.server";

describe("isBillingProvider", () => {
  it("knows exactly stripe and paddle", () => {
    assert.equal(isBillingProvider("stripe"), true);
    assert.equal(isBillingProvider("paddle"), true);
    for (const s of ["Stripe", "PADDLE", "braintree", "", " stripe", "constructor", "__proto__", undefined, null, 1]) {
      assert.equal(isBillingProvider(s), false, String(s));
    }
  });
});

describe("billingConfig", () => {
  it("is enabled with a secret and a price map, trimming both lists", () => {
    const config = billingConfig("stripe", {
      BILLING_STRIPE_WEBHOOK_SECRET: " whsec_new , whsec_old ,",
      BILLING_STRIPE_PRICE_PLANS: "price_123:starter, price_456 : pro ",
    });
    assert.equal(config.enabled, true);
    if (!config.enabled) return;
    assert.deepEqual(config.secrets, ["whsec_new", "whsec_old"]);
    assert.deepEqual({ ...config.pricePlans }, { price_123: "starter", price_456: "pro" });
  });

  it("reads each provider's own variables", () => {
    const env = {
      BILLING_PADDLE_WEBHOOK_SECRET: "pdl_ntf_01hbpjmytsa32fhr36nqgc3kgb_secret",
      BILLING_PADDLE_PRICE_PLANS: "pri_01gsz8x8sawmvhz1pv30nge1ke:pro",
    };
    assert.equal(billingConfig("paddle", env).enabled, true);
    assert.deepEqual(billingConfig("stripe", env), { enabled: false });
  });

  it("is disabled without a secret or without price plans, or with blank values", () => {
    const cases: Array<Record<string, string | undefined>> = [
      {},
      { BILLING_STRIPE_WEBHOOK_SECRET: "whsec_x" },
      { BILLING_STRIPE_PRICE_PLANS: "price_1:pro" },
      { BILLING_STRIPE_WEBHOOK_SECRET: "", BILLING_STRIPE_PRICE_PLANS: "price_1:pro" },
      { BILLING_STRIPE_WEBHOOK_SECRET: " , ", BILLING_STRIPE_PRICE_PLANS: "price_1:pro" },
      { BILLING_STRIPE_WEBHOOK_SECRET: "whsec_x", BILLING_STRIPE_PRICE_PLANS: "  " },
      { BILLING_STRIPE_WEBHOOK_SECRET: "whsec_x", BILLING_STRIPE_PRICE_PLANS: undefined },
    ];
    for (const env of cases) assert.deepEqual(billingConfig("stripe", env), { enabled: false }, JSON.stringify(env));
  });

  it("is disabled, naming the variable, when the price map is malformed", () => {
    for (const plans of ["price_1", "price_1:", ":pro", "price_1:pro:extra", "price_1:pro,price_1:starter"]) {
      const config = billingConfig("stripe", {
        BILLING_STRIPE_WEBHOOK_SECRET: "whsec_x",
        BILLING_STRIPE_PRICE_PLANS: plans,
      });
      assert.equal(config.enabled, false, plans);
      if (!config.enabled) assert.match(config.problem ?? "", /BILLING_STRIPE_PRICE_PLANS/, plans);
    }
  });

  it("tolerates a repeated identical mapping", () => {
    const config = billingConfig("stripe", {
      BILLING_STRIPE_WEBHOOK_SECRET: "whsec_x",
      BILLING_STRIPE_PRICE_PLANS: "price_1:pro,price_1:pro",
    });
    assert.equal(config.enabled, true);
  });

  it("does not let an inherited key look like a mapped price", () => {
    const config = billingConfig("stripe", {
      BILLING_STRIPE_WEBHOOK_SECRET: "whsec_x",
      BILLING_STRIPE_PRICE_PLANS: "__proto__:pro,price_1:starter",
    });
    assert.equal(config.enabled, true);
    if (!config.enabled) return;
    assert.equal(config.pricePlans["__proto__"], "pro");
    assert.equal(config.pricePlans["constructor"], undefined);
    assert.equal(config.pricePlans["toString"], undefined);
  });
});

describe("start-up validation of the billing variables", () => {
  it("a price map the intake would refuse stops the start, naming the variable", () => {
    for (const value of ["price_1", "price_1:pro:annual", "price_1:pro,price_1:starter"]) {
      assert.throws(
        () => parseEnv({ DATA_DIR: "/tmp/x-env-test", BILLING_PADDLE_PRICE_PLANS: value }),
        /BILLING_PADDLE_PRICE_PLANS/,
        value,
      );
    }
    const ok = parseEnv({
      DATA_DIR: "/tmp/x-env-test",
      BILLING_STRIPE_PRICE_PLANS: "price_123:starter, price_456:pro",
    });
    assert.equal(ok.BILLING_STRIPE_PRICE_PLANS, "price_123:starter, price_456:pro");
  });
});
