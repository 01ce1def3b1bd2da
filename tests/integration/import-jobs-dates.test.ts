// Jobs exports of other products (CONTRACT section 14, issue 19, docs/decisions/220 and 222):
// their dates, in each product's own format, become the contract's scheduled_start/end with no
// manual step, in the tenant's time zone; a job row whose address names one of the customer's
// service properties gets that property.
import assert from "node:assert/strict";
import { test } from "node:test";
import { rows } from "../../db/index";
import { clientFor, type Client } from "../helpers/client";
import { createCustomer, createTenantWithUsers } from "../helpers/fixtures";
import { commit, idIn, pageText, upload } from "../helpers/import";
import { csvLine } from "../helpers/product-exports";

async function setUp(timeZone: string) {
  const t = await createTenantWithUsers();
  await rows(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, timeZone]);
  const maria = await createCustomer(t.id, {
    name: "Maria Okafor",
    email: "maria.okafor@example.com",
    address_line1: "4410 Barton Springs Rd",
  });
  const james = await createCustomer(t.id, { name: "James Lindqvist", email: "james.lindqvist@example.com" });
  const props = await rows<{ id: string }>(
    `INSERT INTO customer_properties (tenant_id, customer_id, position, label, address_line1, city, region, postal_code, country)
     VALUES ($1, $2, 1, 'Home', '4410 Barton Springs Rd', 'Austin', 'TX', '78704', 'United States'),
            ($1, $2, 2, 'Rental', '915 Maple Ave', 'Round Rock', 'TX', '78664', 'United States'),
            ($1, $3, 1, 'Office', '77 Cedar Ln', 'Denver', 'CO', '80203', 'United States')
     RETURNING id`,
    [t.id, maria.id, james.id],
  );
  return { t, c: await clientFor(t.users.office), maria, james, props: props.map((p) => p.id) };
}

/** Uploads a file that must go straight to the preview, commits it, returns the jobs written. */
async function importStraight(c: Client, tenantId: string, csv: string, name: string) {
  const res = await upload(c, "jobs", csv, { name });
  assert.equal(res.status, 303);
  assert.match(
    res.headers.get("location")!,
    /preview=/,
    `${name}: no mapping step, got ${res.headers.get("location")}`,
  );
  const id = idIn(res, "preview");
  const page = pageText(await (await c.get(`/import-data?type=jobs&preview=${id}`)).text());
  idIn(await commit(c, id), "run");
  const jobs = await rows<{
    external_id: string;
    start: string | null;
    end: string | null;
    status: string;
    property_id: string | null;
    address: string | null;
  }>(
    `SELECT coalesce(external_id, title) AS external_id, to_char(scheduled_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') AS start,
            to_char(scheduled_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') AS end, status, property_id, address
       FROM jobs WHERE tenant_id = $1 ORDER BY external_id`,
    [tenantId],
  );
  return { page, jobs: new Map(jobs.map((j) => [j.external_id, j])) };
}

// A Jobber jobs report as exported (headers of decision 151, the others it carries are ignored).
const JOBBER_JOB_HEADERS = [
  "Job #",
  "Client name",
  "Client email",
  "Client phone",
  "Lead source",
  "Service property name",
  "Service street",
  "Service city",
  "Service province",
  "Service ZIP",
  "Title",
  "Instructions",
  "Created date",
  "Scheduled start date",
  "Closed date",
  "Salesperson",
  "Visits assigned to",
  "Invoice #s",
  "Quote #",
  "Total $",
];

function jobberJob(no: number, client: [string, string], street: string, title: string, start: string) {
  return csvLine([
    no,
    client[0],
    client[1],
    "(512) 555-0142",
    "Google",
    "",
    street,
    "Austin",
    "TX",
    "78704",
    title,
    "Gate code 4411",
    "Oct 02, 2026",
    start,
    "",
    "Dana Ruiz",
    "Dana Ruiz",
    "",
    "",
    "420.00",
  ]);
}

