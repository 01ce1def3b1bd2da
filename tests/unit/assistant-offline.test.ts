// The assistant makes no network call: with every way out of the process blocked (TCP and TLS
// connects, DNS lookups, fetch), the engine is loaded and answers every request of its request
// set in every mode, and nothing tried to connect.
// Run: node --import tsx --test tests/unit/assistant-offline.test.ts (its own process, so the
// patches below touch no other test).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import tls from "node:tls";
import dns from "node:dns";

const attempts: string[] = [];
function blocked(what: string): never {
  attempts.push(what);
  throw new Error(`network blocked in this test: ${what}`);
}

net.Socket.prototype.connect = function connect() {
  return blocked("net.Socket.connect");
} as typeof net.Socket.prototype.connect;
(tls as { connect: unknown }).connect = () => blocked("tls.connect");
(dns as { lookup: unknown }).lookup = () => blocked("dns.lookup");
(dns.promises as { lookup: unknown }).lookup = () => blocked("dns.promises.lookup");
globalThis.fetch = (() => blocked("fetch")) as typeof fetch;

describe("no network call", () => {
  test("the block works: a connection attempt throws", () => {
    assert.throws(() => net.connect(80, "example.com"), /network blocked/);
    attempts.length = 0;
  });

  test("the engine, loaded with the network blocked, answers every request and tries no connection", async () => {
    const { generateGuidance } = await import("../../app/services/assistant/engine");
    const { GOLDEN_REQUESTS } = await import("./assistant-requests.golden");
    let answers = 0;
    for (const c of GOLDEN_REQUESTS) {
      for (const mode of ["quote", "schedule", "general"] as const) {
        const data = generateGuidance({ mode, jobTitle: c.title, details: c.details });
        assert.ok(data.guidance.sections.length > 0, c.id);
        answers++;
      }
    }
    assert.equal(answers, GOLDEN_REQUESTS.length * 3);
    assert.deepEqual(attempts, []);
  });
});
