import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { runVisitHorizon, extendAllSeries, horizonOf } from "../../app/services/visits/series.server";
import { clientFor, type Client } from "../helpers/client";
import { createCustomer, createTenantWithUsers } from "../helpers/fixtures";
import { textOf } from "../helpers/html";

// Recurring jobs (docs/decisions/315-recurring-visits.md): the job form's repeat section makes a
// series; its visits keep their wall-clock time in the tenant's zone across daylight saving; an
// open-ended series is kept 12 months ahead by the horizon worker, once across app servers.

async function chicago() {
  const tenant = await createTenantWithUsers();
  await rows(`UPDATE tenants SET time_zone = 'America/Chicago' WHERE id = $1`, [tenant.id]);
  const customer = await createCustomer(tenant.id, { name: "Hal Furnace Owner" });
  const office = await clientFor(tenant.users.office);
  return { tenant, customer, office };
}

/** Posts the job form (repeated fields as FormData) and answers the new job's id. */
async function createRecurring(office: Client, fields: Array<[string, string]>): Promise<string> {
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  const res = await office.post("/jobs/new", form);
  assert.equal(
    res.status,
    303,
    await res
      .clone()
      .text()
      .then((t) => textOf(t).slice(0, 400)),
  );
  return res.headers.get("location")!.split("/").pop()!;
}

type VisitRow = { id: string; local: string; utc: string; status: string; crew: string[] };
async function visitsOf(tenantId: string, jobId: string): Promise<VisitRow[]> {
  return rows<VisitRow>(
    `SELECT v.id, to_char(v.starts_at AT TIME ZONE 'America/Chicago', 'YYYY-MM-DD HH24:MI') AS local,
            to_char(v.starts_at AT TIME ZONE 'UTC', 'HH24:MI') AS utc, v.status,
            coalesce(array_agg(a.user_id::text) FILTER (WHERE a.user_id IS NOT NULL), '{}') AS crew
       FROM visits v LEFT JOIN visit_assignees a ON a.tenant_id = v.tenant_id AND a.visit_id = v.id
      WHERE v.tenant_id = $1 AND v.job_id = $2 GROUP BY v.tenant_id, v.id ORDER BY v.starts_at`,
    [tenantId, jobId],
  );
}

