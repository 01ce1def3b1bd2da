import assert from "node:assert/strict";
import { test } from "node:test";
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { coercedOnce } from "../../app/http/conform.server";

// Every form parses through conform's coerced schema, built once per schema with its
// `unstable_coerceFormValue` (docs/decisions/495-conform-pinned.md). The packages are pinned to
// one version; this holds what the app relies on from that API, so an upgrade that changes it
// fails here first.

const schema = z.object({
  count: z.number().int(),
  note: z.string().optional(),
  send: z.boolean().optional(),
  lines: z.array(z.object({ description: z.string(), quantity: z.number(), rate: z.string().optional() })).min(1),
});

const form = (entries: Array<[string, string]>) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};

test("the coerced schema is made once per schema", () => {
  assert.equal(coercedOnce(schema), coercedOnce(schema));
  assert.notEqual(coercedOnce(schema), schema);
});

test("text becomes numbers, empty strings become undefined, a checked box true, lines an array", () => {
  const submission = parseWithZod(
    form([
      ["count", "3"],
      ["note", ""],
      ["send", "on"],
      ["lines[0].description", "Copper fitting"],
      ["lines[0].quantity", "2.5"],
      ["lines[0].rate", ""],
      ["lines[1].description", "Labour"],
      ["lines[1].quantity", "1"],
    ]),
    { schema: coercedOnce(schema), disableAutoCoercion: true },
  );
  assert.equal(submission.status, "success");
  const value = submission.status === "success" ? submission.value : null;
  assert.equal(value?.note, undefined);
  assert.equal(value?.lines[0]?.rate, undefined);
  // As JSON (what is undefined is left out): the numbers are numbers, the box is true.
  assert.deepEqual(JSON.parse(JSON.stringify(value)), {
    count: 3,
    send: true,
    lines: [
      { description: "Copper fitting", quantity: 2.5 },
      { description: "Labour", quantity: 1 },
    ],
  });
});

test("a number that is not one, and a missing required line, are field errors", () => {
  const submission = parseWithZod(form([["count", "three"]]), {
    schema: coercedOnce(schema),
    disableAutoCoercion: true,
  });
  assert.equal(submission.status, "error");
  const errors = submission.status === "error" ? (submission.error ?? {}) : {};
  assert.ok(errors.count?.length, "count is refused beside its field");
  assert.ok(errors.lines?.length, "no line is refused beside the lines");
});
