import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import ICAL from "ical.js";
import { one, rows } from "../../db/index";
import { zonedToday, zonedToUtc } from "../../app/services/jobs/local-time";
import { addDays, longDate, weekStart } from "../../app/services/schedule/days";
import { signIdToken } from "../../app/utils/signed-ids.server";
import { clientFor, envelope, type Client } from "../helpers/client";
import {
  createCustomer,
  createJob,
  createQuote,
  createTenantWithUsers,
  createUser,
  twoTenants,
} from "../helpers/fixtures";
import { decode, textOf } from "../helpers/html";

// CONTRACT section 13: the board, the one schedule action, the field app's next sync and the
// calendar feed, through real HTTP against the built app.

const ZONE = "America/Chicago";
/** How the board's fetcher posts the action (Remix asks for the route's data, not the page). */
const FETCHER = "?_data=routes%2Fjobs.%24id_.schedule";

/** A tenant in Chicago with two technicians, a customer, and the week after next (Monday..Sunday). */
async function setup() {
  const t = await createTenantWithUsers();
  await rows(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, ZONE]);
  const dana = await createUser(t.id, { role: "technician", name: "Dana Diaz" });
  const eli = await createUser(t.id, { role: "technician", name: "Eli Moreau" });
  const customer = await createCustomer(t.id, {
    name: "Rosa Marquez",
    phone: "555-0142",
    address_line1: "48 Oak Lane",
    city: "Springfield",
  });
  const monday = addDays(weekStart(zonedToday(ZONE)), 14);
  return { t, dana, eli, customer, monday, tuesday: addDays(monday, 1), wednesday: addDays(monday, 2) };
}

async function jobAt(
  tenantId: string,
  o: {
    customerId: string;
    assigneeId: string | null;
    title: string;
    start: string | null;
    end?: string;
    status?: string;
  },
) {
  const job = await createJob(tenantId, {
    customerId: o.customerId,
    assigneeId: o.assigneeId,
    title: o.title,
    scheduledStart: o.start ? zonedToUtc(o.start, ZONE) : null,
    status: o.status,
  });
  if (o.start && o.end)
    await rows(`UPDATE jobs SET scheduled_end = $3 WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      job.id,
      zonedToUtc(o.end, ZONE),
    ]);
  return job;
}

/** The HTML of a technician's row on the week board, and of one of its day cells. */
function rowOf(html: string, assigneeId: string): string | null {
  const m = html.match(new RegExp(`<tr data-assignee="${assigneeId}">([\\s\\S]*?)</tr>`));
  return m ? m[1] : null;
}
function cellOf(html: string, assigneeId: string, date: string): string {
  const row = rowOf(html, assigneeId);
  assert.ok(row, `a row for ${assigneeId}`);
  const m = row.match(new RegExp(`<td data-date="${date}"[^>]*>([\\s\\S]*?)</td>`));
  assert.ok(m, `a ${date} cell in the row`);
  return m[1];
}

test("week view without JavaScript: the Tuesday 09:00-11:00 job sits in its technician's Tuesday column; the form moves it to another technician on Wednesday", async () => {
  const s = await setup();
  const job = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Replace water heater",
    start: `${s.tuesday}T09:00`,
    end: `${s.tuesday}T11:00`,
  });
  const office = await clientFor(s.t.users.office);

  const week = `/schedule?view=week&date=${s.tuesday}`;
  const page = await office.get(week);
  assert.equal(page.status, 200);
  const html = await page.text();
  const tuesday = cellOf(html, s.dana.id, s.tuesday);
  assert.match(tuesday, new RegExp(`data-job-id="${job.id}" data-start="${s.tuesday}T09:00"`));
  assert.match(textOf(tuesday), /9:00–11:00 AM Replace water heater Rosa Marquez/);
  for (const d of [s.monday, s.wednesday]) assert.doesNotMatch(cellOf(html, s.dana.id, d), /Replace water heater/);
  // Every card links to its visit's form (the way to move a job without JavaScript or a mouse).
  const move = decode(html.match(new RegExp(`href="(/visits/[0-9a-f-]{36}/schedule\\?returnTo=[^"]+)"`))![1]);
  const form = await office.get(move);
  assert.equal(form.status, 200);
  const formHtml = await form.text();
  assert.match(formHtml, new RegExp(`value="${s.tuesday}T09:00"`));

  const moved = await office.post(`/jobs/${job.id}/schedule`, {
    assigneeId: s.eli.id,
    scheduledStart: `${s.wednesday}T13:30`,
    scheduledEnd: `${s.wednesday}T15:30`,
    returnTo: week,
  });
  assert.equal(moved.status, 303);
  assert.equal(moved.headers.get("location"), week);
  const after = await (await office.get(week)).text();
  assert.doesNotMatch(cellOf(after, s.dana.id, s.tuesday), /Replace water heater/);
  assert.match(textOf(cellOf(after, s.eli.id, s.wednesday)), /1:30–3:30 PM Replace water heater/);
  const row = await one<{ assignee_id: string; start: string; status: string; sequence: number }>(
    `SELECT assignee_id, to_char(scheduled_start AT TIME ZONE $3, 'YYYY-MM-DD"T"HH24:MI') AS start, status, schedule_sequence AS sequence FROM jobs WHERE tenant_id = $1 AND id = $2`,
    [s.t.id, job.id, ZONE],
  );
  assert.deepEqual(row, { assignee_id: s.eli.id, start: `${s.wednesday}T13:30`, status: "scheduled", sequence: 1 });
  // The job's history says who moved it, and where to.
  const jobPage = textOf(await (await office.get(`/jobs/${job.id}`)).text());
  assert.match(
    jobPage,
    new RegExp(`Moved to Wednesday, [A-Za-z]+ \\d+, \\d{4}, 1:30–3:30 PM, with Eli Moreau by ${s.t.users.office.name}`),
  );
});

