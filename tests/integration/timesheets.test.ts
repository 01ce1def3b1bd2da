// Timesheets and payroll (docs/decisions/385-timesheets.md): a technician's week built from
// real field-app syncs, the overtime rules, corrections, approval with a late entry from an
// offline phone, who sees whose week, and the payroll file's totals against the page's.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import Papa from "papaparse";
import { one, rows } from "../../db/index";
import { zonedToUtc } from "../../app/services/jobs/local-time";
import { Client, clientFor, envelope } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers, createUser, twoTenants } from "../helpers/fixtures";
import { textOf } from "../helpers/html";

const ZONE = "America/Chicago";
const WEEK = "2026-11-02"; // a Monday, after the fall-back change
const at = (local: string) => zonedToUtc(local, ZONE).toISOString();

type M = { id: number; type: string; occurredAt: string; args: Record<string, unknown> };

async function push(c: Client, clientId: string, mutations: M[]) {
  const res = await c.postJson("/api/offline-sync", { clientId, mutations });
  assert.equal(res.status, 200, `push answered ${res.status}`);
  return (await envelope(res)).data as { results: Array<{ id: number; status: string; error?: unknown }> };
}

/** A tenant in Chicago with a technician whose Monday and Tuesday are synced from the field app. */
async function fieldWeek() {
  const t = await createTenantWithUsers();
  await one(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, ZONE]);
  const tech = t.users.technician;
  const customer = await createCustomer(t.id, { name: "Maria Gonzalez" });
  const phone = await clientFor(tech);
  const clientId = randomUUID();
  const mutations: M[] = [];
  const m = (type: string, local: string, args: Record<string, unknown>) =>
    mutations.push({ id: mutations.length + 1, type, occurredAt: at(local), args });
  for (const day of ["2026-11-02", "2026-11-03"]) {
    // Two visits a day: the first with travel and a half-hour break, the second with travel.
    const a = await createJob(t.id, {
      customerId: customer.id,
      title: `Water heater ${day}`,
      assigneeId: tech.id,
      scheduledStart: new Date(at(`${day}T08:00`)),
    });
    const b = await createJob(t.id, {
      customerId: customer.id,
      title: `Drain cleaning ${day}`,
      assigneeId: tech.id,
      scheduledStart: new Date(at(`${day}T13:00`)),
    });
    m("job.status", `${day}T07:30`, { jobId: a.id, status: "en_route" }); // On my way
    m("job.status", `${day}T08:00`, { jobId: a.id, status: "in_progress" }); // Start
    m("job.clock", `${day}T10:00`, { jobId: a.id, action: "stop" }); // break
    m("job.clock", `${day}T10:30`, { jobId: a.id, action: "start" });
    m("job.status", `${day}T12:00`, { jobId: a.id, status: "completed" });
    m("job.status", `${day}T12:30`, { jobId: b.id, status: "en_route" });
    m("job.status", `${day}T13:00`, { jobId: b.id, status: "in_progress" });
    m("job.status", `${day}T16:30`, { jobId: b.id, status: "completed" });
  }
  const synced = await push(phone, clientId, mutations);
  assert.deepEqual(
    synced.results.map((r) => r.status),
    mutations.map(() => "applied"),
    JSON.stringify(synced.results.filter((r) => r.status !== "applied")),
  );
  return { t, tech, phone, clientId, next: mutations.length + 1, customer };
}

const weekPage = async (c: Client, userId: string) => {
  const res = await c.get(`/timesheets?userId=${userId}&week=${WEEK}`);
  const html = await res.text();
  return { status: res.status, html, text: textOf(html) };
};

/** The week's figures as the page shows them. */
function figures(text: string) {
  const f = (label: string) => Number(new RegExp(`${label} (\\d+\\.\\d\\d) h`).exec(text)?.[1]);
  return { paid: f("Paid"), regular: f("Regular"), overtime: f("Overtime") };
}

async function addEntry(c: Client, userId: string, day: string, from: string, to: string, extra = {}) {
  return c.post("/timesheets/entries", {
    userId,
    kind: "work",
    start: `${day}T${from}`,
    end: `${day}T${to}`,
    reason: "Shop work",
    ...extra,
  });
}

