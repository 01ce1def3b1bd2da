import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { extendAllSeries } from "../../app/services/visits/series.server";
import { clientFor, type Client } from "../helpers/client";
import { createCustomer, createTenantWithUsers, createUser, twoTenants } from "../helpers/fixtures";
import { textOf } from "../helpers/html";

// Changing a visit (docs/decisions/316-visit-edit.md): /visits/<id>/edit changes its start, end
// (several days allowed), crew and note, or cancels it; a visit of a recurring job changes alone
// or with the visits after it; completed and past visits never change.

const DAY = 86_400_000;
/** A date `days` from now, `YYYY-MM-DD` (a Chicago date, at least a day ahead of any zone). */
const dayAhead = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

async function setup() {
  const tenant = await createTenantWithUsers();
  await rows(`UPDATE tenants SET time_zone = 'America/Chicago' WHERE id = $1`, [tenant.id]);
  const customer = await createCustomer(tenant.id, { name: "Vera Visits" });
  const office = await clientFor(tenant.users.office);
  return { tenant, customer, office };
}

async function post(c: Client, path: string, fields: Array<[string, string]>) {
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  return c.post(path, form);
}

type Row = { id: string; local: string; end: string; status: string; crew: string[]; note: string | null };
const visitsOf = (tenantId: string, jobId: string) =>
  rows<Row>(
    `SELECT v.id, to_char(v.starts_at AT TIME ZONE 'America/Chicago', 'YYYY-MM-DD HH24:MI') AS local,
            to_char(v.ends_at AT TIME ZONE 'America/Chicago', 'YYYY-MM-DD HH24:MI') AS end, v.status, v.note,
            coalesce(array_agg(a.user_id::text ORDER BY a.user_id) FILTER (WHERE a.user_id IS NOT NULL), '{}') AS crew
       FROM visits v LEFT JOIN visit_assignees a ON a.tenant_id = v.tenant_id AND a.visit_id = v.id
      WHERE v.tenant_id = $1 AND v.job_id = $2 GROUP BY v.tenant_id, v.id ORDER BY v.starts_at`,
    [tenantId, jobId],
  );

async function weeklyJob(office: Client, customerId: string, techId: string, extra: Array<[string, string]> = []) {
  const first = dayAhead(3);
  const res = await post(office, "/jobs/new", [
    ["customerId", customerId],
    ["title", "Weekly filter change"],
    ["scheduledStart", `${first}T09:00`],
    ["scheduledEnd", `${first}T10:00`],
    ["assigneeId", techId],
    ["repeat", "weekly"],
    ...extra,
  ]);
  assert.equal(res.status, 303);
  return res.headers.get("location")!.split("/").pop()!;
}