test("the schedule action: 422 beside the field, 409 for a cancelled or completed job, 404 for another tenant's id, 403 for a technician; all empty unschedules", async () => {
  const s = await setup();
  const other = await createTenantWithUsers();
  const otherCustomer = await createCustomer(other.id);
  const theirs = await createJob(other.id, { customerId: otherCustomer.id, title: "Their job" });
  const job = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Fix leak",
    start: `${s.tuesday}T09:00`,
    end: `${s.tuesday}T10:00`,
  });
  const cancelled = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Old visit",
    start: `${s.tuesday}T12:00`,
    end: `${s.tuesday}T13:00`,
    status: "cancelled",
  });
  const completed = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Done visit",
    start: `${s.monday}T12:00`,
    end: `${s.monday}T13:00`,
    status: "completed",
  });
  const office = await clientFor(s.t.users.office);

  const bad = await office.post(`/jobs/${job.id}/schedule`, {
    assigneeId: s.dana.id,
    scheduledStart: `${s.tuesday}T11:00`,
    scheduledEnd: `${s.tuesday}T10:00`,
  });
  assert.equal(bad.status, 422);
  const badHtml = await bad.text();
  assert.match(badHtml, /id="[^"]*scheduledEnd[^"]*-error"[\s\S]*The end must be after the start/);
  assert.match(badHtml, new RegExp(`value="${s.tuesday}T11:00"`), "keeps what was typed");
  const foreignTech = await office.post(`/jobs/${job.id}/schedule`, {
    assigneeId: other.users.technician.id,
    scheduledStart: `${s.tuesday}T11:00`,
    scheduledEnd: `${s.tuesday}T12:00`,
  });
  assert.equal(foreignTech.status, 422);
  assert.match(await foreignTech.text(), /Choose a member of your team/);

  for (const [closed, word] of [
    [cancelled, "cancelled"],
    [completed, "completed"],
  ] as const) {
    const refused = await office.post(`/jobs/${closed.id}/schedule`, {
      assigneeId: s.eli.id,
      scheduledStart: `${s.tuesday}T14:00`,
      scheduledEnd: `${s.tuesday}T15:00`,
    });
    assert.equal(refused.status, 409);
    assert.match(textOf(await refused.text()), new RegExp(`is ${word}`));
    const board = await office.post(`/jobs/${closed.id}/schedule${FETCHER}`, {
      via: "board",
      assigneeId: s.eli.id,
      scheduledStart: `${s.tuesday}T14:00`,
      scheduledEnd: `${s.tuesday}T15:00`,
    });
    assert.equal(board.status, 409);
    assert.match(JSON.stringify(await board.json()), new RegExp(`is ${word}`));
  }
  assert.equal(
    (
      await office.post(`/jobs/${theirs.id}/schedule`, {
        scheduledStart: `${s.tuesday}T14:00`,
        scheduledEnd: `${s.tuesday}T15:00`,
      })
    ).status,
    404,
  );
  assert.equal(
    (
      await office.post(`/jobs/${randomUUID()}/schedule`, {
        scheduledStart: `${s.tuesday}T14:00`,
        scheduledEnd: `${s.tuesday}T15:00`,
      })
    ).status,
    404,
  );
  assert.equal((await office.get(`/jobs/${theirs.id}/schedule`)).status, 404);
  const tech = await clientFor(s.dana);
  assert.equal(
    (
      await tech.post(`/jobs/${job.id}/schedule`, {
        assigneeId: s.dana.id,
        scheduledStart: `${s.tuesday}T14:00`,
        scheduledEnd: `${s.tuesday}T15:00`,
      })
    ).status,
    403,
  );
  assert.equal((await tech.get(`/jobs/${job.id}/schedule`)).status, 403);
  assert.equal((await office.post(`/jobs/${job.id}/schedule`, {}, { csrf: false })).status, 403);

  const board = await office.post(`/jobs/${job.id}/schedule${FETCHER}`, {
    via: "board",
    assigneeId: s.eli.id,
    scheduledStart: `${s.tuesday}T10:00`,
    scheduledEnd: `${s.tuesday}T11:00`,
  });
  assert.equal(board.status, 200);
  assert.match((await board.json()).message, /Eli Moreau/);
  const off = await office.post(`/jobs/${job.id}/schedule`, { assigneeId: "", scheduledStart: "", scheduledEnd: "" });
  assert.equal(off.status, 303);
  const row = await one<{ status: string; assignee_id: string | null; scheduled_start: Date | null }>(
    `SELECT status, assignee_id, scheduled_start FROM jobs WHERE tenant_id = $1 AND id = $2`,
    [s.t.id, job.id],
  );
  assert.deepEqual(row, { status: "unscheduled", assignee_id: null, scheduled_start: null });
  assert.match(
    textOf(await (await office.get(`/schedule?view=week&date=${s.tuesday}`)).text()),
    /Unscheduled 1 .*Fix leak/,
  );
});