test("a technician's week from field-app syncs: two visits a day, travel, a break; right totals per day and week", async () => {
  const { t, tech } = await fieldWeek();
  const office = await clientFor(t.users.office);
  const page = await weekPage(office, tech.id);
  assert.equal(page.status, 200);
  // Each day: 0.5 h travel + 2 h + 1.5 h work on the first visit, 0.5 h travel + 3.5 h on the second = 8 h paid.
  assert.deepEqual(figures(page.text), { paid: 16, regular: 16, overtime: 0 });
  assert.match(page.text, /Monday, November 2 8\.00 h break 30 min/);
  assert.match(page.text, /Tuesday, November 3 8\.00 h break 30 min/);
  assert.match(page.text, /07:30–08:00 Travel Water heater 2026-11-02 30 min/);
  assert.match(page.text, /08:00–10:00 Work Water heater 2026-11-02 2 h/);
  assert.match(page.text, /10:00–10:30 Break Water heater 2026-11-02 30 min/);
  assert.match(page.text, /10:30–12:00 Work Water heater 2026-11-02 1 h 30 min/);
  assert.match(page.text, /12:30–13:00 Travel Drain cleaning 2026-11-02 30 min/);
  assert.match(page.text, /13:00–16:30 Work Drain cleaning 2026-11-02 3 h 30 min/);
  // The break is neither paid nor billed: the job's labour is the 3.5 h of travel and work.
  const billed = await one<{ minutes: number }>(
    `SELECT (sum(extract(epoch FROM ended_at - started_at)) / 60)::int AS minutes FROM time_entries
      WHERE tenant_id = $1 AND user_id = $2 AND kind <> 'break' AND started_at < $3`,
    [t.id, tech.id, at("2026-11-03T00:00")],
  );
  assert.equal(billed!.minutes, 8 * 60);
  // The team's week: one row per person, the technician's hours per day.
  const team = textOf(await (await office.get(`/timesheets?week=2026-11-05`)).text());
  assert.match(team, new RegExp(`${t.users.technician.name} 8\\.00 8\\.00 – – – – – 16\\.00 16\\.00 0\\.00 Open`));
});

test("overtime: 46 h with the 40 h weekly rule is 40 regular and 6 overtime; an 8 h daily rule counts each hour once; the CSV's totals equal the page's", async () => {
  const { t, tech } = await fieldWeek();
  const owner = await clientFor(t.users.owner);
  // The office adds Wednesday to Friday, 10 h each: 16 + 30 = 46 h.
  for (const day of ["2026-11-04", "2026-11-05", "2026-11-06"]) {
    assert.equal((await addEntry(owner, tech.id, day, "07:00", "17:00")).status, 303);
  }
  let page = await weekPage(owner, tech.id);
  assert.deepEqual(figures(page.text), { paid: 46, regular: 40, overtime: 6 });
  assert.match(page.text, /Friday, November 6 10\.00 h incl\. 6\.00 h overtime/);

  // Saturday 6 h more (52 h), then an 8 h daily rule: Wed-Fri give 2 h daily overtime each (6 h);
  // the other 46 h count toward the week, 6 over 40: 12 h overtime in all, not 6 + 12.
  assert.equal((await addEntry(owner, tech.id, "2026-11-07", "08:00", "14:00")).status, 303);
  const settings = await one<Record<string, unknown>>(`SELECT name FROM tenants WHERE id = $1`, [t.id]);
  const saved = await owner.post("/settings/company", {
    businessName: settings!.name as string,
    timeZone: ZONE,
    currency: "USD",
    paymentTermsDays: "14",
    quoteValidityDays: "30",
    weekStartsOn: "monday",
    overtimeWeeklyHours: "40",
    overtimeDailyHours: "8",
  });
  assert.equal(saved.status, 303);
  page = await weekPage(owner, tech.id);
  assert.deepEqual(figures(page.text), { paid: 52, regular: 40, overtime: 12 });
  assert.match(page.text, /Wednesday, November 4 10\.00 h incl\. 2\.00 h overtime/);

  // The payroll file: one row per person and day; its sums are the page's.
  const csv = await owner.get(`/timesheets/export.csv?week=${WEEK}`);
  assert.equal(csv.status, 200);
  assert.match(csv.headers.get("content-type") ?? "", /text\/csv/);
  const parsed = Papa.parse<Record<string, string>>((await csv.text()).replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: true,
  });
  const mine = parsed.data.filter((r) => r.employee_email === tech.email);
  assert.equal(mine.length, 7);
  const sum = (k: string) => mine.reduce((n, r) => n + Number(r[k]), 0);
  assert.deepEqual(
    { paid: sum("total_hours"), regular: sum("regular_hours"), overtime: sum("overtime_hours") },
    figures(page.text),
  );
  assert.equal(sum("regular_minutes") + sum("overtime_minutes"), 52 * 60);
  assert.deepEqual(
    mine.map((r) => r.date),
    ["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06", "2026-11-07", "2026-11-08"],
  );
});

