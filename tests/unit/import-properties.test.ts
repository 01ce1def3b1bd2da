// Robustness of the import (fast-check, fixed seeds, bounded runs): whatever is uploaded, the
// parser answers rows or a file error and the validators answer rows and row errors; neither
// throws.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { IMPORT_COLUMNS, IMPORT_TYPES } from "../../app/services/import/columns";
import { parseCsv } from "../../app/services/import/parse.server";
import { validateRows } from "../../app/services/import/validate.server";

const LIMITS = { maxBytes: 4096, maxRows: 20 };

describe("parseCsv on arbitrary input", () => {
  it("never throws on arbitrary bytes, in arbitrary chunks", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 6 }),
        fc.constantFrom(undefined, ...IMPORT_TYPES),
        async (chunks, type) => {
          async function* input() {
            yield* chunks;
          }
          const r = await parseCsv(input(), { ...LIMITS, type });
          if (!r.ok) assert.ok([400, 413, 422].includes(r.status) && r.message.length > 0);
          else for (const rec of r.records) assert.ok(rec.row >= 2);
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });

  it("never throws on CSV-like text", async () => {
    const text = fc.string({
      unit: fc.constantFrom("a", "b", ",", '"', "\n", "\r", " ", "\ufeff", "é", "name", "email"),
      maxLength: 200,
    });
    await fc.assert(
      fc.asyncProperty(text, fc.constantFrom(undefined, "customers" as const), async (s, type) => {
        const r = await parseCsv(s, { ...LIMITS, type });
        assert.equal(typeof r.ok, "boolean");
      }),
      { seed: 7, numRuns: 400 },
    );
  });
});

describe("parseCsv chunking", () => {
  it("gives the same answer however the bytes are split", async () => {
    const text = fc.string({
      unit: fc.constantFrom("a", "é", "😀", ",", '"', "\n", "\r", "\r\n", " "),
      minLength: 1,
      maxLength: 120,
    });
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        async (body, sizes) => {
          const bytes = Buffer.from(`h1,h2\r\n${body}`);
          async function* split() {
            for (let i = 0, k = 0; i < bytes.length; k++) {
              const n = sizes[k % sizes.length];
              yield bytes.subarray(i, i + n);
              i += n;
            }
          }
          assert.deepEqual(await parseCsv(split(), LIMITS), await parseCsv(bytes, LIMITS));
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });
});

describe("validators on arbitrary records", () => {
  for (const type of IMPORT_TYPES) {
    it(`${type}: never throw, and every error names a row and a known column or none`, () => {
      const names = IMPORT_COLUMNS[type].map((c) => c.name);
      const cell = fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom(
          "",
          " ",
          "0",
          "-1",
          "1.005",
          "2026-02-29",
          "2026-07-06T08:00:00Z",
          "a@b.co",
          "draft",
          "paid",
          "'=1",
          "99999999.99",
        ),
      );
      const record = fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 })), cell, {
        maxKeys: names.length + 3,
      });
      fc.assert(
        fc.property(fc.array(record, { minLength: 1, maxLength: 6 }), (values) => {
          const r = validateRows(
            type,
            values.map((v, i) => ({ row: i + 2, values: v })),
          );
          assert.equal(r.rows.length, values.length);
          for (const e of r.errors) assert.ok(e.column === null || names.includes(e.column), e.column ?? "");
          for (const row of r.rows) assert.equal(row.ok, !r.errors.some((e) => e.row === row.rowNumber));
        }),
        { seed: 42, numRuns: 200 },
      );
    });
  }
});
