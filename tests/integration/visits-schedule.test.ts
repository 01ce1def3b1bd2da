import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { zonedToday, zonedToUtc } from "../../app/services/jobs/local-time";
import { addDays, weekStart } from "../../app/services/schedule/days";
import { clientFor, type Client } from "../helpers/client";
import { createCustomer, createJob, createQuote, createTenantWithUsers, createUser } from "../helpers/fixtures";
import { decode, textOf } from "../helpers/html";

// Several visits, multi-day visits and crews on the job page and the board (CONTRACT section
// 20): POST /jobs/<id>/visits, POST /visits/<id>/schedule, the week board's days and rows.

const ZONE = "America/Chicago";
const FETCHER = "?_data=routes%2Fvisits.%24id_.schedule";

async function setup() {
  const t = await createTenantWithUsers();
  await rows(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, ZONE]);
  const dana = await createUser(t.id, { role: "technician", name: "Dana Diaz" });
  const eli = await createUser(t.id, { role: "technician", name: "Eli Moreau" });
  const finn = await createUser(t.id, { role: "technician", name: "Finn Walsh" });
  const customer = await createCustomer(t.id, { name: "Rosa Marquez", address_line1: "48 Oak Lane" });
  const monday = addDays(weekStart(zonedToday(ZONE)), 14);
  const day = (n: number) => addDays(monday, n);
  return { t, dana, eli, finn, customer, monday, day };
}

/** A form post with repeated fields (the crew's checkboxes). */
async function postPairs(c: Client, path: string, pairs: Array<[string, string]>) {
  const body = new URLSearchParams([["_csrf", await c.csrf()], ...pairs]).toString();
  return c.post(path, body, { headers: { "content-type": "application/x-www-form-urlencoded" } });
}

const crewOf = (ids: string[]) => ids.map((id): [string, string] => ["assigneeIds", id]);

async function visitsOf(tenantId: string, jobId: string) {
  return rows<{ id: string; start: string; end: string; status: string; crew: string[] }>(
    `SELECT v.id, to_char(v.starts_at AT TIME ZONE $3, 'YYYY-MM-DD"T"HH24:MI') AS start,
            to_char(v.ends_at AT TIME ZONE $3, 'YYYY-MM-DD"T"HH24:MI') AS end, v.status,
            ARRAY(SELECT a.user_id::text FROM visit_assignees a WHERE a.tenant_id = v.tenant_id AND a.visit_id = v.id ORDER BY a.user_id) AS crew
       FROM visits v WHERE v.tenant_id = $1 AND v.job_id = $2 ORDER BY v.starts_at`,
    [tenantId, jobId, ZONE],
  );
}

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
const cardsIn = (html: string) =>
  [...html.matchAll(/<article class="([^"]*)"[^>]*data-visit-id="([^"]+)"[^>]*>([\s\S]*?)<\/article>/g)].map((m) => ({
    cls: m[1],
    visitId: m[2],
    text: textOf(m[3]),
  }));

