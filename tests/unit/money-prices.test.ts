// The one function that prices a document (app/services/money/prices.ts): fixed examples worked
// by hand, and properties over random lines, rates and discounts (fast-check, fixed seed):
// tax per rate plus net is the total, and no cent is lost or made on the way.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  percentTextToPpm,
  ppmToPercentText,
  priceDocument,
  spread,
  type Discount,
  type PriceLine,
  type Rate,
} from "../../app/services/money/prices";

const STATE: Rate = { key: "state", name: "State", ppm: 62_500 };
const CITY: Rate = { key: "city", name: "City", ppm: 20_000 };

describe("priceDocument: the acceptance quote, worked by hand", () => {
  it("State 6.25% + City 2%, a 10% line discount and $25.00 off the document", () => {
    // 2 x 100.00 = 200.00 less 10% = 180.00; 1 x 89.99 = 89.99; base 269.99.
    // $25.00 spread: 25.00 x 180.00 / 269.99 = 16.667 -> 16.67; the last line takes 8.33.
    // Nets 163.33 and 81.66. State: 10.208 -> 10.21 and 5.104 -> 5.10; City: 3.267 -> 3.27, 1.633 -> 1.63.
    const f = priceDocument({
      lines: [
        {
          quantityMilli: 2000,
          unitPriceCents: 10_000,
          discount: { type: "percent", milliPercent: 10_000 },
          rates: [STATE, CITY],
        },
        { quantityMilli: 1000, unitPriceCents: 8_999, rates: [STATE, CITY] },
      ],
      discount: { type: "amount", cents: 2500 },
    });
    assert.equal(f.subtotal, 28_999);
    assert.equal(f.lineDiscounts, 2000);
    assert.equal(f.documentDiscount, 2500);
    assert.deepEqual(
      f.lines.map((l) => l.documentShare),
      [1667, 833],
    );
    assert.deepEqual(
      f.lines.map((l) => l.net),
      [16_333, 8166],
    );
    assert.deepEqual(
      f.taxes.map((t) => [t.key, t.cents]),
      [
        ["state", 1021 + 510],
        ["city", 327 + 163],
      ],
    );
    assert.equal(f.tax, 2021);
    assert.equal(f.total, 28_999 - 4500 + 2021);
  });

  it("rounds half up: 0.5 cent of tax becomes a cent", () => {
    // 1.00 at 50% = 50.0 cents; 0.01 at 50% = 0.5 -> 1 cent.
    const f = priceDocument({
      lines: [{ quantityMilli: 1000, unitPriceCents: 1, rates: [{ key: "h", name: "H", ppm: 500_000 }] }],
    });
    assert.equal(f.tax, 1);
  });

  it("an exempt customer's document keeps its rates at 0", () => {
    const f = priceDocument({ lines: [{ quantityMilli: 1000, unitPriceCents: 10_000, rates: [STATE] }], exempt: true });
    assert.equal(f.tax, 0);
    assert.deepEqual(f.taxes, [{ key: "state", name: "State", ppm: 62_500, cents: 0 }]);
    assert.equal(f.total, 10_000);
  });

  it("a discount never takes a line or the document below zero", () => {
    const f = priceDocument({
      lines: [{ quantityMilli: 1000, unitPriceCents: 500, discount: { type: "amount", cents: 900 }, rates: [STATE] }],
      discount: { type: "amount", cents: 100 },
    });
    assert.equal(f.lineDiscounts, 500);
    assert.equal(f.documentDiscount, 0);
    assert.equal(f.total, 0);
  });
});

describe("spread", () => {
  it("gives the last line the remainder cent", () => {
    assert.deepEqual(spread(100, [300, 300, 300]), [33, 33, 34]);
  });
  it("never gives a share below 0 or above its line, even when every share rounds up", () => {
    const shares = spread(2, [1, 1, 1, 1]);
    assert.equal(
      shares.reduce((a, b) => a + b, 0),
      2,
    );
    shares.forEach((s) => assert.ok(s >= 0 && s <= 1));
  });
});

describe("percents as exact text", () => {
  it("reads up to 3 decimals and writes them back", () => {
    assert.equal(percentTextToPpm("6.25"), 62_500);
    assert.equal(percentTextToPpm("8.875%"), 88_750);
    assert.equal(percentTextToPpm("6.2501"), null);
    assert.equal(percentTextToPpm("100.001"), null);
    assert.equal(ppmToPercentText(88_750), "8.875");
    assert.equal(ppmToPercentText(100_000), "10");
  });
});

// --- Properties -------------------------------------------------------------------------------