test("technicians get only their own row and their own jobs; office and above see every technician", async () => {
  const s = await setup();
  await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Dana's job",
    start: `${s.tuesday}T09:00`,
    end: `${s.tuesday}T10:00`,
  });
  await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.eli.id,
    title: "Eli's job",
    start: `${s.tuesday}T09:00`,
    end: `${s.tuesday}T10:00`,
  });
  await jobAt(s.t.id, { customerId: s.customer.id, assigneeId: s.eli.id, title: "Eli's waiting job", start: null });
  const week = `/schedule?view=week&date=${s.tuesday}`;
  const techHtml = await (await (await clientFor(s.dana)).get(week)).text();
  assert.ok(rowOf(techHtml, s.dana.id));
  assert.equal(rowOf(techHtml, s.eli.id), null);
  assert.equal(rowOf(techHtml, s.t.users.technician.id), null);
  assert.doesNotMatch(techHtml, /Eli&#x27;s|Eli's/);
  assert.doesNotMatch(techHtml, /href="\/jobs\/[^"]+\/schedule/, "no Move link for a technician");
  for (const who of ["office", "admin", "owner"] as const) {
    const html = await (await (await clientFor(s.t.users[who])).get(week)).text();
    for (const id of [s.dana.id, s.eli.id, s.t.users.technician.id])
      assert.ok(rowOf(html, id), `${who} sees the row of ${id}`);
    assert.match(html, /Eli&#x27;s waiting job|Eli's waiting job/);
  }
  // The day view: the office's default is today.
  const today = await (await (await clientFor(s.t.users.office)).get("/schedule")).text();
  assert.match(today, new RegExp(`data-date="${zonedToday(ZONE)}"`));
});

