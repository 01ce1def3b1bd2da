import assert from "node:assert/strict";
import http from "node:http";
import { test } from "node:test";
import zlib from "node:zlib";
import { rows } from "../../db/index";
import { zonedToday, zonedToUtc } from "../../app/services/jobs/local-time";
import { addDays, weekStart } from "../../app/services/schedule/days";
import { BASE_URL, clientFor, type Client } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers, createUser } from "../helpers/fixtures";

// The week board's grid is rendered once per content and kept (docs/decisions/465): the same
// board again is the kept markup, byte for byte; a moved visit or a renamed technician is a
// new render; another viewer (a technician, another tenant) never gets someone else's grid,
// and the kept markup holds nothing of one user (no CSRF token, no nonce). Counts, not timing.

const ZONE = "America/Chicago";
type Markup = { kept: number; rendered: number; reused: number };
async function figures(): Promise<Markup> {
  const res = await fetch(`${BASE_URL}/healthz?figures=1`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: { markup: Markup } }).data.markup;
}

/** The week's grid: the board section's content. */
const gridOf = (html: string) => {
  const m = html.match(/<section class="board board-week"[^>]*>([\s\S]*?)<\/section>/);
  assert.ok(m, "the week board's section");
  return m[1];
};

/** The unscheduled list beside the grid. */
const unscheduledOf = (html: string) => html.match(/<section class="unscheduled"[\s\S]*?<\/section>/)?.[0] ?? "";

async function setup(name = "Dana Diaz") {
  const t = await createTenantWithUsers();
  await rows(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, ZONE]);
  const dana = await createUser(t.id, { role: "technician", name });
  const eli = await createUser(t.id, { role: "technician", name: "Eli Moreau" });
  const customer = await createCustomer(t.id, { name: "Rosa Marquez", address_line1: "48 Oak Lane" });
  const monday = addDays(weekStart(zonedToday(ZONE)), 14);
  const jobs = [];
  for (let i = 0; i < 6; i++)
    jobs.push(
      await createJob(t.id, {
        customerId: customer.id,
        assigneeId: (i % 2 ? eli : dana).id,
        title: `Boiler service ${i + 1}`,
        scheduledStart: zonedToUtc(`${addDays(monday, i % 3)}T${String(9 + i).padStart(2, "0")}:00`, ZONE),
      }),
    );
  const waiting = await createJob(t.id, { customerId: customer.id, title: "Fit thermostat", scheduledStart: null });
  const [visit] = await rows<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [
    t.id,
    jobs[0].id,
  ]);
  return { t, dana, eli, monday, visit, waiting, week: `/schedule?view=week&date=${monday}` };
}