test("a week across the daylight-saving change counts real elapsed hours", async () => {
  const t = await createTenantWithUsers();
  await one(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, ZONE]);
  const owner = await clientFor(t.users.owner);
  // 2026-11-01 02:00 CDT falls back to 01:00 CST: Saturday 22:00 to Sunday 06:00 is 9 real hours.
  assert.equal((await addEntry(owner, t.users.technician.id, "2026-10-31", "22:00", "23:59")).status, 303);
  assert.equal(
    (
      await owner.post("/timesheets/entries", {
        userId: t.users.technician.id,
        kind: "work",
        start: "2026-11-01T00:00",
        end: "2026-11-01T06:00",
      })
    ).status,
    303,
  );
  const res = await owner.get(`/timesheets?userId=${t.users.technician.id}&week=2026-10-29`);
  const text = textOf(await res.text());
  assert.match(text, /Sunday, November 1 7\.00 h/);
  assert.equal(figures(text).paid, 8.98); // 1 h 59 min + 7 h
});

test("approval locks the week; a late entry from an offline phone syncs as applied, waits as pending without changing the totals, and counts once accepted", async () => {
  const { t, tech, phone, clientId, next, customer } = await fieldWeek();
  const office = await clientFor(t.users.office);
  const approve = await office.post("/timesheets/approve", { userId: tech.id, week: "2026-11-04" });
  assert.equal(approve.status, 303);
  assert.equal(approve.headers.get("location"), `/timesheets?userId=${tech.id}&week=${WEEK}`);
  let page = await weekPage(office, tech.id);
  assert.match(page.text, /Approved by/);
  assert.deepEqual(figures(page.text), { paid: 16, regular: 16, overtime: 0 });

  // Locked: the office's form and a correction are refused with 409 and change nothing.
  const before = await rows(
    `SELECT id, started_at, ended_at, state FROM time_entries WHERE tenant_id = $1 ORDER BY id`,
    [t.id],
  );
  assert.equal((await addEntry(office, tech.id, "2026-11-04", "08:00", "09:00")).status, 409);
  const entry = before[0] as { id: string };
  assert.equal((await office.post(`/timesheets/entries/${entry.id}`, { intent: "delete", reason: "x" })).status, 409);
  assert.equal((await office.post("/timesheets/approve", { userId: tech.id, week: WEEK })).status, 409);
  assert.deepEqual(
    await rows(`SELECT id, started_at, ended_at, state FROM time_entries WHERE tenant_id = $1 ORDER BY id`, [t.id]),
    before,
  );

  // The phone was offline on Wednesday; its entries arrive now, after approval.
  const job = await createJob(t.id, {
    customerId: customer.id,
    title: "Boiler service",
    assigneeId: tech.id,
    scheduledStart: new Date(at("2026-11-04T09:00")),
  });
  const late = await push(phone, clientId, [
    {
      id: next,
      type: "job.time_entry",
      occurredAt: at("2026-11-04T12:00"),
      args: { jobId: job.id, startedAt: at("2026-11-04T09:00"), endedAt: at("2026-11-04T12:00") },
    },
    {
      id: next + 1,
      type: "job.time_entry",
      occurredAt: at("2026-11-04T13:00"),
      args: { jobId: job.id, startedAt: at("2026-11-04T12:30"), endedAt: at("2026-11-04T13:00") },
    },
  ]);
  assert.deepEqual(
    late.results.map((r) => r.status),
    ["applied", "applied"],
  );
  page = await weekPage(office, tech.id);
  assert.deepEqual(figures(page.text), { paid: 16, regular: 16, overtime: 0 }, "the approved totals are unchanged");
  assert.match(page.text, /Waiting for the office/);
  assert.equal(page.text.match(/Pending: arrived after approval/g)?.length, 2);
  const pending = await rows<{ id: string; started_at: Date }>(
    `SELECT id, started_at FROM time_entries WHERE tenant_id = $1 AND state = 'pending' ORDER BY started_at`,
    [t.id],
  );
  assert.equal(pending.length, 2);
  const team = textOf(await (await office.get(`/timesheets?week=${WEEK}`)).text());
  assert.match(team, /Approved 2 pending/);

  // Discard one with a reason: gone, and the history keeps the reason.
  assert.equal(
    (await office.post(`/timesheets/entries/${pending[1].id}`, { intent: "discard" })).status,
    422,
    "a discard needs a reason",
  );
  const discarded = await office.post(`/timesheets/entries/${pending[1].id}`, {
    intent: "discard",
    reason: "Duplicate of the paper sheet",
  });
  assert.equal(discarded.status, 303);
  // Accept the other: the week is reopened and the entry counts.
  assert.equal((await office.post(`/timesheets/entries/${pending[0].id}`, { intent: "accept" })).status, 303);
  page = await weekPage(office, tech.id);
  assert.deepEqual(figures(page.text), { paid: 19, regular: 19, overtime: 0 });
  assert.match(page.text, /Open/);
  assert.doesNotMatch(page.text, /Waiting for the office/);
  assert.match(page.text, /discarded a pending entry ?: “Duplicate of the paper sheet”/);
  assert.match(page.text, /reopened the week/);
  assert.equal(
    (await one<{ n: number }>(`SELECT count(*)::int AS n FROM timesheet_weeks WHERE tenant_id = $1`, [t.id]))!.n,
    0,
  );
  // Approve again, reopen by hand, correct with a reason: the history shows each step.
  assert.equal((await office.post("/timesheets/approve", { userId: tech.id, week: WEEK })).status, 303);
  assert.equal((await office.post("/timesheets/reopen", { userId: tech.id, week: WEEK })).status, 303);
  const corrected = await office.post(`/timesheets/entries/${pending[0].id}`, {
    intent: "update",
    userId: tech.id,
    kind: "work",
    start: "2026-11-04T09:00",
    end: "2026-11-04T11:00",
    reason: "Left at 11",
  });
  assert.equal(corrected.status, 303);
  page = await weekPage(office, tech.id);
  assert.equal(figures(page.text).paid, 18);
  assert.match(page.text, /corrected an entry \(09:00–12:00 → 09:00–11:00\) ?: “Left at 11”/);
});

