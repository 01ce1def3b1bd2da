import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { LIGHTHOUSE_TRIES, lighthouseWithRetries, medianRun, type LighthouseResult } from "../../bench/lighthouse";

// Lighthouse sometimes fails to record a page's trace (NO_NAVSTART); the bench tries the page
// again instead of stopping the whole run. A stand-in for Lighthouse's command line fails a
// given number of times (counted in a file), then writes a report as Lighthouse does.
function fakeLighthouse(failures: number): { command: string[]; calls: () => number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-lh-"));
  const count = path.join(dir, "calls");
  fs.writeFileSync(count, "0");
  const script = path.join(dir, "lighthouse.mjs");
  fs.writeFileSync(
    script,
    `import fs from "node:fs";
const n = Number(fs.readFileSync(${JSON.stringify(count)}, "utf8")) + 1;
fs.writeFileSync(${JSON.stringify(count)}, String(n));
if (n <= ${failures}) {
  console.error("Runtime error encountered: Something went wrong with recording the trace over your page load. (NO_NAVSTART)");
  process.exit(1);
}
const out = process.argv.find((a) => a.startsWith("--output-path=")).slice("--output-path=".length);
fs.writeFileSync(out, JSON.stringify({
  categories: { performance: { score: 0.97 } },
  audits: { "largest-contentful-paint": { numericValue: 812.4 }, "network-requests": { details: { items: [{ resourceType: "Script", transferSize: 2048 }] } } },
}));
`,
  );
  return { command: [process.execPath, script], calls: () => Number(fs.readFileSync(count, "utf8")) };
}

const page = { name: "dashboard" as const, path: "/", cookie: null };

test("a page whose trace fails once is tried again and measured", async () => {
  const lh = fakeLighthouse(1);
  const r = await lighthouseWithRetries(lh.command, page, "http://127.0.0.1:9/");
  assert.ok(!(r instanceof Error), String(r));
  assert.equal(r.score, 97);
  assert.equal(r.lcpMs, 812);
  assert.equal(r.scriptKiB, 2);
  assert.equal(lh.calls(), 2);
});

test("a page that fails every try comes back as its error, after the set number of tries", async () => {
  const lh = fakeLighthouse(99);
  const r = await lighthouseWithRetries(lh.command, page, "http://127.0.0.1:9/");
  assert.ok(r instanceof Error);
  assert.match(r.message, /NO_NAVSTART/);
  assert.equal(lh.calls(), LIGHTHOUSE_TRIES);
});

test("a page's figures are those of its run with the median score", () => {
  const run = (score: number, tbtMs: number) => ({ score, tbtMs }) as LighthouseResult;
  assert.deepEqual(medianRun([run(84, 480), run(98, 90), run(91, 260)]), run(91, 260));
  assert.deepEqual(
    medianRun([run(90, 300), run(90, 250), run(99, 40)]),
    run(90, 250),
    "a tie: the shorter blocking time",
  );
  assert.deepEqual(medianRun([run(95, 200), run(88, 400)]), run(88, 400), "an even number: the lower middle");
  assert.deepEqual(medianRun([run(77, 900)]), run(77, 900));
});