async function moveVisit(c: Client, visitId: string, start: string, end: string, crew: string[]) {
  const body = new URLSearchParams([
    ["_csrf", await c.csrf()],
    ["start", start],
    ["end", end],
    ...crew.map((id): [string, string] => ["assigneeIds", id]),
  ]).toString();
  const res = await c.post(`/visits/${visitId}/schedule`, body, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  assert.equal(res.status, 303);
}

test("the week grid is rendered once per content: the same bytes again, a new render after a move or a rename", async () => {
  const s = await setup();
  const office = await clientFor(s.t.users.office);
  const page = async () => {
    const res = await office.get(s.week);
    assert.equal(res.status, 200);
    return res.text();
  };

  // Other test files render boards at the same time: the server's counters only grow "at least".
  const start = await figures();
  const firstPage = await page();
  const first = gridOf(firstPage);
  const afterFirst = await figures();
  assert.ok(afterFirst.rendered - start.rendered >= 1, "a new board's grid is rendered");
  assert.equal((first.match(/<article\b/g) ?? []).length, 6, "one card per visit");
  assert.match(first, /<a href="\/schedule\?view=day&amp;date=\d{4}-\d{2}-\d{2}" aria-label="/);

  const again = gridOf(await page());
  const afterAgain = await figures();
  assert.equal(again, first, "the same board: the same markup");
  assert.ok(afterAgain.reused - afterFirst.reused >= 1, "served again, not rendered");

  // Nothing of the viewer's own in the kept markup: no CSRF token, no nonce.
  const csrf = firstPage.match(/name="_csrf" value="([^"]+)"/)?.[1] ?? (await office.csrf());
  assert.ok(csrf.length > 10);
  assert.ok(!first.includes(csrf), "no CSRF token in the kept grid");
  assert.doesNotMatch(first, /nonce|_csrf/);

  // A visit moved (Monday 9:00 -> Wednesday 15:00, Dana -> Eli): a new grid showing it there.
  const wednesday = addDays(s.monday, 2);
  await moveVisit(office, s.visit.id, `${wednesday}T15:00`, `${wednesday}T16:00`, [s.eli.id]);
  const moved = gridOf(await page());
  assert.notEqual(moved, first);
  const cell = (grid: string, tech: string, date: string) =>
    grid.match(
      new RegExp(`<tr data-assignee="${tech}">[\\s\\S]*?<td data-date="${date}"[^>]*>([\\s\\S]*?)</td>`),
    )?.[1] ?? "";
  assert.match(cell(moved, s.eli.id, wednesday), /Boiler service 1</);
  assert.doesNotMatch(cell(moved, s.dana.id, s.monday), /Boiler service 1</);

  // Moved back: the rows are the first ones again, and so is the grid (kept, or rendered alike).
  await moveVisit(office, s.visit.id, `${s.monday}T09:00`, `${s.monday}T11:00`, [s.dana.id]);
  assert.equal(gridOf(await page()), first);

  // A technician renamed: their row says the new name.
  await rows(`UPDATE users SET name = 'Dana Diaz-Okafor' WHERE tenant_id = $1 AND id = $2`, [s.t.id, s.dana.id]);
  const renamed = gridOf(await page());
  assert.notEqual(renamed, first);
  assert.match(renamed, /Dana Diaz-Okafor/);

  // The unscheduled list is kept with the grid: a job renamed there shows its new title.
  assert.match(unscheduledOf(await page()), /Fit thermostat</);
  await rows(`UPDATE jobs SET title = 'Fit smart thermostat' WHERE tenant_id = $1 AND id = $2`, [s.t.id, s.waiting.id]);
  const list = unscheduledOf(await page());
  assert.match(list, /Fit smart thermostat</);
  assert.doesNotMatch(list, /Fit thermostat</);
});

test("the kept grid is the viewer's: a technician's own row, another tenant's own cards", async () => {
  const s = await setup();
  const office = gridOf(await (await (await clientFor(s.t.users.office)).get(s.week)).text());
  const tech = gridOf(await (await (await clientFor(s.dana)).get(s.week)).text());
  assert.notEqual(tech, office);
  assert.match(tech, new RegExp(`data-assignee="${s.dana.id}"`));
  assert.doesNotMatch(tech, new RegExp(`data-assignee="${s.eli.id}"`), "a technician sees only their row");
  assert.equal((tech.match(/<article\b/g) ?? []).length, 3);
  assert.doesNotMatch(tech, /href="\/visits\/[^"]+\/schedule/, "no Move links for a technician");
  assert.match(office, /href="\/visits\/[^"]+\/schedule/);

  // Another tenant with the same names, titles and times: its own ids only.
  const other = await setup();
  const theirs = gridOf(await (await (await clientFor(other.t.users.office)).get(other.week)).text());
  assert.notEqual(theirs, office);
  for (const id of office.match(/[0-9a-f]{8}-[0-9a-f-]{27}/g) ?? []) assert.ok(!theirs.includes(id));
  assert.match(theirs, new RegExp(`data-assignee="${other.dana.id}"`));
});

/** A GET as it reaches the server (no decompression on the way), with its raw body. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) =>
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject),
  );
}

test("the week board goes out gzipped with its length, its kept markup from blocks deflated once", async () => {
  // docs/decisions/498-the-week-board-goes-out-gzipped-from-kept-blocks.md
  const s = await setup();
  const office = await clientFor(s.t.users.office);
  const cookie = office.cookieHeader();
  const plain = await rawGet(`${BASE_URL}${s.week}`, { cookie, "accept-encoding": "identity" });
  assert.equal(plain.headers["content-encoding"], undefined);
  for (const accept of ["gzip, deflate, br, zstd", "br;q=1, gzip;q=0.5"]) {
    const gz = await rawGet(`${BASE_URL}${s.week}`, { cookie, "accept-encoding": accept });
    assert.equal(gz.headers["content-encoding"], "gzip", accept);
    assert.match(String(gz.headers["vary"]), /Accept-Encoding/i);
    // The page's writer gzips it whole: one write with its length, not compression's chunks.
    assert.equal(gz.headers["transfer-encoding"], undefined);
    assert.equal(Number(gz.headers["content-length"]), gz.body.byteLength);
    const html = zlib.gunzipSync(gz.body).toString();
    // The same page but for the request's own nonce and CSRF token.
    const own = (page: string) =>
      page
        .replace(/nonce="[^"]+"/g, "nonce")
        .replace(/<!--kept [^>]*-->/g, "")
        .replace(/("csrf[^"]*":|name="_csrf" value=)"[^"]*"/g, "$1");
    assert.equal(own(html), own(plain.body.toString()));
    assert.equal(gridOf(html), gridOf(plain.body.toString()));
  }
  // gzip refused: the page as it is.
  const refused = await rawGet(`${BASE_URL}${s.week}`, { cookie, "accept-encoding": "gzip;q=0, br" });
  assert.notEqual(refused.headers["content-encoding"], "gzip");
});