test("“Furnace maintenance” yearly on the 2nd Tuesday of October, 5 visits at 09:00 in Chicago", async () => {
  const { tenant, customer, office } = await chicago();
  const id = await createRecurring(office, [
    ["customerId", customer.id],
    ["title", "Furnace maintenance"],
    ["scheduledStart", "2027-10-12T09:00"],
    ["scheduledEnd", "2027-10-12T10:30"],
    ["assigneeId", tenant.users.technician.id],
    ["repeat", "yearly"],
    ["monthlyBy", "weekday_of_month"],
    ["endsAfter", "5"],
  ]);
  const visits = await visitsOf(tenant.id, id);
  assert.deepEqual(
    visits.map((v) => v.local),
    ["2027-10-12 09:00", "2028-10-10 09:00", "2029-10-09 09:00", "2030-10-08 09:00", "2031-10-14 09:00"],
  );
  assert.ok(visits.every((v) => v.status === "scheduled" && v.crew.join() === tenant.users.technician.id));
  const job = await one<{ status: string; start: Date }>(
    `SELECT status, scheduled_start AS start FROM jobs WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, id],
  );
  assert.equal(job!.status, "scheduled");
  assert.equal(new Date(job!.start).toISOString(), "2027-10-12T14:00:00.000Z", "the job's row shows its next visit");
  const series = await one<{ open_ended: boolean; rule: string }>(
    `SELECT open_ended, rule FROM visit_series WHERE tenant_id = $1 AND job_id = $2`,
    [tenant.id, id],
  );
  assert.deepEqual(series, { open_ended: false, rule: "FREQ=YEARLY;INTERVAL=1;BYMONTH=10;BYDAY=+2TU;COUNT=5" });
  // The job page lists every visit, each at 09:00 (its history says how it repeats).
  const html = await (await office.get(`/jobs/${id}`)).text();
  const items = [...html.matchAll(/<div class="visit-when">([^<]*)<\/div>/g)].map((m) => m[1]);
  assert.equal(items.length, 5, "five visits listed");
  const shown = items.map(
    (w) => `${new Date(`${w.split(",").slice(1, 3).join(",")} UTC`).toISOString().slice(0, 10)} ${w}`,
  );
  for (const [i, day] of ["2027-10-12", "2028-10-10", "2029-10-09", "2030-10-08", "2031-10-14"].entries()) {
    assert.ok(shown[i]!.startsWith(day), `${shown[i]} is on ${day}`);
    assert.match(shown[i]!, /9:00/);
  }
  const page = textOf(html);
  assert.match(page, /Repeats every October on the 2nd Tuesday for 5 times: 5 visits made/);
});

test("weekly series keep 09:00 wall clock across the November and March changes; a daily 02:30 is 03:30 on the spring-forward day", async () => {
  const { tenant, customer, office } = await chicago();
  const base = (title: string): Array<[string, string]> => [
    ["customerId", customer.id],
    ["title", title],
  ];
  const fall = await createRecurring(office, [
    ...base("Weekly into November"),
    ["scheduledStart", "2027-10-19T09:00"],
    ["scheduledEnd", "2027-10-19T10:00"],
    ["repeat", "weekly"],
    ["weekdays", "tuesday"],
    ["endsOn", "2027-11-16"],
  ]);
  const fallVisits = await visitsOf(tenant.id, fall);
  assert.deepEqual(
    fallVisits.map((v) => `${v.local} ${v.utc}`),
    [
      "2027-10-19 09:00 14:00",
      "2027-10-26 09:00 14:00",
      "2027-11-02 09:00 14:00",
      "2027-11-09 09:00 15:00",
      "2027-11-16 09:00 15:00",
    ],
  );
  const spring = await createRecurring(office, [
    ...base("Weekly across March"),
    ["scheduledStart", "2028-03-01T09:00"],
    ["repeat", "weekly"],
    ["weekdays", "wednesday"],
    ["weekdays", "friday"],
    ["endsAfter", "6"],
  ]);
  assert.deepEqual(
    (await visitsOf(tenant.id, spring)).map((v) => `${v.local} ${v.utc}`),
    [
      "2028-03-01 09:00 15:00",
      "2028-03-03 09:00 15:00",
      "2028-03-08 09:00 15:00",
      "2028-03-10 09:00 15:00",
      "2028-03-15 09:00 14:00",
      "2028-03-17 09:00 14:00",
    ],
  );
  const daily = await createRecurring(office, [
    ...base("Night boiler check"),
    ["scheduledStart", "2028-03-11T02:30"],
    ["scheduledEnd", "2028-03-11T03:00"],
    ["repeat", "daily"],
    ["endsAfter", "3"],
  ]);
  assert.deepEqual(
    (await visitsOf(tenant.id, daily)).map((v) => v.local),
    ["2028-03-11 02:30", "2028-03-12 03:30", "2028-03-13 02:30"],
  );
});

test("the repeat section: bad input is a field error and nothing is made", async () => {
  const { tenant, customer, office } = await chicago();
  const form = new FormData();
  for (const [k, v] of [
    ["customerId", customer.id],
    ["title", "Never"],
    ["repeat", "weekly"],
    ["endsAfter", "3"],
    ["endsOn", "2028-01-01"],
  ])
    form.append(k, v);
  const res = await office.post("/jobs/new", form);
  assert.equal(res.status, 422);
  const html = await res.text();
  assert.match(textOf(html), /Enter the first visit's start to repeat the job\./);
  assert.match(textOf(html), /Choose one end: after a number of visits or on a date\./);
  const too = new FormData();
  for (const [k, v] of [
    ["customerId", customer.id],
    ["title", "Too many"],
    ["scheduledStart", "2027-01-01T08:00"],
    ["repeat", "daily"],
    ["endsOn", "2040-01-01"],
  ])
    too.append(k, v);
  const res2 = await office.post("/jobs/new", too);
  assert.equal(res2.status, 422);
  assert.match(textOf(await res2.text()), /more than 1000 visits/);
  assert.equal(
    (await one<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE tenant_id = $1`, [tenant.id]))!.n,
    0,
  );
  // The form shows the section, with JavaScript off too (plain controls).
  const page = await (await office.get("/jobs/new")).text();
  for (const name of ["repeat", "interval", "weekdays", "monthlyBy", "endsAfter", "endsOn"])
    assert.match(page, new RegExp(`name="${name}"`));
  assert.equal((page.match(/type="checkbox" name="weekdays"/g) ?? []).length, 7);
});