test("a Jobber jobs export with 'Nov 24, 2026' dates imports with no manual step: the day in the tenant's zone; a service street names the property", async () => {
  const { t, c, props } = await setUp("America/Chicago");
  const maria: [string, string] = ["Maria Okafor", "maria.okafor@example.com"];
  const james: [string, string] = ["James Lindqvist", "james.lindqvist@example.com"];
  const csv =
    [
      csvLine(JOBBER_JOB_HEADERS),
      jobberJob(301, maria, "915 Maple Ave", "Spring clean-up", "Nov 24, 2026"),
      jobberJob(302, maria, "4410 Barton Springs Rd, Austin, TX 78704", "Gutter repair", "Dec 3, 2026"),
      jobberJob(303, james, "77 Cedar Ln.", "Boiler service", "Jan 15, 2027"),
      jobberJob(304, james, "1 Nowhere Pl", "Quote visit", ""),
      jobberJob(305, maria, "Rental", "Lawn care", "Jul 6, 2026"),
    ].join("\r\n") + "\r\n";
  const { page, jobs } = await importStraight(c, t.id, csv, "Jobber jobs.csv");
  assert.match(page, /Recognised: Jobber jobs export/);
  assert.match(page, /Scheduled start date → scheduled_start/);
  assert.equal(jobs.size, 5);
  // A date without a time: from the start of that day in Chicago (UTC-6 in winter, UTC-5 in summer).
  assert.equal(jobs.get("301")!.start, "2026-11-24T06:00Z");
  assert.equal(jobs.get("301")!.status, "scheduled");
  assert.equal(jobs.get("302")!.start, "2026-12-03T06:00Z");
  assert.equal(jobs.get("303")!.start, "2027-01-15T06:00Z");
  assert.equal(jobs.get("305")!.start, "2026-07-06T05:00Z");
  assert.equal(jobs.get("304")!.start, null);
  assert.equal(jobs.get("304")!.status, "unscheduled");
  // Properties: by first line, by the whole address, by first line with punctuation, by label; none for an unknown street.
  assert.equal(jobs.get("301")!.property_id, props[1]);
  assert.equal(jobs.get("302")!.property_id, props[0]);
  assert.equal(jobs.get("303")!.property_id, props[2]);
  assert.equal(jobs.get("305")!.property_id, props[1]);
  assert.equal(jobs.get("304")!.property_id, null);
  assert.equal(jobs.get("304")!.address, "1 Nowhere Pl");
  // Another customer's property is never taken: James has no "915 Maple Ave".
  const [cross] = await rows<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs j JOIN customer_properties p ON p.tenant_id = j.tenant_id AND p.id = j.property_id
      WHERE j.tenant_id = $1 AND p.customer_id <> j.customer_id`,
    [t.id],
  );
  assert.equal(cross.n, 0);
  // The job page shows the property it names.
  const [job] = await rows<{ id: string }>(`SELECT id FROM jobs WHERE tenant_id = $1 AND external_id = '301'`, [t.id]);
  const jobPage = pageText(await (await c.get(`/jobs/${job.id}`)).text());
  assert.match(jobPage, /Property Rental · 915 Maple Ave/);
});

test("a Jobber jobs export in day-first numbers ('24/11/2026 09:00') is read day-first, at that wall-clock time", async () => {
  const { t, c } = await setUp("Europe/London");
  const maria: [string, string] = ["Maria Okafor", "maria.okafor@example.com"];
  const csv =
    [
      csvLine(JOBBER_JOB_HEADERS),
      jobberJob(401, maria, "915 Maple Ave", "Hedge trim", "24/11/2026 09:00"),
      jobberJob(402, maria, "915 Maple Ave", "Leaf removal", "03/12/2026 14:30"),
      jobberJob(403, maria, "915 Maple Ave", "Window wash", "01/07/2026 08:15"),
    ].join("\r\n") + "\r\n";
  const { jobs } = await importStraight(c, t.id, csv, "Jobber jobs UK.csv");
  assert.equal(jobs.get("401")!.start, "2026-11-24T09:00Z");
  assert.equal(jobs.get("402")!.start, "2026-12-03T14:30Z");
  assert.equal(jobs.get("403")!.start, "2026-07-01T07:15Z", "1 July, British summer time");
});

test("a Housecall Pro jobs export with ISO dates and offsets imports start and end as those instants", async () => {
  const { t, c, props } = await setUp("America/Denver");
  const headers = [
    "Job #",
    "Customer name",
    "Customer email",
    "Job description",
    "Job status",
    "Job scheduled start date",
    "Job scheduled end date",
    "Address",
    "Employee",
    "Job amount",
  ];
  const csv =
    [
      csvLine(headers),
      csvLine([
        "5001",
        "James Lindqvist",
        "james.lindqvist@example.com",
        "Furnace tune-up",
        "scheduled",
        "2026-11-24T09:00:00-07:00",
        "2026-11-24T11:30:00-07:00",
        "77 Cedar Ln, Denver, CO 80203",
        "Dana Ruiz",
        "189.00",
      ]),
      csvLine([
        "5002",
        "Maria Okafor",
        "maria.okafor@example.com",
        "Water heater swap",
        "scheduled",
        "2026-12-01 13:00:00 -0600",
        "2026-12-01 16:00:00 -0600",
        "915 Maple Ave",
        "Dana Ruiz",
        "1450.00",
      ]),
    ].join("\r\n") + "\r\n";
  const { page, jobs } = await importStraight(c, t.id, csv, "Housecall Pro jobs.csv");
  assert.match(page, /Recognised: Housecall Pro jobs export/);
  assert.equal(jobs.get("5001")!.start, "2026-11-24T16:00Z");
  assert.equal(jobs.get("5001")!.end, "2026-11-24T18:30Z");
  assert.equal(jobs.get("5002")!.start, "2026-12-01T19:00Z");
  assert.equal(jobs.get("5002")!.end, "2026-12-01T22:00Z");
  assert.equal(jobs.get("5001")!.property_id, props[2]);
  assert.equal(jobs.get("5002")!.property_id, props[1]);
});

test("a QuickBooks-era jobs sheet in MM/DD/YYYY imports with no manual step; a date that is none of these is an error under the file's header", async () => {
  const { t, c } = await setUp("America/New_York");
  const headers = ["Job Title", "Customer Email", "Start Date", "End Date", "Memo"];
  const csv =
    [
      csvLine(headers),
      csvLine(["Deck staining", "maria.okafor@example.com", "11/24/2026", "11/25/2026", "Two coats"]),
      csvLine(["Fence repair", "james.lindqvist@example.com", "03/04/2026 8:00 AM", "03/04/2026 12:00 PM", ""]),
    ].join("\r\n") + "\r\n";
  const { page, jobs } = await importStraight(c, t.id, csv, "jobs.csv");
  const deck = jobs.get("Deck staining")!;
  assert.equal(deck.start, "2026-11-24T05:00Z");
  assert.equal(deck.end, "2026-11-26T04:59Z", "a date-only end is the end of that day");
  assert.equal(
    jobs.get("Fence repair")!.start,
    "2026-03-04T13:00Z",
    "03/04 read month-first: the file's 11/24 settles it",
  );
  assert.equal(jobs.get("Fence repair")!.end, "2026-03-04T17:00Z");
  assert.match(page, /Start Date → scheduled_start/);

  const bad =
    [csvLine(headers), csvLine(["Roof check", "maria.okafor@example.com", "next Tuesday", "", ""])].join("\r\n") +
    "\r\n";
  const res = await upload(c, "jobs", bad, { name: "jobs2.csv" });
  const id = idIn(res, "preview");
  const badPage = pageText(await (await c.get(`/import-data?type=jobs&preview=${id}`)).text());
  assert.match(badPage, /Start Date Must be a date-time/);
  const [run] = await rows<{ invalid_count: number }>(
    `SELECT invalid_count FROM import_runs WHERE tenant_id = $1 AND id = $2`,
    [t.id, id],
  );
  assert.equal(run.invalid_count, 1);
});