test("the job page adds visits (crew as checkboxes, multi-day allowed), lists them with crew, status and edit link; bad fields are 422 beside the field and store nothing; the job's own schedule action is 409 once it has several", async () => {
  const s = await setup();
  const job = await createJob(s.t.id, {
    customerId: s.customer.id,
    title: "Kitchen remodel",
    assigneeId: s.dana.id,
    scheduledStart: zonedToUtc(`${s.day(0)}T08:00`, ZONE),
  });
  const office = await clientFor(s.t.users.office);
  const page = await (await office.get(`/jobs/${job.id}`)).text();
  // The crew is a list of checkboxes, one per member; no multi-select.
  for (const who of [s.dana, s.eli, s.finn])
    assert.match(page, new RegExp(`<input type="checkbox" name="assigneeIds" value="${who.id}"`));
  assert.doesNotMatch(page, /<select[^>]*multiple/);

  // Bad fields: 422 beside each field, nothing stored.
  const before = await visitsOf(s.t.id, job.id);
  const bad = await postPairs(office, `/jobs/${job.id}/visits`, [
    ["start", `${s.day(2)}T17:00`],
    ["end", `${s.day(2)}T08:00`],
    ...crewOf([s.eli.id]),
  ]);
  assert.equal(bad.status, 422);
  const badHtml = await bad.text();
  assert.match(textOf(badHtml), /The end must be after the start\./);
  assert.match(badHtml, new RegExp(`name="assigneeIds" checked="" value="${s.eli.id}"`), "the chosen crew is kept");
  const missing = await postPairs(office, `/jobs/${job.id}/visits`, [...crewOf([s.eli.id])]);
  assert.equal(missing.status, 422);
  assert.match(textOf(await missing.text()), /Enter when the visit starts\..*Enter when the visit ends\./);
  const stranger = await createTenantWithUsers();
  const foreign = await postPairs(office, `/jobs/${job.id}/visits`, [
    ["start", `${s.day(2)}T08:00`],
    ["end", `${s.day(2)}T10:00`],
    ...crewOf([stranger.users.technician.id]),
  ]);
  assert.equal(foreign.status, 422);
  assert.match(textOf(await foreign.text()), /Choose members of your team\./);
  assert.deepEqual(await visitsOf(s.t.id, job.id), before);

  // A three-day visit with a crew of two, and a one-day visit.
  const added = await postPairs(office, `/jobs/${job.id}/visits`, [
    ["start", `${s.day(2)}T08:00`],
    ["end", `${s.day(4)}T17:00`],
    ...crewOf([s.eli.id, s.finn.id]),
    ["note", "Cabinets arrive Wednesday"],
  ]);
  assert.equal(added.status, 303);
  assert.equal(added.headers.get("location"), `/jobs/${job.id}#visits`);
  const visits = await visitsOf(s.t.id, job.id);
  assert.equal(visits.length, 2);
  assert.deepEqual(
    { start: visits[1].start, end: visits[1].end, status: visits[1].status, crew: visits[1].crew },
    { start: `${s.day(2)}T08:00`, end: `${s.day(4)}T17:00`, status: "scheduled", crew: [s.eli.id, s.finn.id].sort() },
  );
  const after = await (await office.get(`/jobs/${job.id}`)).text();
  const list = textOf(after.slice(after.indexOf('id="visits-title"')));
  assert.match(list, /2 visits Upcoming/);
  assert.match(
    list,
    /8:00 AM to [A-Za-z]+, [A-Za-z]+ \d+, \d{4}, 5:00 PM Scheduled Crew: (Eli Moreau, Finn Walsh|Finn Walsh, Eli Moreau)/,
  );
  assert.match(list, /Cabinets arrive Wednesday/);
  for (const v of visits) assert.match(after, new RegExp(`href="/visits/${v.id}/edit"`));
  assert.match(textOf(after), /Visit added for .* with (Eli Moreau and Finn Walsh|Finn Walsh and Eli Moreau) by /);

  // The job's own time acts on a job with at most one visit: 409 now.
  const jobMove = await office.post(`/jobs/${job.id}/schedule`, {
    assigneeId: s.dana.id,
    scheduledStart: `${s.day(1)}T09:00`,
    scheduledEnd: `${s.day(1)}T10:00`,
  });
  assert.equal(jobMove.status, 409);
  assert.match(textOf(await jobMove.text()), /has 2 visits/);
  assert.equal((await visitsOf(s.t.id, job.id)).length, 2);

  // A cancelled job takes no visit; a technician may not add one.
  await office.post(`/jobs/${job.id}`, { intent: "cancel" });
  const onCancelled = await postPairs(office, `/jobs/${job.id}/visits`, [
    ["start", `${s.day(5)}T08:00`],
    ["end", `${s.day(5)}T10:00`],
  ]);
  assert.equal(onCancelled.status, 409);
  const tech = await clientFor(s.eli);
  const techAdd = await postPairs(tech, `/jobs/${job.id}/visits`, [
    ["start", `${s.day(5)}T08:00`],
    ["end", `${s.day(5)}T10:00`],
  ]);
  assert.equal(techAdd.status, 403, "Eli works on this job: refused, not hidden");
});