test("an open-ended weekly job: 12 months ahead on save; the worker on two servers at once adds no duplicate; a month later one more month appears", async () => {
  const { tenant, customer, office } = await chicago();
  const start = new Date(Date.now() + 2 * 86_400_000);
  const startLocal = `${start.toISOString().slice(0, 10)}T09:00`;
  const id = await createRecurring(office, [
    ["customerId", customer.id],
    ["title", "Weekly pool service"],
    ["scheduledStart", startLocal],
    ["scheduledEnd", startLocal.replace("09:00", "10:00")],
    ["repeat", "weekly"],
  ]);
  const madeUntil = async () =>
    (await one<{ until: string }>(
      `SELECT to_char(made_until, 'YYYY-MM-DD"T"HH24:MI') AS until FROM visit_series WHERE tenant_id = $1 AND job_id = $2`,
      [tenant.id, id],
    ))!.until;
  const lastVisit = async () => (await visitsOf(tenant.id, id)).at(-1)!.local.slice(0, 10);
  const count = async () => (await visitsOf(tenant.id, id)).length;
  const now = new Date();
  assert.equal(
    await madeUntil(),
    horizonOf(now, "America/Chicago")
      .replace(/T.*/, (t) => t)
      .slice(0, 16),
  );
  const first = await count();
  assert.ok(first >= 51 && first <= 53, `about a year of weekly visits, got ${first}`);
  const dayMs = 86_400_000;
  assert.ok(new Date(`${await lastVisit()}T12:00Z`).getTime() > now.getTime() + 358 * dayMs);

  // A month later, on two servers at once: one claims the run, the visits come once.
  const later = new Date(now.getTime() + 31 * dayMs);
  const runs = await Promise.all([
    runVisitHorizon({ now: later, intervalMs: 1 }),
    runVisitHorizon({ now: later, intervalMs: 1 }),
  ]);
  assert.equal(runs.filter(Boolean).length, 1, "one of the two servers ran it");
  const afterMonth = await count();
  assert.ok(
    afterMonth - first >= 4 && afterMonth - first <= 5,
    `one more month of weekly visits: ${afterMonth - first}`,
  );
  assert.equal(await madeUntil(), horizonOf(later, "America/Chicago"));
  // Even without the claim, two runs at once never make an occurrence twice.
  const evenLater = new Date(now.getTime() + 62 * dayMs);
  await Promise.all([extendAllSeries(evenLater), extendAllSeries(evenLater)]);
  const dupes = await rows(
    `SELECT occurrence FROM visits WHERE tenant_id = $1 AND job_id = $2 GROUP BY occurrence HAVING count(*) > 1`,
    [tenant.id, id],
  );
  assert.deepEqual(dupes, []);
  const afterTwo = await count();
  assert.ok(afterTwo - afterMonth >= 4 && afterTwo - afterMonth <= 5);
  // Every visit at 09:00 Chicago wall clock.
  assert.ok((await visitsOf(tenant.id, id)).every((v) => v.local.endsWith(" 09:00")));
  // Run again the same day: nothing to claim.
  assert.ok(await runVisitHorizon({ now: evenLater }));
  assert.equal(await runVisitHorizon({ now: evenLater }), null);
});