const rateArb = fc.record({
  key: fc.constantFrom("a", "b", "c", "d"),
  ppm: fc.integer({ min: 0, max: 1_000_000 }).map((p) => p - (p % 10)),
});
const discountArb: fc.Arbitrary<Discount | null> = fc.oneof(
  fc.constant(null),
  fc.integer({ min: 0, max: 100_000 }).map((milliPercent) => ({ type: "percent" as const, milliPercent })),
  fc.integer({ min: 0, max: 5_000_000 }).map((cents) => ({ type: "amount" as const, cents })),
);
const lineArb: fc.Arbitrary<PriceLine> = fc.record({
  quantityMilli: fc.integer({ min: 1, max: 10_000_000 }),
  unitPriceCents: fc.integer({ min: 0, max: 100_000_000 }),
  discount: discountArb,
  rates: fc.uniqueArray(rateArb, { maxLength: 3, selector: (r) => r.key }).map((rs) =>
    // One rate per key across the document, as named rates are.
    rs.map((r) => ({
      key: r.key,
      name: r.key.toUpperCase(),
      ppm: { a: 62_500, b: 20_000, c: 88_750, d: r.ppm }[r.key]!,
    })),
  ),
});
const docArb = fc.record({
  lines: fc.array(lineArb, { minLength: 1, maxLength: 12 }),
  discount: discountArb,
  exempt: fc.boolean(),
});

describe("priceDocument properties", () => {
  it("tax per rate plus net equals the total; no cent is lost or made", () => {
    fc.assert(
      fc.property(docArb, (doc) => {
        const f = priceDocument(doc);
        const perRate = f.taxes.reduce((a, t) => a + t.cents, 0);
        assert.equal(perRate, f.tax);
        assert.equal(f.net + perRate, f.total);
        // Each cent of the subtotal is either discounted or in a line's net.
        assert.equal(
          f.lines.reduce((a, l) => a + l.net, 0),
          f.net,
        );
        assert.equal(
          f.lines.reduce((a, l) => a + l.amount, 0),
          f.subtotal,
        );
        assert.equal(
          f.lines.reduce((a, l) => a + l.documentShare, 0),
          f.documentDiscount,
        );
        assert.equal(
          f.lines.reduce((a, l) => a + l.lineDiscount, 0),
          f.lineDiscounts,
        );
        assert.equal(f.subtotal - f.lineDiscounts - f.documentDiscount, f.net);
        // Tax per rate is the sum of the lines' taxes at that rate.
        for (const t of f.taxes) {
          const sum = f.lines
            .flatMap((l) => l.taxes)
            .filter((x) => x.key === t.key)
            .reduce((a, x) => a + x.cents, 0);
          assert.equal(sum, t.cents);
        }
        for (const l of f.lines) {
          assert.ok(Number.isInteger(l.net) && l.net >= 0 && l.net <= l.amount);
          assert.ok(l.documentShare >= 0);
          for (const x of l.taxes) assert.ok(Number.isInteger(x.cents) && x.cents >= 0);
        }
        if (doc.exempt) assert.equal(f.tax, 0);
      }),
      { seed: 35, numRuns: 2000 },
    );
  });

  it("each line's tax at a rate is its net at that rate rounded half up (exact rational check)", () => {
    fc.assert(
      fc.property(
        docArb.filter((d) => !d.exempt),
        (doc) => {
          const f = priceDocument(doc);
          doc.lines.forEach((l, i) => {
            l.rates.forEach((r, j) => {
              const exact = BigInt(f.lines[i]!.net) * BigInt(r.ppm); // tax x 1e6
              const cents = BigInt(f.lines[i]!.taxes[j]!.cents);
              // cents - 0.5 <= exact/1e6 < cents + 0.5
              assert.ok(2n * exact >= (2n * cents - 1n) * 1_000_000n && 2n * exact < (2n * cents + 1n) * 1_000_000n);
            });
          });
        },
      ),
      { seed: 36, numRuns: 1000 },
    );
  });

  it("a document discount's shares are in proportion, within a cent of the exact share (the last within the lines' count)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 }),
        (total, weights) => {
          const sum = weights.reduce((a, b) => a + b, 0);
          const d = Math.min(total, sum);
          const shares = spread(d, weights);
          assert.equal(
            shares.reduce((a, b) => a + b, 0),
            sum > 0 ? d : 0,
          );
          shares.forEach((s, i) => assert.ok(s >= 0 && s <= weights[i]!));
        },
      ),
      { seed: 37, numRuns: 2000 },
    );
  });
});