test("overlapping jobs of one technician are marked", async () => {
  const s = await setup();
  await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "First visit",
    start: `${s.tuesday}T09:00`,
    end: `${s.tuesday}T11:00`,
  });
  await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Second visit",
    start: `${s.tuesday}T10:30`,
    end: `${s.tuesday}T12:00`,
  });
  await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Third visit",
    start: `${s.tuesday}T12:00`,
    end: `${s.tuesday}T13:00`,
  });
  await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.eli.id,
    title: "Eli at the same time",
    start: `${s.tuesday}T09:00`,
    end: `${s.tuesday}T11:00`,
  });
  for (const view of ["week", "day"]) {
    const html = await (
      await (await clientFor(s.t.users.office)).get(`/schedule?view=${view}&date=${s.tuesday}`)
    ).text();
    const cards = [...html.matchAll(/<article class="([^"]*)"[^>]*>([\s\S]*?)<\/article>/g)].map((m) => ({
      cls: m[1],
      text: textOf(m[2]),
    }));
    const marked = (title: string) => cards.find((c) => c.text.includes(title))!.cls.includes("is-overlap");
    assert.equal(marked("First visit"), true, view);
    assert.equal(marked("Second visit"), true, view);
    assert.equal(marked("Third visit"), false, view);
    assert.equal(marked("Eli at the same time"), false, view);
    assert.match(cards.find((c) => c.text.includes("First visit"))!.text, /Overlap/);
  }
});

test("a job scheduled outside its booking request's preferred window is marked, in the tenant's time zone; moving it inside clears the mark", async () => {
  const s = await setup();
  const request = async (o: { date: string | null; window: string; jobId?: string; quoteId?: string }) =>
    rows(
      `INSERT INTO booking_requests (tenant_id, customer_id, service, preferred_date, time_window, status, job_id, quote_id)
       VALUES ($1, $2, 'From the portal', $3, $4, 'scheduled', $5, $6)`,
      [s.t.id, s.customer.id, o.date, o.window, o.jobId ?? null, o.quoteId ?? null],
    );
  // Asked for Tuesday morning, booked Tuesday 1 PM: outside.
  const afternoon = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Booked in the afternoon",
    start: `${s.tuesday}T13:00`,
    end: `${s.tuesday}T14:00`,
  });
  await request({ date: s.tuesday, window: "morning", jobId: afternoon.id });
  // Asked for Tuesday morning, booked Tuesday 9 AM: inside.
  const inside = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.eli.id,
    title: "Booked as asked",
    start: `${s.tuesday}T09:00`,
    end: `${s.tuesday}T10:00`,
  });
  await request({ date: s.tuesday, window: "morning", jobId: inside.id });
  // Asked for Wednesday, any time. Tuesday 8:30 PM in Chicago is already Wednesday in UTC: still outside.
  const lateTuesday = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Late Tuesday visit",
    start: `${s.tuesday}T20:30`,
    end: `${s.tuesday}T21:30`,
  });
  await request({ date: s.wednesday, window: "any" });
  await rows(`UPDATE booking_requests SET job_id = $3 WHERE tenant_id = $1 AND preferred_date = $2`, [
    s.t.id,
    s.wednesday,
    lateTuesday.id,
  ]);
  // Wednesday evening 7 PM in Chicago (Thursday in UTC), asked for Wednesday evening through a quote: inside.
  const quote = await createQuote(s.t.id, { customerId: s.customer.id, status: "approved" });
  const viaQuote = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.eli.id,
    title: "Evening via quote",
    start: `${s.wednesday}T19:00`,
    end: `${s.wednesday}T20:00`,
  });
  await rows(`UPDATE jobs SET quote_id = $3 WHERE tenant_id = $1 AND id = $2`, [s.t.id, viaQuote.id, quote.id]);
  await request({ date: s.wednesday, window: "evening", quoteId: quote.id });
  // Same quote link, booked the Wednesday morning instead: outside.
  const quote2 = await createQuote(s.t.id, { customerId: s.customer.id, status: "approved" });
  const morningViaQuote = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.eli.id,
    title: "Morning via quote",
    start: `${s.wednesday}T08:00`,
    end: `${s.wednesday}T09:00`,
  });
  await rows(`UPDATE jobs SET quote_id = $3 WHERE tenant_id = $1 AND id = $2`, [s.t.id, morningViaQuote.id, quote2.id]);
  await request({ date: s.wednesday, window: "evening", quoteId: quote2.id });
  // No booking request at all: never marked.
  await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Office booked",
    start: `${s.monday}T06:00`,
    end: `${s.monday}T07:00`,
  });

  const office = await clientFor(s.t.users.office);
  const cardsOf = (html: string) =>
    [...html.matchAll(/<article class="([^"]*)"[^>]*>([\s\S]*?)<\/article>/g)].map((m) => ({
      cls: m[1],
      html: m[2],
      text: textOf(m[2]),
    }));
  for (const view of ["week", "day"]) {
    const html = await (
      await office.get(`/schedule?view=${view}&date=${view === "week" ? s.tuesday : s.tuesday}`)
    ).text();
    const cards = cardsOf(html);
    const card = (title: string) => cards.find((c) => c.text.includes(title));
    const outside = card("Booked in the afternoon")!;
    assert.ok(outside.cls.includes("is-outside"), `${view}: marked`);
    // Visible mark and the words a screen reader reads.
    assert.match(outside.html, /class="flag flag-window"[^>]*>Outside window</);
    assert.match(
      outside.text,
      new RegExp(
        `Outside the customer's preferred window: they asked for ${longDate(s.tuesday)}, morning \\(8 am – 12 pm\\)`,
      ),
    );
    assert.ok(!card("Booked as asked")!.cls.includes("is-outside"), `${view}: inside the window is not marked`);
    assert.ok(card("Late Tuesday visit")!.cls.includes("is-outside"), `${view}: the tenant's day, not UTC's`);
    assert.match(card("Late Tuesday visit")!.text, new RegExp(`they asked for ${longDate(s.wednesday)}\\.`));
    if (view === "week") {
      assert.ok(
        !card("Evening via quote")!.cls.includes("is-outside"),
        "Wednesday 7 PM in Chicago is inside Wednesday evening",
      );
      assert.ok(card("Morning via quote")!.cls.includes("is-outside"), "the request behind the job's quote counts");
      assert.ok(!card("Office booked")!.cls.includes("is-outside"), "no request, no mark");
      assert.doesNotMatch(card("Office booked")!.text, /preferred window/);
    }
  }
  // Moved into the window by the form: the mark goes.
  const moved = await office.post(`/jobs/${afternoon.id}/schedule`, {
    assigneeId: s.dana.id,
    scheduledStart: `${s.tuesday}T10:00`,
    scheduledEnd: `${s.tuesday}T11:00`,
  });
  assert.equal(moved.status, 303);
  const after = cardsOf(await (await office.get(`/schedule?view=week&date=${s.tuesday}`)).text()).find((c) =>
    c.text.includes("Booked in the afternoon"),
  )!;
  assert.ok(!after.cls.includes("is-outside"));
  assert.doesNotMatch(after.text, /Outside window/);
});

