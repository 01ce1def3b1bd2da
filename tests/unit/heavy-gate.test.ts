import assert from "node:assert/strict";
import { test } from "node:test";
import { HeavyGate } from "../../app/http/heavy-gate";

// A server's bound on heavy pages with a short line per tenant
// (docs/decisions/470-a-short-wait-for-a-heavy-page-and-a-cheaper-dashboard.md): over its share
// a tenant's page waits, first come first served, for one of the tenant's slots; beyond the line
// or the wait it is refused; another tenant is served meanwhile.

const settle = () => new Promise((r) => setImmediate(r));

test("N pages of one tenant over its share wait and are all served in order; the one past the line is refused at once; another tenant is served meanwhile", async () => {
  const gate = new HeavyGate({ limit: 4, share: 2, queue: 8, waitMs: 60_000 });
  const held = [gate.tryTake("page", "A"), gate.tryTake("page", "A")];
  assert.ok(held[0] && held[1], "A's share is served at once");
  assert.equal(gate.tryTake("page", "A"), null, "over its share A may not take a slot at once");
  const order: number[] = [];
  const waits = Array.from({ length: 8 }, (_, i) =>
    gate.take("page", "A", { wait: true }).then((release) => {
      order.push(i);
      return release;
    }),
  );
  const past = await gate.take("page", "A", { wait: true });
  assert.equal(past, null, "the page past the line is refused at once");
  assert.equal(gate.figures.refusedByServer, 1);
  assert.equal(gate.waiting(), 8);
  // B is served while A's line waits.
  const b = gate.tryTake("page", "B");
  assert.ok(b, "another tenant's page is served at once");
  // Each release of A's hands its slot to the first in A's line.
  const releases: Array<() => void> = [held[0]!, held[1]!];
  for (let served = 0; served < 8; served++) {
    releases.shift()!();
    await settle();
    assert.equal(order.length, served + 1, "one waiting page served per freed slot");
    releases.push((await waits[served])!);
  }
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6, 7], "first come, first served");
  assert.equal(gate.figures.servedAfterWait, 8);
  assert.equal(gate.figures.mostOfOneTenant, 2, "never more than the share in flight");
  for (const r of releases) r();
  b();
  assert.equal(gate.waiting(), 0);
});

test("a page that waits past the bound is refused; one whose client left leaves the line; import previews do not wait", async () => {
  const gate = new HeavyGate({ limit: 4, share: 2, queue: 8, waitMs: 30 });
  const a1 = gate.tryTake("page", "A")!;
  const a2 = gate.tryTake("page", "A")!;
  const gone = new AbortController();
  const left = gate.take("page", "A", { wait: true, signal: gone.signal });
  const timedOut = gate.take("page", "A", { wait: true });
  gone.abort();
  assert.equal(await left, null, "the client that left is out of the line");
  assert.equal(await timedOut, null, "refused after the wait");
  assert.equal(gate.figures.refusedAfterWait, 1);
  assert.equal(gate.waiting(), 0);
  // Import previews: refused at once over the share.
  const i1 = gate.tryTake("import", "A")!;
  const i2 = gate.tryTake("import", "A")!;
  assert.equal(await gate.take("import", "A", { wait: false }), null);
  for (const r of [a1, a2, i1, i2]) r();
});

test("a freed slot of another tenant lets a waiting page on when the server was full", async () => {
  const gate = new HeavyGate({ limit: 4, share: 2, queue: 8, waitMs: 60_000 });
  const a1 = gate.tryTake("page", "A")!;
  const b1 = gate.tryTake("page", "B")!;
  const b2 = gate.tryTake("page", "B")!;
  const c1 = gate.tryTake("page", "C")!; // a first page always goes on: 4 in flight
  const a2 = gate.take("page", "A", { wait: true });
  await settle();
  assert.equal(gate.waiting(), 1, "A's second page waits: the server is at its bound");
  b1();
  const got = await a2;
  assert.ok(got, "B's freed slot went to A's waiting page");
  for (const r of [a1, b2, c1, got!]) r();
});
