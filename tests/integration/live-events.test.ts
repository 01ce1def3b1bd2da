// GET /events (CONTRACT section 17): server-sent events fed by PostgreSQL LISTEN/NOTIFY, so a
// change made through one app server reaches a stream open on another; filtered by tenant.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { one } from "../../db/index";
import { BASE_URL, clientFor } from "../helpers/client";
import { portalRequest, portalSetup, randomLoopback } from "../helpers/portal";
import { startServer, type RunningServer } from "../helpers/server";

type Sse = { event: string; data: string };

/** An open /events stream of `cookie`'s user on `base`: read events one by one. */
async function openEvents(base: string, cookie: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/events`, {
    headers: { cookie, accept: "text/event-stream" },
    signal: controller.signal,
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const queue: Sse[] = [];
  const pull = async (): Promise<void> => {
    const { done, value } = await reader.read();
    if (done) throw new Error("the event stream ended");
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "";
      queue.push({ event, data });
    }
  };
  return {
    /** The next event named `name` (others are skipped); fails after `ms`. */
    async next(name: string, ms: number): Promise<Sse> {
      const deadline = AbortSignal.timeout(ms);
      const timedOut = new Promise<never>((_, reject) =>
        deadline.addEventListener("abort", () => reject(new Error(`no "${name}" event within ${ms} ms`))),
      );
      // Handled even when the event is already queued and the race never runs.
      timedOut.catch(() => {});
      for (;;) {
        const found = queue.findIndex((e) => e.event === name);
        if (found !== -1) return queue.splice(found, 1)[0];
        await Promise.race([pull(), timedOut]);
      }
    },
    seen: () => queue,
    close: () => controller.abort(),
  };
}

const cookieOf = (c: { cookieHeader(): string }) => c.cookieHeader();

let second: RunningServer;
before(async () => {
  second = await startServer();
});
after(async () => {
  await second?.stop();
});

async function bookingThrough(base: string, token: string, service: string) {
  const res = await portalRequest("POST", "/api/portal/booking-request", {
    base,
    ip: randomLoopback(),
    form: { token, service },
  });
  assert.equal(res.status, 303, res.text.slice(0, 200));
}

test("a booking request made through a second app server reaches a stream open on the first within 2 s", async () => {
  const s = await portalSetup({ businessName: "Live Plumbing" });
  const office = await clientFor(s.tenant.users.office);
  const stream = await openEvents(BASE_URL, cookieOf(office));
  try {
    await stream.next("ready", 10_000);
    await bookingThrough(second.url, s.token, "Leaking tap in the kitchen");
    const change = await stream.next("change", 2_000);
    const row = await one<{ id: string }>(
      `SELECT id FROM booking_requests WHERE tenant_id = $1 AND service = 'Leaking tap in the kitchen'`,
      [s.tenant.id],
    );
    const data = JSON.parse(change.data);
    assert.equal(data.type, "booking_request.received");
    assert.equal(data.id, row!.id);
  } finally {
    stream.close();
  }
});

test("another tenant's changes never reach the stream", async () => {
  const mine = await portalSetup({ businessName: "Mine Heating" });
  const theirs = await portalSetup({ businessName: "Theirs Heating" });
  const office = await clientFor(mine.tenant.users.office);
  const stream = await openEvents(second.url, cookieOf(office));
  try {
    await stream.next("ready", 10_000);
    // Theirs first, then mine: the first change on my stream must be mine.
    await bookingThrough(BASE_URL, theirs.token, "Their boiler");
    await bookingThrough(BASE_URL, mine.token, "My boiler");
    const change = JSON.parse((await stream.next("change", 5_000)).data);
    const myRow = await one<{ id: string }>(`SELECT id FROM booking_requests WHERE tenant_id = $1`, [mine.tenant.id]);
    const theirRow = await one<{ id: string }>(`SELECT id FROM booking_requests WHERE tenant_id = $1`, [
      theirs.tenant.id,
    ]);
    assert.equal(change.id, myRow!.id);
    assert.ok(!stream.seen().some((e) => e.data.includes(theirRow!.id)), "no event of the other tenant");
  } finally {
    stream.close();
  }
});

test("notify() is delivered when its transaction commits, never for one that rolls back", async () => {
  const s = await portalSetup({ businessName: "Announce Electric" });
  const office = await clientFor(s.tenant.users.office);
  const stream = await openEvents(BASE_URL, cookieOf(office));
  try {
    await stream.next("ready", 10_000);
    const { notify } = await import("../../app/services/events/events.server");
    // The helper itself, from a transaction that rolls back: nothing is delivered.
    const { inTenant } = await import("../../db/index");
    await inTenant(s.tenant.id, async (t) => {
      await notify(t, s.tenant.id, { type: "quote.approved", id: "rolled-back" });
      throw new Error("roll back");
    }).catch(() => {});
    await inTenant(s.tenant.id, (t) => notify(t, s.tenant.id, { type: "quote.approved", id: "committed" }));
    const change = JSON.parse((await stream.next("change", 5_000)).data);
    assert.equal(change.id, "committed", "a rolled-back change is never announced");
  } finally {
    stream.close();
  }
});

test("signed out, /events is a redirect to the login, not a stream", async () => {
  const res = await fetch(`${BASE_URL}/events`, { redirect: "manual" });
  assert.equal(res.status, 302);
  assert.match(res.headers.get("location") ?? "", /^\/login/);
});

test("a move on the schedule (POST /jobs/<id>/schedule) is announced to the tenant's streams, so another user's board reloads", async () => {
  const { createCustomer, createJob, createUser } = await import("../helpers/fixtures");
  const s = await portalSetup({ businessName: "Moving Roofers" });
  const tech = await createUser(s.tenant.id, { role: "technician", name: "Ria Tech" });
  const customer = await createCustomer(s.tenant.id);
  const job = await createJob(s.tenant.id, {
    customerId: customer.id,
    title: "Fix the flashing",
    scheduledStart: null,
  });
  // The dispatcher watching the board and the one moving the job are different members.
  const watcher = await clientFor(s.tenant.users.admin);
  const mover = await clientFor(s.tenant.users.office);
  const stream = await openEvents(second.url, cookieOf(watcher));
  try {
    await stream.next("ready", 10_000);
    const moved = await mover.post(`/jobs/${job.id}/schedule`, {
      assigneeId: tech.id,
      scheduledStart: "2031-03-04T09:00",
      scheduledEnd: "2031-03-04T10:00",
    });
    assert.equal(moved.status, 303);
    const change = JSON.parse((await stream.next("change", 5_000)).data);
    assert.deepEqual({ type: change.type, id: change.id }, { type: "job.scheduled", id: job.id });
  } finally {
    stream.close();
  }
});

test("a photo from the field (PUT /api/field/jobs/<id>/photos/<photoId>) is announced once, so the office's job page reloads", async () => {
  const { createCustomer, createJob } = await import("../helpers/fixtures");
  const { jpegLike, putPhoto } = await import("../helpers/photos");
  const { randomUUID } = await import("node:crypto");
  const s = await portalSetup({ businessName: "Photo Plumbers" });
  const customer = await createCustomer(s.tenant.id);
  const job = await createJob(s.tenant.id, {
    customerId: customer.id,
    title: "Snake the drain",
    assigneeId: s.tenant.users.technician.id,
  });
  const stream = await openEvents(second.url, cookieOf(await clientFor(s.tenant.users.office)));
  try {
    await stream.next("ready", 10_000);
    const tech = await clientFor(s.tenant.users.technician);
    const id = randomUUID();
    const photo = jpegLike(4000);
    assert.equal((await putPhoto(tech, job.id, id, photo)).status, 201);
    const change = JSON.parse((await stream.next("change", 5_000)).data);
    assert.deepEqual({ type: change.type, id: change.id }, { type: "job.photo_added", id: job.id });
    // The retry stores nothing and announces nothing.
    assert.equal((await putPhoto(tech, job.id, id, photo)).status, 200);
    await assert.rejects(stream.next("change", 1_000));
  } finally {
    stream.close();
  }
});

/** Announces a change as the services do, from a committed transaction of the tenant. */
async function announce(tenantId: string, type: string, id: string) {
  const { notify } = await import("../../app/services/events/events.server");
  const { inTenant } = await import("../../db/index");
  await inTenant(tenantId, (t) => notify(t, tenantId, { type: type as "quote.approved", id }));
}

test("a technician's stream carries only events of pages they can open: their own jobs, never requests, quotes, payments, imports or others' jobs", async () => {
  const { createCustomer, createJob, createUser } = await import("../helpers/fixtures");
  const s = await portalSetup({ businessName: "Scoped Drains" });
  const tech = s.tenant.users.technician;
  const otherTech = await createUser(s.tenant.id, { role: "technician", name: "Other Tech" });
  const customer = await createCustomer(s.tenant.id);
  const mine = await createJob(s.tenant.id, { customerId: customer.id, title: "Mine", assigneeId: tech.id });
  const theirs = await createJob(s.tenant.id, { customerId: customer.id, title: "Theirs", assigneeId: otherTech.id });
  const office = await clientFor(s.tenant.users.office);
  // The technician's stream on one server, the office's on the other; the changes go through both.
  const techStream = await openEvents(second.url, cookieOf(await clientFor(tech)));
  const officeStream = await openEvents(BASE_URL, cookieOf(office));
  try {
    await techStream.next("ready", 10_000);
    await officeStream.next("ready", 10_000);
    // Pages a technician cannot open: a booking request (through the portal), another
    // technician's job moved on the schedule, a quote decision, a payment, an import.
    await bookingThrough(BASE_URL, s.token, "Blocked drain");
    const moved = await office.post(`/jobs/${theirs.id}/schedule`, {
      assigneeId: otherTech.id,
      scheduledStart: "2031-05-06T09:00",
      scheduledEnd: "2031-05-06T10:00",
    });
    assert.equal(moved.status, 303);
    await announce(s.tenant.id, "job.photo_added", theirs.id);
    await announce(s.tenant.id, "quote.approved", crypto.randomUUID());
    await announce(s.tenant.id, "payment.recorded", crypto.randomUUID());
    await announce(s.tenant.id, "import.committed", crypto.randomUUID());
    await announce(s.tenant.id, "job.status_changed", "not-a-job-id");
    // Then their own job: the first change on the technician's stream must be this one.
    const own = await office.post(`/jobs/${mine.id}/schedule`, {
      assigneeId: tech.id,
      scheduledStart: "2031-05-07T09:00",
      scheduledEnd: "2031-05-07T10:00",
    });
    assert.equal(own.status, 303);
    const change = JSON.parse((await techStream.next("change", 5_000)).data);
    assert.deepEqual({ type: change.type, id: change.id, n: change.n }, { type: "job.scheduled", id: mine.id, n: 1 });
    assert.deepEqual(
      techStream.seen().filter((e) => e.event === "change"),
      [],
      "nothing else reached the technician's stream",
    );
    // The office hears of all eight, in order.
    const types: string[] = [];
    for (let i = 0; i < 8; i++) types.push(JSON.parse((await officeStream.next("change", 5_000)).data).type);
    assert.deepEqual(types, [
      "booking_request.received",
      "job.scheduled",
      "job.photo_added",
      "quote.approved",
      "payment.recorded",
      "import.committed",
      "job.status_changed",
      "job.scheduled",
    ]);
  } finally {
    techStream.close();
    officeStream.close();
  }
});

test("a stream follows its member as they are now: a role taken away stops the events it gave; signed out, the stream ends", async () => {
  const { createCustomer, createJob } = await import("../helpers/fixtures");
  const s = await portalSetup({ businessName: "Changing Roles" });
  const member = s.tenant.users.office;
  const customer = await createCustomer(s.tenant.id);
  const job = await createJob(s.tenant.id, { customerId: customer.id, title: "Theirs now", assigneeId: member.id });
  const client = await clientFor(member);
  const stream = await openEvents(BASE_URL, cookieOf(client));
  try {
    await stream.next("ready", 10_000);
    await bookingThrough(second.url, s.token, "Before the change");
    assert.equal(JSON.parse((await stream.next("change", 5_000)).data).type, "booking_request.received");
    // The office member becomes a technician while the stream is open.
    await one(`UPDATE users SET role = 'technician' WHERE tenant_id = $1 AND id = $2`, [s.tenant.id, member.id]);
    await bookingThrough(second.url, s.token, "After the change");
    await announce(s.tenant.id, "job.status_changed", job.id);
    const change = JSON.parse((await stream.next("change", 5_000)).data);
    assert.deepEqual({ type: change.type, id: change.id }, { type: "job.status_changed", id: job.id });
    // Signed out elsewhere (the session row is gone): the next event ends the stream, unsent.
    await one(`DELETE FROM sessions WHERE tenant_id = $1 AND user_id = $2`, [s.tenant.id, member.id]);
    await announce(s.tenant.id, "job.status_changed", job.id);
    await assert.rejects(stream.next("change", 5_000), /the event stream ended/);
  } finally {
    stream.close();
  }
});