test("the technician's next offline-sync push returns a job moved to them; a job moved away leaves their data.jobs", async () => {
  const s = await setup();
  const job = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: null,
    title: "Install smart thermostat",
    start: null,
  });
  const office = await clientFor(s.t.users.office);
  const dana = await clientFor(s.dana);
  const eli = await clientFor(s.eli);
  const push = async (c: Client) => {
    const res = await c.postJson("/api/offline-sync", { clientId: randomUUID(), mutations: [] });
    assert.equal(res.status, 200);
    return (await envelope(res)).data!.jobs as Array<{ id: string; scheduledStart: string | null }>;
  };
  assert.equal(
    (await push(dana)).some((j) => j.id === job.id),
    false,
  );
  assert.equal(
    (
      await office.post(`/jobs/${job.id}/schedule`, {
        assigneeId: s.dana.id,
        scheduledStart: `${s.tuesday}T10:00`,
        scheduledEnd: `${s.tuesday}T12:00`,
      })
    ).status,
    303,
  );
  const danas = await push(dana);
  assert.equal(
    danas.find((j) => j.id === job.id)?.scheduledStart,
    zonedToUtc(`${s.tuesday}T10:00`, ZONE).toISOString(),
  );
  assert.equal(
    (
      await office.post(`/jobs/${job.id}/schedule${FETCHER}`, {
        via: "board",
        assigneeId: s.eli.id,
        scheduledStart: `${s.wednesday}T08:00`,
        scheduledEnd: `${s.wednesday}T09:00`,
      })
    ).status,
    200,
  );
  assert.equal(
    (await push(dana)).some((j) => j.id === job.id),
    false,
    "moved away: gone from Dana's list",
  );
  assert.equal(
    (await push(eli)).some((j) => j.id === job.id),
    true,
  );
});