test("the week board: a 3-day visit (Mon 08:00 - Wed 17:00) shows on all three days; a crew visit sits in each member's row, marked with the others' names; overlaps are per technician", async () => {
  const s = await setup();
  const job = await createJob(s.t.id, { customerId: s.customer.id, title: "Basement remodel", scheduledStart: null });
  const office = await clientFor(s.t.users.office);
  assert.equal(
    (
      await postPairs(office, `/jobs/${job.id}/visits`, [
        ["start", `${s.monday}T08:00`],
        ["end", `${s.day(2)}T17:00`],
        ...crewOf([s.dana.id, s.eli.id]),
      ])
    ).status,
    303,
  );
  // Dana has another job on Tuesday morning: her row marks the overlap, Eli's does not.
  await createJob(s.t.id, {
    customerId: s.customer.id,
    title: "Tap washer",
    assigneeId: s.dana.id,
    scheduledStart: zonedToUtc(`${s.day(1)}T09:00`, ZONE),
  });
  const week = `/schedule?view=week&date=${s.day(1)}`;
  const html = await (await office.get(week)).text();
  for (const member of [s.dana, s.eli]) {
    for (const d of [s.monday, s.day(1), s.day(2)]) {
      const cell = textOf(cellOf(html, member.id, d));
      assert.match(cell, /Mon 8:00 AM – Wed 5:00 PM.*Basement remodel/, `${member.name} ${d}`);
    }
    assert.doesNotMatch(cellOf(html, member.id, s.day(3)), /Basement remodel/);
  }
  assert.doesNotMatch(rowOf(html, s.finn.id)!, /Basement remodel/);
  const danaCards = cardsIn(rowOf(html, s.dana.id)!);
  const eliCards = cardsIn(rowOf(html, s.eli.id)!);
  const remodel = (cards: ReturnType<typeof cardsIn>) => cards.filter((c) => c.text.includes("Basement remodel"));
  assert.ok(remodel(danaCards).every((c) => /Crew with Eli Moreau/.test(c.text) && c.cls.includes("is-crew")));
  assert.ok(remodel(eliCards).every((c) => /Crew with Dana Diaz/.test(c.text)));
  assert.ok(
    remodel(danaCards).every((c) => c.cls.includes("is-overlap")),
    "Dana's copy overlaps her Tuesday job",
  );
  assert.ok(
    remodel(eliCards).every((c) => !c.cls.includes("is-overlap")),
    "Eli's copy overlaps nothing",
  );

  // Compact cards (a board of 600 visits is 600+ of them): a one-day card of one technician,
  // its time, title, customer, address, status and Move link, in at most 900 bytes of HTML (1.2 KB before).
  const tap = cellOf(html, s.dana.id, s.day(1)).match(
    /<article[^>]*>(?:(?!<article)[\s\S])*?Tap washer[\s\S]*?<\/article>/,
  );
  assert.ok(tap, "the Tap washer card");
  assert.ok(Buffer.byteLength(tap[0]) <= 900, `${Buffer.byteLength(tap[0])} bytes: ${tap[0]}`);

  // The day view: Tuesday is covered all day in both rows.
  const day = await (await office.get(`/schedule?view=day&date=${s.day(1)}`)).text();
  for (const member of [s.dana, s.eli]) {
    const row = day.match(
      new RegExp(`<div class="day-row" data-assignee="${member.id}">([\\s\\S]*?)</div></div></div>`),
    );
    assert.ok(row);
    assert.match(textOf(row[0]), /Basement remodel/);
  }

  // A technician on the crew sees it in their own row (and who is with them), nobody else's row.
  const eliHtml = await (await (await clientFor(s.eli)).get(week)).text();
  assert.ok(rowOf(eliHtml, s.eli.id));
  assert.equal(rowOf(eliHtml, s.dana.id), null);
  assert.match(textOf(cellOf(eliHtml, s.eli.id, s.day(2))), /Basement remodel.*Crew with Dana Diaz/);
  assert.doesNotMatch(eliHtml, /Tap washer/);
  const finnHtml = await (await (await clientFor(s.finn)).get(week)).text();
  assert.doesNotMatch(finnHtml, /Basement remodel/);
});

