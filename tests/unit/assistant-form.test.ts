import assert from "node:assert/strict";
import { test } from "node:test";
import { generateFromForm, resultFromFlash } from "../../app/services/assistant/assistant.server";
import { generateGuidance } from "../../app/services/assistant/engine";

test("a valid form gives the engine's answer and keeps the typed text", () => {
  const r = generateFromForm({ _csrf: "t", mode: "general", job_title: "  Furnace not igniting ", details: "" });
  assert.equal(r.ok, true);
  if (!r.ok) return;
  assert.deepEqual(r.input, { mode: "general", job_title: "  Furnace not igniting ", details: "" });
  assert.deepEqual(r.data, generateGuidance({ mode: "general", jobTitle: "Furnace not igniting" }));
});

test("a refused form names each bad field and caps the echoed text", () => {
  const r = generateFromForm({ mode: "poem", job_title: "t".repeat(201), details: "d".repeat(50_000) });
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.deepEqual(Object.keys(r.fields).sort(), ["details", "job_title", "mode"]);
  assert.equal(r.input.job_title.length, 201);
  assert.equal(r.input.details.length, 10_000, "what a crafted post can park in the session is bounded");
});

test("the flash round-trips through JSON, and anything malformed is ignored", () => {
  for (const fields of [{ mode: "quote", job_title: "Water heater" }, { mode: "nope" }]) {
    const r = generateFromForm(fields);
    assert.deepEqual(resultFromFlash(JSON.parse(JSON.stringify({ assistant: r, message: "x" }))), r);
  }
  for (const flash of [
    null,
    undefined,
    {},
    { message: "Saved" },
    { assistant: "x" },
    { assistant: { ok: true, input: {} } },
    { assistant: { ok: false, input: {} } },
    { assistant: { ok: true, input: {}, data: { guidance: {} } } },
  ]) {
    assert.equal(resultFromFlash(flash as Record<string, unknown> | null), null, JSON.stringify(flash));
  }
});