/** The events of an .ics body, read with ical.js (a different library from the one that wrote it). */
function parseFeed(body: string) {
  const cal = new ICAL.Component(ICAL.parse(body));
  return cal.getAllSubcomponents("vevent").map((v) => {
    const e = new ICAL.Event(v);
    return {
      uid: e.uid,
      summary: e.summary,
      location: e.location,
      description: e.description,
      sequence: e.sequence,
      status: v.getFirstPropertyValue("status"),
      start: e.startDate.toJSDate().toISOString(),
      end: e.endDate.toJSDate().toISOString(),
      utc: e.startDate.zone?.tzid === "UTC" && e.endDate.zone?.tzid === "UTC",
    };
  });
}

async function feedOf(c: Client, userId: string) {
  const made = await c.post("/settings/calendar/feeds", { userId });
  assert.equal(made.status, 303, await made.clone().text());
  const html = await (await c.get("/settings/calendar")).text();
  const url = decode(
    html
      .match(/id="own-feed-url"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*id="own-feed-url"/)!
      .slice(1)
      .find(Boolean)!,
  );
  return new URL(url).pathname;
}

test("calendar feed: RFC 5545 that a second library parses, exactly the technician's jobs in range, SEQUENCE bumped by a move, 404 once revoked", async () => {
  const s = await setup();
  const today = zonedToday(ZONE);
  const inRange = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Boiler service",
    start: `${s.tuesday}T09:00`,
    end: `${s.tuesday}T11:00`,
  });
  const past = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Last month's visit",
    start: `${addDays(today, -20)}T09:00`,
    end: `${addDays(today, -20)}T10:00`,
    status: "completed",
  });
  const cancelled = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Called off",
    start: `${s.wednesday}T09:00`,
    end: `${s.wednesday}T10:00`,
    status: "cancelled",
  });
  await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Too old",
    start: `${addDays(today, -40)}T09:00`,
    end: `${addDays(today, -40)}T10:00`,
  });
  await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Too far ahead",
    start: `${addDays(today, 100)}T09:00`,
    end: `${addDays(today, 100)}T10:00`,
  });
  await jobAt(s.t.id, { customerId: s.customer.id, assigneeId: s.dana.id, title: "Not scheduled yet", start: null });
  const elisJob = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.eli.id,
    title: "Eli's roof",
    start: `${s.tuesday}T09:00`,
    end: `${s.tuesday}T10:00`,
  });

  const dana = await clientFor(s.dana);
  // A technician now opens the calendar settings page: their own feed, no integration preferences.
  const settings = await dana.get("/settings/calendar");
  assert.equal(settings.status, 200);
  const settingsText = textOf(await settings.text());
  assert.match(settingsText, /Subscribe in your calendar/);
  assert.doesNotMatch(
    settingsText,
    /Google Calendar preferences|Which jobs sync|Save calendar preferences|Links of the team/,
  );
  const danaFeed = await feedOf(dana, s.dana.id);
  assert.match(danaFeed, /^\/calendar\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.ics$/);

  const res = await dana.get(danaFeed);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /^text\/calendar/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const body = await res.text();
  assert.match(body, /^BEGIN:VCALENDAR\r\n/);
  // Every line ends with CRLF, the last one too (RFC 5545 3.1), and no line feed stands alone.
  assert.ok(body.endsWith("END:VCALENDAR\r\n"), JSON.stringify(body.slice(-20)));
  assert.doesNotMatch(body, /[^\r]\n/);
  const events = parseFeed(body);
  assert.deepEqual(
    events.map((e) => e.uid).sort(),
    [inRange.id, past.id, cancelled.id].map((id) => `${id}@fieldwork`).sort(),
  );
  const boiler = events.find((e) => e.uid === `${inRange.id}@fieldwork`)!;
  assert.equal(boiler.start, zonedToUtc(`${s.tuesday}T09:00`, ZONE).toISOString());
  assert.equal(boiler.end, zonedToUtc(`${s.tuesday}T11:00`, ZONE).toISOString());
  assert.equal(boiler.utc, true, "DTSTART/DTEND in UTC");
  assert.match(body, /DTSTART:\d{8}T\d{6}Z/);
  assert.equal(boiler.summary, "Boiler service – Rosa Marquez");
  assert.match(boiler.location!, /48 Oak Lane/);
  assert.match(boiler.description!, /555-0142/);
  assert.ok(boiler.description!.includes(`/jobs/${inRange.id}`));
  assert.equal(boiler.sequence, 0);
  assert.equal(boiler.status, "CONFIRMED");
  assert.equal(events.find((e) => e.uid === `${cancelled.id}@fieldwork`)!.status, "CANCELLED");

  // A move bumps SEQUENCE (the UID stays).
  const office = await clientFor(s.t.users.office);
  assert.equal(
    (
      await office.post(`/jobs/${inRange.id}/schedule`, {
        assigneeId: s.dana.id,
        scheduledStart: `${s.tuesday}T13:00`,
        scheduledEnd: `${s.tuesday}T15:00`,
      })
    ).status,
    303,
  );
  const movedOnce = parseFeed(await (await dana.get(danaFeed)).text()).find(
    (e) => e.uid === `${inRange.id}@fieldwork`,
  )!;
  assert.equal(movedOnce.sequence, 1);
  assert.equal(movedOnce.start, zonedToUtc(`${s.tuesday}T13:00`, ZONE).toISOString());

  // Another technician's token never shows Dana's jobs, and Dana's never shows theirs.
  const eli = await clientFor(s.eli);
  const eliFeed = await feedOf(eli, s.eli.id);
  const eliEvents = parseFeed(await (await eli.get(eliFeed)).text());
  assert.deepEqual(
    eliEvents.map((e) => e.uid),
    [`${elisJob.id}@fieldwork`],
  );
  assert.ok(!parseFeed(await (await dana.get(danaFeed)).text()).some((e) => e.uid === `${elisJob.id}@fieldwork`));
  // Moved from Dana to Eli: it leaves Dana's feed and joins Eli's.
  assert.equal(
    (
      await office.post(`/jobs/${inRange.id}/schedule`, {
        assigneeId: s.eli.id,
        scheduledStart: `${s.tuesday}T13:00`,
        scheduledEnd: `${s.tuesday}T15:00`,
      })
    ).status,
    303,
  );
  assert.ok(!parseFeed(await (await dana.get(danaFeed)).text()).some((e) => e.uid === `${inRange.id}@fieldwork`));
  assert.equal(
    parseFeed(await (await eli.get(eliFeed)).text()).find((e) => e.uid === `${inRange.id}@fieldwork`)!.sequence,
    2,
  );

  // A technician cannot make a link for someone else; an admin can, for anyone.
  assert.equal((await dana.post("/settings/calendar/feeds", { userId: s.eli.id })).status, 403);
  const admin = await clientFor(s.t.users.admin);
  assert.equal((await admin.post("/settings/calendar/feeds", { userId: s.dana.id })).status, 303);
  assert.equal((await dana.get(danaFeed)).status, 404, "replaced: the old link stops");
  const newDanaFeed = await (async () => {
    const html = await (await dana.get("/settings/calendar")).text();
    return new URL(
      decode(
        html
          .match(/id="own-feed-url"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*id="own-feed-url"/)!
          .slice(1)
          .find(Boolean)!,
      ),
    ).pathname;
  })();
  assert.equal((await dana.get(newDanaFeed)).status, 200);

  // Revoked: 404. Forged, tampered and wrong-purpose tokens: 404 too, and nothing cached.
  const feedId = (await one<{ id: string }>(
    `SELECT id FROM calendar_feeds WHERE tenant_id = $1 AND user_id = $2 AND revoked_at IS NULL`,
    [s.t.id, s.dana.id],
  ))!.id;
  assert.equal((await dana.post(`/settings/calendar/feeds/${feedId}/revoke`, {})).status, 303);
  const revoked = await dana.get(newDanaFeed);
  assert.equal(revoked.status, 404);
  assert.equal(revoked.headers.get("cache-control"), "no-store");
  const token = newDanaFeed.slice("/calendar/".length, -4);
  for (const bad of [`${token.slice(0, -2)}xx`, signIdToken("portal", s.t.id, feedId), "forged.token", randomUUID()]) {
    assert.equal((await dana.get(`/calendar/${bad}.ics`)).status, 404, bad);
  }
  assert.equal((await dana.get(`/calendar/${token}`)).status, 404, "without .ics");
  // Eli cannot revoke Dana's link (it is "not found" for him).
  const danaLive = await feedOf(dana, s.dana.id);
  const liveId = (await one<{ id: string }>(
    `SELECT id FROM calendar_feeds WHERE tenant_id = $1 AND user_id = $2 AND revoked_at IS NULL`,
    [s.t.id, s.dana.id],
  ))!.id;
  assert.equal((await eli.post(`/settings/calendar/feeds/${liveId}/revoke`, {})).status, 404);
  assert.equal((await dana.get(danaLive)).status, 200);
});