test("POST /visits/<id>/schedule: the card's form moves a crew visit and replaces X by Y; all empty removes a visit nothing happened on, else 409; 422/409/404/403 as for jobs", async () => {
  const s = await setup();
  const job = await createJob(s.t.id, { customerId: s.customer.id, title: "Panel upgrade", scheduledStart: null });
  const office = await clientFor(s.t.users.office);
  await postPairs(office, `/jobs/${job.id}/visits`, [
    ["start", `${s.day(1)}T09:00`],
    ["end", `${s.day(1)}T12:00`],
    ...crewOf([s.dana.id, s.eli.id]),
  ]);
  await postPairs(office, `/jobs/${job.id}/visits`, [
    ["start", `${s.day(3)}T09:00`],
    ["end", `${s.day(3)}T12:00`],
    ...crewOf([s.dana.id]),
  ]);
  const [first, second] = await visitsOf(s.t.id, job.id);
  const week = `/schedule?view=week&date=${s.day(1)}`;

  // The card's form (JavaScript off): linked from the card, prefilled with time and crew.
  const board = await (await office.get(week)).text();
  const link = decode(board.match(new RegExp(`href="(/visits/${first.id}/schedule\\?returnTo=[^"]+)"`))![1]);
  const form = await (await office.get(link)).text();
  assert.match(form, new RegExp(`value="${s.day(1)}T09:00"`));
  assert.match(form, new RegExp(`name="assigneeIds" checked="" value="${s.dana.id}"`));
  assert.match(form, new RegExp(`name="assigneeIds" value="${s.finn.id}"`));

  // X (Dana) -> Y (Finn), same time: the crew is Finn and Eli.
  const moved = await postPairs(office, `/visits/${first.id}/schedule`, [
    ["start", `${s.day(1)}T09:00`],
    ["end", `${s.day(1)}T12:00`],
    ...crewOf([s.finn.id, s.eli.id]),
    ["returnTo", week],
  ]);
  assert.equal(moved.status, 303);
  assert.equal(moved.headers.get("location"), week);
  assert.deepEqual((await visitsOf(s.t.id, job.id))[0].crew, [s.eli.id, s.finn.id].sort());
  const after = await (await office.get(week)).text();
  assert.doesNotMatch(cellOf(after, s.dana.id, s.day(1)), /Panel upgrade/);
  assert.match(textOf(cellOf(after, s.finn.id, s.day(1))), /Panel upgrade.*Crew with Eli Moreau/);
  assert.match(textOf(cellOf(after, s.eli.id, s.day(1))), /Panel upgrade.*Crew with Finn Walsh/);
  const history = textOf(await (await office.get(`/jobs/${job.id}`)).text());
  assert.match(history, /Moved to .*9:00 AM–12:00 PM, with (Finn Walsh and Eli Moreau|Eli Moreau and Finn Walsh) by /);

  // The board's fetcher gets JSON; bad fields are 422 and change nothing.
  const bad = await postPairs(office, `/visits/${first.id}/schedule${FETCHER}`, [
    ["via", "board"],
    ["start", `${s.day(1)}T09:00`],
  ]);
  assert.equal(bad.status, 422);
  const viaBoard = await postPairs(office, `/visits/${first.id}/schedule${FETCHER}`, [
    ["via", "board"],
    ["start", `${s.day(2)}T13:00`],
    ["end", `${s.day(2)}T15:00`],
    ...crewOf([s.finn.id]),
  ]);
  assert.equal(viaBoard.status, 200);
  const reply = (await viaBoard.json()) as { ok: boolean; message: string };
  assert.equal(reply.ok, true);
  assert.match(reply.message, /“Panel upgrade” is booked .*1:00–3:00 PM, with Finn Walsh\./);

  // 403 for a technician, 404 for an unknown id or another tenant's visit.
  const tech = await clientFor(s.finn);
  assert.equal((await postPairs(tech, `/visits/${first.id}/schedule`, [])).status, 403);
  const other = await createTenantWithUsers();
  const theirJob = await createJob(other.id, { customerId: (await createCustomer(other.id)).id });
  const theirVisit = (await one<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [
    other.id,
    theirJob.id,
  ]))!;
  assert.equal((await postPairs(office, `/visits/${theirVisit.id}/schedule`, [])).status, 404);
  assert.equal((await office.get(`/visits/${theirVisit.id}/schedule`)).status, 404);

  // Unscheduling: a visit with time logged on it is 409 and stays; one without is removed.
  await rows(
    `INSERT INTO time_entries (tenant_id, job_id, visit_id, user_id, started_at, ended_at) VALUES ($1, $2, $3, $4, now() - interval '2 hours', now() - interval '1 hour')`,
    [s.t.id, job.id, second.id, s.dana.id],
  );
  const worked = await postPairs(office, `/visits/${second.id}/schedule`, []);
  assert.equal(worked.status, 409);
  assert.match(textOf(await worked.text()), /Time was recorded on this visit/);
  const removed = await postPairs(office, `/visits/${first.id}/schedule`, [["returnTo", week]]);
  assert.equal(removed.status, 303);
  const left = await visitsOf(s.t.id, job.id);
  assert.deepEqual(
    left.map((v) => v.id),
    [second.id],
  );
  // The job follows its one remaining visit; its own schedule action works again.
  const row = await one<{ assignee_id: string; status: string }>(
    `SELECT assignee_id, status FROM jobs WHERE tenant_id = $1 AND id = $2`,
    [s.t.id, job.id],
  );
  assert.deepEqual(row, { assignee_id: s.dana.id, status: "scheduled" });
});