test("“this and following” from visit 3 moves visits 3 and later to 13:00 and leaves 1-2; later visits made by the worker follow", async () => {
  const { tenant, customer, office } = await setup();
  const jobId = await weeklyJob(office, customer.id, tenant.users.technician.id);
  const before = await visitsOf(tenant.id, jobId);
  assert.ok(before.length > 50);
  const third = before[2]!;
  const page = await office.get(`/visits/${third.id}/edit`);
  assert.equal(page.status, 200);
  const html = textOf(await page.text());
  assert.match(html, /This visit only/);
  assert.match(html, /This and following visits/);
  const date = third.local.slice(0, 10);
  const res = await post(office, `/visits/${third.id}/edit`, [
    ["intent", "save"],
    ["start", `${date}T13:00`],
    ["end", `${date}T14:30`],
    ["assigneeIds", tenant.users.technician.id],
    ["assigneeIds", tenant.users.owner.id],
    ["scope", "following"],
  ]);
  assert.equal(res.status, 303, textOf(await res.clone().text()).slice(0, 300));
  assert.equal(res.headers.get("location"), `/jobs/${jobId}`);
  const after = await visitsOf(tenant.id, jobId);
  assert.equal(after.length, before.length, "no visit made or lost");
  assert.deepEqual(
    after.slice(0, 2).map((v) => v.local),
    before.slice(0, 2).map((v) => v.local),
  );
  assert.ok(after.slice(0, 2).every((v) => v.local.endsWith("09:00") && v.crew.length === 1));
  assert.ok(after.slice(2).every((v) => v.local.endsWith(" 13:00") && v.end.endsWith(" 14:30")));
  assert.deepEqual(
    after.slice(2).map((v) => v.local.slice(0, 10)),
    before.slice(2).map((v) => v.local.slice(0, 10)),
    "the same days",
  );
  const two = [tenant.users.technician.id, tenant.users.owner.id].sort();
  assert.ok(after.slice(2).every((v) => v.crew.join() === two.join()));
  // The worker, a month later, makes the new visits at 13:00 with the new crew, and none twice.
  await extendAllSeries(new Date(Date.now() + 40 * DAY));
  const extended = await visitsOf(tenant.id, jobId);
  assert.ok(extended.length >= after.length + 4);
  assert.ok(extended.slice(2).every((v) => v.local.endsWith(" 13:00") && v.crew.join() === two.join()));
  const days = extended.map((v) => v.local.slice(0, 10));
  assert.equal(new Set(days).size, days.length, "one visit a day at most");
  // The job's history says what happened.
  assert.match(textOf(await (await office.get(`/jobs/${jobId}`)).text()), /and the \d+ after it moved to 13:00/);
});

test("this visit only: another day, several days long, a new crew and a note; the others stay", async () => {
  const { tenant, customer, office } = await setup();
  const jobId = await weeklyJob(office, customer.id, tenant.users.technician.id, [["endsAfter", "4"]]);
  const before = await visitsOf(tenant.id, jobId);
  const second = before[1]!;
  const second2 = await createUser(tenant.id, { role: "technician", name: "Sam Second" });
  const monday = dayAhead(12);
  const res = await post(office, `/visits/${second.id}/edit`, [
    ["intent", "save"],
    ["start", `${monday}T08:00`],
    ["end", `${dayAhead(14)}T17:00`],
    ["assigneeIds", second2.id],
    ["assigneeIds", tenant.users.technician.id],
    ["note", "Bring the long ladder"],
    ["scope", "this"],
  ]);
  assert.equal(res.status, 303);
  const after = await visitsOf(tenant.id, jobId);
  const moved = after.find((v) => v.id === second.id)!;
  assert.equal(moved.local, `${monday} 08:00`);
  assert.equal(moved.end, `${dayAhead(14)} 17:00`);
  assert.equal(moved.note, "Bring the long ladder");
  assert.deepEqual(moved.crew, [second2.id, tenant.users.technician.id].sort());
  for (const v of after.filter((x) => x.id !== second.id)) {
    const was = before.find((b) => b.id === v.id)!;
    assert.deepEqual([v.local, v.crew], [was.local, was.crew]);
  }
});