test("calendar feed kept rendered between polls never goes stale: a renamed customer, an edited job, a new job, a renamed member and a renamed crewmate show at once", async () => {
  const s = await setup();
  const job = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Boiler service",
    start: `${s.tuesday}T09:00`,
    end: `${s.tuesday}T11:00`,
  });
  const dana = await clientFor(s.dana);
  const feed = await feedOf(dana, s.dana.id);
  const read = async () => {
    const res = await dana.get(feed);
    assert.equal(res.status, 200);
    return res.text();
  };
  const first = await read();
  assert.equal(await read(), first, "an unchanged feed is the same file");
  // Changed behind the app's back (no updated_at bump): the fingerprint covers the values themselves.
  await rows(`UPDATE customers SET name = 'Rosa Marquez-Lee', phone = '555-0199' WHERE tenant_id = $1 AND id = $2`, [
    s.t.id,
    s.customer.id,
  ]);
  const renamed = parseFeed(await read());
  assert.equal(renamed[0].summary, "Boiler service – Rosa Marquez-Lee");
  assert.match(renamed[0].description!, /555-0199/);
  await rows(`UPDATE jobs SET description = 'Bring the long ladder' WHERE tenant_id = $1 AND id = $2`, [
    s.t.id,
    job.id,
  ]);
  assert.match(parseFeed(await read())[0].description!, /Bring the long ladder/);
  const added = await jobAt(s.t.id, {
    customerId: s.customer.id,
    assigneeId: s.dana.id,
    title: "Second visit",
    start: `${s.wednesday}T09:00`,
    end: `${s.wednesday}T10:00`,
  });
  assert.deepEqual(
    parseFeed(await read())
      .map((e) => e.uid)
      .sort(),
    [job.id, added.id].map((id) => `${id}@fieldwork`).sort(),
  );
  await rows(`UPDATE users SET name = 'Dana Diaz-Wu' WHERE tenant_id = $1 AND id = $2`, [s.t.id, s.dana.id]);
  assert.match(await read(), /X-WR-CALNAME:Dana Diaz-Wu/);
  // Another member on the visit's crew, then renamed: no write to the board's tables moves the
  // board version for a rename, the members' names in the fingerprint do.
  await rows(
    `INSERT INTO visit_assignees (tenant_id, visit_id, user_id)
     SELECT tenant_id, id, $3 FROM visits WHERE tenant_id = $1 AND job_id = $2`,
    [s.t.id, job.id, s.eli.id],
  );
  const crewOf = async () => parseFeed(await read()).find((e) => e.uid === `${job.id}@fieldwork`)!.description!;
  assert.match(await crewOf(), /Crew: Dana Diaz-Wu, Eli Moreau/);
  await rows(`UPDATE users SET name = 'Eli Moreau-Park' WHERE tenant_id = $1 AND id = $2`, [s.t.id, s.eli.id]);
  assert.match(await crewOf(), /Crew: Dana Diaz-Wu, Eli Moreau-Park/);
  await rows(`DELETE FROM jobs WHERE tenant_id = $1 AND id = $2`, [s.t.id, added.id]);
  assert.deepEqual(
    parseFeed(await read()).map((e) => e.uid),
    [`${job.id}@fieldwork`],
  );
});

test("another tenant's calendar feed, member or job id behaves as missing", async () => {
  const { a, b } = await twoTenants();
  const theirFeed = await one<{ id: string }>(
    `INSERT INTO calendar_feeds (tenant_id, user_id, created_by) VALUES ($1, $2, $2) RETURNING id`,
    [b.id, b.users.technician.id],
  );
  const admin = await clientFor(a.users.admin);
  assert.equal((await admin.post("/settings/calendar/feeds", { userId: b.users.technician.id })).status, 404);
  assert.equal((await admin.post(`/settings/calendar/feeds/${theirFeed!.id}/revoke`, {})).status, 404);
  // A token signed for our tenant naming their feed row.
  assert.equal((await admin.get(`/calendar/${signIdToken("calendar", a.id, theirFeed!.id)}.ics`)).status, 404);
  assert.equal(
    (await one<{ revoked_at: Date | null }>(`SELECT revoked_at FROM calendar_feeds WHERE tenant_id = $1 AND id = $2`, [
      b.id,
      theirFeed!.id,
    ]))!.revoked_at,
    null,
  );
});