test("role matrix of the visit routes: owner, admin and office add and move visits; a technician on the crew is refused (403); one not on it finds no visit (404), exactly as for an unknown id", async () => {
  const s = await setup();
  const job = await createJob(s.t.id, { customerId: s.customer.id, title: "Rough-in", scheduledStart: null });
  const office = await clientFor(s.t.users.office);
  await postPairs(office, `/jobs/${job.id}/visits`, [
    ["start", `${s.day(1)}T09:00`],
    ["end", `${s.day(1)}T12:00`],
    ...crewOf([s.dana.id]),
  ]);
  const [visit] = await visitsOf(s.t.id, job.id);
  let hour = 8;
  for (const role of ["owner", "admin", "office"] as const) {
    const c = await clientFor(s.t.users[role]);
    assert.equal((await c.get(`/jobs/${job.id}/visits`)).status, 200, role);
    assert.equal((await c.get(`/visits/${visit.id}/schedule`)).status, 200, role);
    hour += 1;
    const at = `${String(hour).padStart(2, "0")}:00`;
    const add = await postPairs(c, `/jobs/${job.id}/visits`, [
      ["start", `${s.day(3)}T${at}`],
      ["end", `${s.day(3)}T${String(hour + 1).padStart(2, "0")}:00`],
    ]);
    assert.equal(add.status, 303, role);
    const move = await postPairs(c, `/visits/${visit.id}/schedule`, [
      ["start", `${s.day(2)}T${at}`],
      ["end", `${s.day(2)}T${String(hour + 1).padStart(2, "0")}:00`],
      ...crewOf([s.dana.id]),
    ]);
    assert.equal(move.status, 303, role);
  }
  const before = await visitsOf(s.t.id, job.id);
  // Each route asked about a visit (and its job) by Dana (on the crew), Eli (not on it) and
  // Eli again about ids that exist nowhere: Eli's two sets of answers are the same 404s.
  const routes = (tech: Client, visitId: string, jobId: string) => [
    () => tech.get(`/jobs/${jobId}/visits`),
    () => tech.get(`/visits/${visitId}/schedule`),
    () =>
      postPairs(tech, `/jobs/${jobId}/visits`, [
        ["start", `${s.day(4)}T09:00`],
        ["end", `${s.day(4)}T10:00`],
      ]),
    () =>
      postPairs(tech, `/visits/${visitId}/schedule`, [
        ["start", `${s.day(4)}T09:00`],
        ["end", `${s.day(4)}T10:00`],
      ]),
    () => postPairs(tech, `/visits/${visitId}/schedule`, []),
    () => postPairs(tech, `/visits/${visitId}/invoice`, []),
    () => tech.get(`/visits/${visitId}/invoice`),
  ];
  const answersOf = async (tech: Client, visitId: string, jobId: string) => {
    const out: string[] = [];
    for (const ask of routes(tech, visitId, jobId)) {
      const res = await ask();
      out.push(`${res.status} ${textOf(await res.text()).replace(/Technician \w+|Dana Diaz|Eli Moreau/g, "")}`);
    }
    return out;
  };
  const dana = await clientFor(s.dana);
  const eli = await clientFor(s.eli);
  const onCrew = await answersOf(dana, visit.id, job.id);
  const offCrew = await answersOf(eli, visit.id, job.id);
  const unknown = await answersOf(eli, randomUUID(), randomUUID());
  assert.ok(
    onCrew.every((a) => a.startsWith("403 ")),
    onCrew.join("\n"),
  );
  assert.ok(
    offCrew.every((a) => a.startsWith("404 ")),
    offCrew.join("\n"),
  );
  assert.deepEqual(offCrew, unknown, "off the crew: exactly as for an unknown id");
  assert.deepEqual(await visitsOf(s.t.id, job.id), before);
  // The job page: a technician sees only the visits they are on.
  await postPairs(office, `/jobs/${job.id}/visits`, [
    ["start", `${s.day(5)}T09:00`],
    ["end", `${s.day(5)}T10:00`],
    ...crewOf([s.dana.id, s.eli.id]),
  ]);
  const danaPage = await (await (await clientFor(s.dana)).get(`/jobs/${job.id}`)).text();
  assert.equal((danaPage.match(/data-visit-id=/g) ?? []).length, 2, "Dana's two visits");
  assert.doesNotMatch(danaPage, /Add a visit/);
});