test("bad input is refused beside the field; completed and past visits never change; cancelling one and the ones after it", async () => {
  const { tenant, customer, office } = await setup();
  const jobId = await weeklyJob(office, customer.id, tenant.users.technician.id, [["endsAfter", "5"]]);
  const [v1, v2, v3] = await visitsOf(tenant.id, jobId);
  const { b } = await twoTenants();
  const bad = async (fields: Array<[string, string]>, pattern: RegExp, status = 422) => {
    const res = await post(office, `/visits/${v2!.id}/edit`, [["intent", "save"], ...fields]);
    assert.equal(res.status, status);
    assert.match(textOf(await res.text()), pattern);
  };
  const d2 = v2!.local.slice(0, 10);
  await bad(
    [
      ["start", `${d2}T10:00`],
      ["end", `${d2}T09:00`],
    ],
    /The end must be after the start\./,
  );
  await bad([["start", `${d2}T10:00`]], /Enter the visit's end\./);
  await bad(
    [
      ["start", `${d2}T10:00`],
      ["end", `${d2}T11:00`],
      ["assigneeIds", b.users.technician.id],
    ],
    /Choose members of your team\./,
  );
  await bad(
    [
      ["start", `${dayAhead(30)}T10:00`],
      ["end", `${dayAhead(30)}T11:00`],
      ["scope", "following"],
    ],
    /only the time can change/,
  );
  assert.deepEqual(await visitsOf(tenant.id, jobId).then((l) => l.find((v) => v.id === v2!.id)!.local), v2!.local);

  // Completed, and past: 409 with a clear message, and the page offers no form.
  await rows(`UPDATE visits SET status = 'completed', completed_at = now() WHERE tenant_id = $1 AND id = $2`, [
    tenant.id,
    v1!.id,
  ]);
  const done = await post(office, `/visits/${v1!.id}/edit`, [
    ["intent", "save"],
    ["start", `${dayAhead(40)}T10:00`],
    ["end", `${dayAhead(40)}T11:00`],
  ]);
  assert.equal(done.status, 409);
  assert.match(textOf(await done.text()), /This visit is completed; it can no longer change\./);
  const donePage = await (await office.get(`/visits/${v1!.id}/edit`)).text();
  assert.match(textOf(donePage), /This visit is completed/);
  assert.doesNotMatch(donePage, /name="start"/);
  const past = await one<{ id: string }>(
    `INSERT INTO visits (tenant_id, job_id, starts_at, ends_at) VALUES ($1, $2, now() - interval '2 days', now() - interval '47 hours') RETURNING id`,
    [tenant.id, jobId],
  );
  const pastRes = await post(office, `/visits/${past!.id}/edit`, [["intent", "cancel"]]);
  assert.equal(pastRes.status, 409);
  assert.match(textOf(await pastRes.text()), /This visit is in the past; it can no longer change\./);

  // Cancel visit 3 and the ones after it: the series ends before it.
  const cancel = await post(office, `/visits/${v3!.id}/edit`, [
    ["intent", "cancel"],
    ["scope", "following"],
  ]);
  assert.equal(cancel.status, 303);
  const after = await visitsOf(tenant.id, jobId);
  assert.deepEqual(
    after.filter((v) => v.id !== past!.id).map((v) => v.status),
    ["completed", "scheduled", "cancelled", "cancelled", "cancelled"],
  );
  const series = await rows<{ open_ended: boolean; rule: string }>(
    `SELECT open_ended, rule FROM visit_series WHERE tenant_id = $1 AND job_id = $2`,
    [tenant.id, jobId],
  );
  assert.equal(series.length, 1);
  assert.match(series[0]!.rule, /UNTIL=/);
  // Cancelled is final.
  const again = await post(office, `/visits/${v3!.id}/edit`, [["intent", "cancel"]]);
  assert.equal(again.status, 409);
});

test("a technician on the crew may not change the visit (403); one not on it, and another tenant, find no visit (404)", async () => {
  const { tenant, customer, office } = await setup();
  const jobId = await weeklyJob(office, customer.id, tenant.users.technician.id, [["endsAfter", "2"]]);
  const [v1] = await visitsOf(tenant.id, jobId);
  const onCrew = await clientFor(tenant.users.technician);
  assert.equal((await onCrew.get(`/visits/${v1!.id}/edit`)).status, 403);
  assert.equal((await post(onCrew, `/visits/${v1!.id}/edit`, [["intent", "cancel"]])).status, 403);
  const other = await createUser(tenant.id, { role: "technician", name: "Otto Other" });
  const notOnCrew = await clientFor(other);
  const notFound = await notOnCrew.get(`/visits/${v1!.id}/edit`);
  assert.equal(notFound.status, 404);
  assert.equal((await post(notOnCrew, `/visits/${v1!.id}/edit`, [["intent", "cancel"]])).status, 404);
  assert.equal((await visitsOf(tenant.id, jobId))[0]!.status, "scheduled");
  // Owner, admin and office may.
  for (const role of ["owner", "admin"] as const)
    assert.equal((await (await clientFor(tenant.users[role])).get(`/visits/${v1!.id}/edit`)).status, 200);
});

test("“this and following” with a new rule from visit 3: a weekly job becomes every 2 weeks on Thursday; visits 1-2 stay, the form offers the rule and refuses it for this visit only", async () => {
  const { tenant, customer, office } = await setup();
  const jobId = await weeklyJob(office, customer.id, tenant.users.technician.id, [["endsAfter", "6"]]);
  const before = await visitsOf(tenant.id, jobId);
  assert.equal(before.length, 6);
  const third = before[2]!;
  const page = textOf(await (await office.get(`/visits/${third.id}/edit`)).text());
  assert.match(page, /Keep the rule \(every week on \w+day for 6 times\)/);
  assert.match(page, /Repeats/);
  // A Thursday at least a day after visit 3's date (the form's start is the new rule's first visit).
  const d = new Date(`${third.local.slice(0, 10)}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + ((4 - d.getUTCDay() + 7) % 7 || 7));
  const thursday = d.toISOString().slice(0, 10);
  const rule: Array<[string, string]> = [
    ["intent", "save"],
    ["start", `${thursday}T15:00`],
    ["end", `${thursday}T16:00`],
    ["assigneeIds", tenant.users.technician.id],
    ["note", "Side gate"],
    ["repeat", "weekly"],
    ["interval", "2"],
    ["weekdays", "thursday"],
    ["endsAfter", "3"],
  ];
  // "This visit only" cannot change the rule: the form says so and nothing changes.
  const refused = await post(office, `/visits/${third.id}/edit`, [...rule, ["scope", "this"]]);
  assert.equal(refused.status, 422);
  assert.match(textOf(await refused.text()), /To change how the job repeats, choose “this and following visits”/);
  assert.deepEqual(await visitsOf(tenant.id, jobId), before);

  const res = await post(office, `/visits/${third.id}/edit`, [...rule, ["scope", "following"]]);
  assert.equal(res.status, 303, textOf(await res.clone().text()).slice(0, 300));
  const after = await visitsOf(tenant.id, jobId);
  assert.deepEqual(after.slice(0, 2), before.slice(0, 2), "visits 1-2 unchanged");
  const next = (days: number) => {
    const x = new Date(`${thursday}T12:00:00Z`);
    x.setUTCDate(x.getUTCDate() + days);
    return x.toISOString().slice(0, 10);
  };
  assert.deepEqual(
    after.slice(2).map((v) => v.local),
    [`${thursday} 15:00`, `${next(14)} 15:00`, `${next(28)} 15:00`],
  );
  assert.ok(after.slice(2).every((v) => v.status === "scheduled" && v.crew.join() === tenant.users.technician.id));
  assert.equal(after[2]!.note, "Side gate");
  // The old series ends before visit 3; the job now repeats by the new rule.
  const series = await rows<{ rule: string; open_ended: boolean }>(
    `SELECT rule, open_ended FROM visit_series WHERE tenant_id = $1 AND job_id = $2 ORDER BY first_local`,
    [tenant.id, jobId],
  );
  assert.equal(series.length, 2);
  assert.match(series[0]!.rule, /UNTIL=/);
  assert.match(series[1]!.rule, /FREQ=WEEKLY/);
  assert.match(series[1]!.rule, /INTERVAL=2/);
  assert.match(series[1]!.rule, /BYDAY=TH/);
  assert.match(series[1]!.rule, /COUNT=3/);
  const job = textOf(await (await office.get(`/jobs/${jobId}`)).text());
  assert.match(job, /every 2 weeks on Thursday/);
});