test("corrections: a technician adds a manual entry, pending until accepted; overlapping entries are flagged", async () => {
  const { t, tech } = await fieldWeek();
  const techClient = await clientFor(tech);
  const office = await clientFor(t.users.office);
  const manual = await addEntry(techClient, tech.id, "2026-11-05", "08:00", "10:00", { reason: "Forgot the app" });
  assert.equal(manual.status, 303);
  let page = await weekPage(techClient, tech.id);
  assert.match(page.text, /Pending: manual entry/);
  assert.equal(figures(page.text).paid, 16);
  // Overlapping the manual one: both flagged.
  assert.equal((await addEntry(office, tech.id, "2026-11-05", "09:00", "11:00")).status, 303);
  page = await weekPage(office, tech.id);
  assert.equal(page.text.match(/Overlaps another entry/g)?.length, 2);
  assert.match(page.text, /Some entries overlap/);
  // Approving a week with a pending entry is refused until it is settled.
  assert.equal((await office.post("/timesheets/approve", { userId: tech.id, week: WEEK })).status, 409);
  const id = (await one<{ id: string }>(`SELECT id FROM time_entries WHERE tenant_id = $1 AND state = 'pending'`, [
    t.id,
  ]))!.id;
  assert.equal((await techClient.post(`/timesheets/entries/${id}`, { intent: "accept" })).status, 403);
  assert.equal((await office.post(`/timesheets/entries/${id}`, { intent: "accept" })).status, 303);
  page = await weekPage(office, tech.id);
  assert.equal(figures(page.text).paid, 20);
});