test("a job waiting on the board carries its quote's labour hours as its booking length (the counted labour lines only); without a quote it has none", async () => {
  const s = await setup();
  const quote = await createQuote(s.t.id, {
    customerId: s.customer.id,
    items: [
      { description: "Heat pump, 3 ton", unitPriceCents: 520_000 },
      { description: "Labour, HVAC (person-hours)", quantity: "6.5", unitPriceCents: 11_000 },
      { description: "Installation labor, second day", quantity: "2", unitPriceCents: 11_000 },
      { description: "Extra labour if the old unit is bolted down", quantity: "3", unitPriceCents: 11_000 },
      { description: "Laboratory test fee", quantity: "4", unitPriceCents: 1_000 },
    ],
  });
  await rows(`UPDATE quote_items SET optional = true WHERE tenant_id = $1 AND quote_id = $2 AND position = 4`, [
    s.t.id,
    quote.id,
  ]);
  const quoted = await createJob(s.t.id, {
    customerId: s.customer.id,
    title: "Heat pump install",
    scheduledStart: null,
  });
  await rows(`UPDATE jobs SET quote_id = $3 WHERE tenant_id = $1 AND id = $2`, [s.t.id, quoted.id, quote.id]);
  const plain = await createJob(s.t.id, { customerId: s.customer.id, title: "Thermostat swap", scheduledStart: null });
  const html = await (await (await clientFor(s.t.users.office)).get(`/schedule?view=week&date=${s.monday}`)).text();
  const card = (jobId: string) => html.match(new RegExp(`<article [^>]*data-job-id="${jobId}"[^>]*>`))![0];
  // 6.5 + 2 hours: the optional line and the "laboratory" fee are not labour that counts.
  assert.match(card(quoted.id), /data-minutes="510"/);
  assert.doesNotMatch(card(plain.id), /data-minutes/);
});