test("who sees whose timesheet: a technician only their own (another's 403), another tenant's person is unknown; payroll for owner and admin", async () => {
  const { a, b } = await twoTenants();
  const colleague = await createUser(a.id, { role: "technician" });
  const tech = await clientFor(a.users.technician);
  const own = await tech.get(`/timesheets?userId=${a.users.technician.id}&week=${WEEK}`);
  assert.equal(own.status, 200);
  assert.match(textOf(await tech.get("/timesheets").then((r) => r.text())), /My timesheet/);
  assert.equal((await tech.get(`/timesheets?userId=${colleague.id}&week=${WEEK}`)).status, 403);
  assert.equal((await addEntry(tech, colleague.id, "2026-11-04", "08:00", "09:00")).status, 403);
  assert.equal((await tech.post("/timesheets/approve", { userId: a.users.technician.id, week: WEEK })).status, 403);
  for (const c of [tech, await clientFor(a.users.office)]) {
    assert.equal((await c.get(`/timesheets/export.csv?week=${WEEK}`)).status, 403);
  }
  for (const c of [await clientFor(a.users.owner), await clientFor(a.users.admin)]) {
    assert.equal((await c.get(`/timesheets/export.csv?week=${WEEK}`)).status, 200);
  }
  const office = await clientFor(a.users.office);
  for (const id of [b.users.technician.id, randomUUID()]) {
    assert.equal((await office.get(`/timesheets?userId=${id}&week=${WEEK}`)).status, 404);
    assert.equal((await tech.get(`/timesheets?userId=${id}&week=${WEEK}`)).status, 404);
    assert.equal((await addEntry(office, id, "2026-11-04", "08:00", "09:00")).status, 404);
    assert.equal((await office.post("/timesheets/approve", { userId: id, week: WEEK })).status, 404);
  }
  assert.equal(
    (await one<{ n: number }>(`SELECT count(*)::int AS n FROM time_entries WHERE tenant_id = $1`, [b.id]))!.n,
    0,
  );
});

test("role matrix of the timesheet routes: owner, admin and office manage anyone's week (payroll: owner and admin only); a technician sees and adds to their own week only (another's 403; corrections, approval and payroll 403); signed out goes to sign-in; every refusal changes nothing", async () => {
  const t = await createTenantWithUsers("Timesheet Roles");
  const W = "2026-06-15"; // a Monday in UTC, the tenant's zone
  const tech = t.users.technician;
  const colleague = await createUser(t.id, { role: "technician", name: "Cole Colleague" });
  const entry = async (userId: string, day: string, state = "counted") =>
    (await one<{ id: string }>(
      `INSERT INTO time_entries (tenant_id, user_id, started_at, ended_at, kind, state, origin)
       VALUES ($1, $2, $3, $4, 'work', $5, $6) RETURNING id`,
      [t.id, userId, `${day}T06:00:00Z`, `${day}T07:00:00Z`, state, state === "pending" ? "technician" : "field"],
    ))!.id;
  /** The tenant's timesheet rows (entries, approved weeks, history), to see that a refusal wrote nothing. */
  const stateOf = async () =>
    one<{ entries: string | null; weeks: string | null; changes: number }>(
      `SELECT (SELECT string_agg(e::text, '|' ORDER BY e.id) FROM time_entries e WHERE e.tenant_id = $1) AS entries,
              (SELECT string_agg(w::text, '|' ORDER BY w.user_id, w.week_start) FROM timesheet_weeks w WHERE w.tenant_id = $1) AS weeks,
              (SELECT count(*)::int FROM timesheet_changes c WHERE c.tenant_id = $1) AS changes`,
      [t.id],
    );
  const form = (userId: string, day: string, from: string, to: string) => ({
    userId,
    kind: "work",
    start: `${day}T${from}`,
    end: `${day}T${to}`,
    reason: "Shop work",
  });
  const toSignIn = (res: Response, what: string) => {
    assert.equal(res.status, 302, what);
    assert.match(res.headers.get("location") ?? "", /^\/login\?redirectTo=/, what);
  };

  const days = { owner: "2026-06-15", admin: "2026-06-16", office: "2026-06-17" } as const;
  for (const role of ["owner", "admin", "office"] as const) {
    const c = await clientFor(t.users[role]);
    const day = days[role];
    const team = await c.get(`/timesheets?week=${W}`);
    assert.equal(team.status, 200, `${role}: the team's week`);
    const teamText = textOf(await team.text());
    assert.match(teamText, /Cole Colleague/, role);
    assert.equal(/Export for payroll/.test(teamText), role !== "office", `${role}: the payroll link`);
    assert.equal((await c.get(`/timesheets?userId=${colleague.id}&week=${W}`)).status, 200, `${role}: a person's week`);
    // Add, correct and delete an entry of the colleague's.
    assert.equal((await c.post("/timesheets/entries", form(colleague.id, day, "08:00", "12:00"))).status, 303, role);
    const added = (await one<{ id: string }>(
      `SELECT id FROM time_entries WHERE tenant_id = $1 AND user_id = $2 AND origin = 'office' ORDER BY created_at DESC LIMIT 1`,
      [t.id, colleague.id],
    ))!.id;
    const update = { intent: "update", ...form(colleague.id, day, "08:00", "11:00"), reason: "Left at 11" };
    assert.equal((await c.post(`/timesheets/entries/${added}`, update)).status, 303, `${role}: update`);
    const removed = await c.post(`/timesheets/entries/${added}`, { intent: "delete", reason: "Typed twice" });
    assert.equal(removed.status, 303, `${role}: delete`);
    // Accept one pending entry, discard another.
    const accepted = await c.post(`/timesheets/entries/${await entry(colleague.id, day, "pending")}`, {
      intent: "accept",
    });
    assert.equal(accepted.status, 303, `${role}: accept`);
    const discard = { intent: "discard", reason: "Not worked" };
    assert.equal(
      (await c.post(`/timesheets/entries/${await entry(colleague.id, day, "pending")}`, discard)).status,
      303,
      `${role}: discard`,
    );
    // Approve the week (locked: an added entry is 409), then reopen it.
    assert.equal((await c.post("/timesheets/approve", { userId: colleague.id, week: W })).status, 303, role);
    assert.equal(
      (await c.post("/timesheets/entries", form(colleague.id, day, "13:00", "14:00"))).status,
      409,
      `${role}: locked`,
    );
    assert.equal((await c.post("/timesheets/reopen", { userId: colleague.id, week: W })).status, 303, role);
    const csv = await c.get(`/timesheets/export.csv?week=${W}`);
    assert.equal(csv.status, role === "office" ? 403 : 200, `${role}: payroll`);
    // The action routes' GETs go back to the timesheets.
    for (const p of [
      "/timesheets/entries",
      `/timesheets/entries/${added}`,
      "/timesheets/approve",
      "/timesheets/reopen",
    ]) {
      const res = await c.get(p);
      assert.equal(res.status, 302, `${role}: GET ${p}`);
      assert.equal(res.headers.get("location"), "/timesheets", `${role}: GET ${p}`);
    }
  }
  const history = await rows<{ action: string; n: number }>(
    `SELECT action::text, count(*)::int AS n FROM timesheet_changes WHERE tenant_id = $1 GROUP BY 1 ORDER BY 1`,
    [t.id],
  );
  assert.deepEqual(
    Object.fromEntries(history.map((h) => [h.action, h.n])),
    { accept: 3, add: 3, approve: 3, delete: 3, discard: 3, reopen: 3, update: 3 },
    "every change of the three roles is in the history",
  );

  // A technician: their own week, and a manual entry of their own that waits as pending.
  const c = await clientFor(tech);
  const mine = await c.get(`/timesheets?week=${W}`);
  assert.equal(mine.status, 200);
  const mineText = textOf(await mine.text());
  assert.match(mineText, /My timesheet/);
  assert.doesNotMatch(mineText, /Cole Colleague/);
  assert.equal((await c.get(`/timesheets?userId=${tech.id}&week=${W}`)).status, 200);
  assert.equal((await c.post("/timesheets/entries", form(tech.id, "2026-06-18", "08:00", "10:00"))).status, 303);
  const manual = (await one<{ state: string; origin: string }>(
    `SELECT state, origin FROM time_entries WHERE tenant_id = $1 AND user_id = $2`,
    [t.id, tech.id],
  ))!;
  assert.deepEqual(manual, { state: "pending", origin: "technician" });
  const ownEntry = await entry(tech.id, "2026-06-19");
  const theirEntry = await entry(colleague.id, "2026-06-19");
  const before = await stateOf();
  const refused: Array<[string, () => Promise<Response>]> = [
    ["GET another's week", () => c.get(`/timesheets?userId=${colleague.id}&week=${W}`)],
    ["add to another's week", () => c.post("/timesheets/entries", form(colleague.id, "2026-06-18", "08:00", "09:00"))],
    ["approve own", () => c.post("/timesheets/approve", { userId: tech.id, week: W })],
    ["approve another's", () => c.post("/timesheets/approve", { userId: colleague.id, week: W })],
    ["reopen own", () => c.post("/timesheets/reopen", { userId: tech.id, week: W })],
    ["reopen another's", () => c.post("/timesheets/reopen", { userId: colleague.id, week: W })],
    ["payroll", () => c.get(`/timesheets/export.csv?week=${W}`)],
  ];
  for (const [whose, id] of [
    ["own", ownEntry],
    ["another's", theirEntry],
  ]) {
    const bodies = {
      update: { intent: "update", ...form(whose === "own" ? tech.id : colleague.id, "2026-06-19", "05:00", "08:00") },
      delete: { intent: "delete", reason: "Mine" },
      accept: { intent: "accept" },
      discard: { intent: "discard", reason: "Mine" },
    };
    for (const [intent, body] of Object.entries(bodies))
      refused.push([`${intent} ${whose} entry`, () => c.post(`/timesheets/entries/${id}`, body)]);
  }
  for (const [what, ask] of refused) assert.equal((await ask()).status, 403, `technician: ${what}`);
  assert.deepEqual(await stateOf(), before, "the technician's refused requests changed nothing");

  // Signed out: every route sends to sign-in and changes nothing.
  const visitor = new Client();
  for (const p of [
    `/timesheets?week=${W}`,
    `/timesheets?userId=${tech.id}&week=${W}`,
    `/timesheets/export.csv?week=${W}`,
    "/timesheets/entries",
    `/timesheets/entries/${ownEntry}`,
    "/timesheets/approve",
    "/timesheets/reopen",
  ])
    toSignIn(await visitor.get(p), `signed out: GET ${p}`);
  for (const [p, body] of [
    ["/timesheets/entries", form(tech.id, "2026-06-19", "10:00", "11:00")],
    [`/timesheets/entries/${ownEntry}`, { intent: "delete", reason: "Gone" }],
    [`/timesheets/entries/${ownEntry}`, { intent: "update", ...form(tech.id, "2026-06-19", "05:00", "08:00") }],
    ["/timesheets/approve", { userId: tech.id, week: W }],
    ["/timesheets/reopen", { userId: tech.id, week: W }],
  ] as const)
    toSignIn(await visitor.post(p, body), `signed out: POST ${p}`);
  assert.deepEqual(await stateOf(), before, "the signed-out requests changed nothing");
});
