// Import from another product (CONTRACT section 14, issue 19): exports of Jobber, Housecall Pro,
// QuickBooks Online and Invoice Ninja import as they are; a second import of the same export is
// all duplicates; an uncertain header stops at the mapping step, whose choice is remembered.
import assert from "node:assert/strict";
import { test } from "node:test";
import { rows } from "../../db/index";
import { BASE_URL, clientFor, type Client } from "../helpers/client";
import { createTenantWithUsers } from "../helpers/fixtures";
import { commit, countOf, idIn, pageText, upload } from "../helpers/import";
import {
  housecallProCustomers,
  invoiceNinjaClients,
  jobberClients,
  quickbooksCustomers,
  type ExpectedCustomer,
} from "../helpers/product-exports";

async function signedIn() {
  const t = await createTenantWithUsers();
  return { t, c: await clientFor(t.users.office) };
}

/** Uploads a file that must go straight to the preview (no mapping step); returns its id. */
async function straightToPreview(c: Client, csv: string, name: string): Promise<string> {
  const res = await upload(c, "customers", csv, { name });
  assert.equal(res.status, 303);
  assert.match(
    res.headers.get("location")!,
    /preview=/,
    `${name}: straight to the preview, got ${res.headers.get("location")}`,
  );
  return idIn(res, "preview");
}

async function checkImported(tenantId: string, expected: ExpectedCustomer[]) {
  const found = await rows<{
    id: string;
    name: string;
    email: string | null;
    phone: string | null;
    notes: string | null;
    company: string | null;
    external_id: string | null;
    n: number;
  }>(
    `SELECT c.id, c.name, c.email, c.phone, c.notes, c.company, c.external_id,
            (SELECT count(*)::int FROM customer_properties p WHERE p.tenant_id = c.tenant_id AND p.customer_id = c.id) AS n
       FROM customers c WHERE c.tenant_id = $1`,
    [tenantId],
  );
  assert.equal(found.length, expected.length, "one customer per client");
  const byEmail = new Map(found.map((f) => [f.email, f]));
  for (const e of expected) {
    const f = byEmail.get(e.email);
    assert.ok(f, `customer ${e.email}`);
    assert.equal(f.name, e.name);
    assert.equal(f.phone, e.phone, `${e.name}: first phone in place`);
    assert.equal(f.external_id, e.externalId, `${e.name}: external id`);
    assert.equal(f.company, e.company, `${e.name}: company`);
    assert.equal(f.n, e.properties, `${e.name}: properties`);
    for (const other of [...e.otherEmails, ...e.otherPhones])
      assert.ok(f.notes?.includes(other), `${e.name}: ${other} kept in notes (${f.notes})`);
  }
}

test("a Jobber client export (200 rows, 150 clients) imports with no manual step; a second import is all duplicates", async () => {
  const { t, c } = await signedIn();
  const { csv, expected } = jobberClients(150, { twoProperties: 30, threeProperties: 10 });
  assert.equal(csv.trim().split("\r\n").length, 201, "200 data rows");
  assert.ok(
    expected.some((e) => e.otherEmails.length) &&
      expected.some((e) => e.otherPhones.length) &&
      expected.some((e) => !e.company),
  );

  const id = await straightToPreview(c, csv, "Jobber clients.csv");
  const page = pageText(await (await c.get(`/import-data?type=customers&preview=${id}`)).text());
  assert.match(page, /Recognised: Jobber client export/);
  assert.match(page, /E-mails → email/);
  assert.match(page, /Service Street 1 → property_line1/);
  assert.match(page, /All 150 rows are valid/);
  idIn(await commit(c, id), "run");
  await checkImported(t.id, expected);
  assert.equal(await countOf(t.id, "customer_properties"), 200);
  const [labels] = await rows<{ n: number }>(
    `SELECT count(*)::int AS n FROM customer_properties WHERE tenant_id = $1 AND label = 'Cabin'`,
    [t.id],
  );
  assert.equal(labels.n, 10, "the third property's label");
  // Title and Tags are kept in the notes, under their headers.
  const [tagged] = await rows<{ n: number }>(
    `SELECT count(*)::int AS n FROM customers WHERE tenant_id = $1 AND notes LIKE '%Tags: residential, spring-cleanup%'`,
    [t.id],
  );
  assert.equal(tagged.n, expected.filter((_, i) => i % 4 === 0).length, "every tagged client keeps its tags");
  const [titled] = await rows<{ n: number }>(
    `SELECT count(*)::int AS n FROM customers WHERE tenant_id = $1 AND notes LIKE '%Title: Dr.%'`,
    [t.id],
  );
  assert.ok(titled.n > 0, "titles kept");

  // The same file again: every client a duplicate error naming the file's own header; nothing written.
  const before = await countOf(t.id, "customers");
  const again = await straightToPreview(c, csv, "Jobber clients.csv");
  const [run] = await rows<{ invalid_count: number; valid_count: number; error_count: number }>(
    `SELECT invalid_count, valid_count, error_count FROM import_runs WHERE tenant_id = $1 AND id = $2`,
    [t.id, again],
  );
  assert.equal(run.valid_count, 0);
  assert.equal(run.invalid_count, 150);
  const againPage = pageText(await (await c.get(`/import-data?type=customers&preview=${again}`)).text());
  assert.match(againPage, /J-ID A customer with this external_id already exists/);
  assert.match(againPage, /rows 2, 3, 4 of the file are this one record/);
  const refused = await commit(c, again);
  assert.equal(refused.status, 422);
  assert.equal(await countOf(t.id, "customers"), before);
  assert.equal(await countOf(t.id, "customer_properties"), 200);
});

test("Housecall Pro (numbered address groups), QuickBooks Online and Invoice Ninja exports import with no manual step", async () => {
  for (const [name, make, label] of [
    ["Housecall Pro customers.csv", housecallProCustomers, "Housecall Pro customer export"],
    ["QuickBooks customers.csv", quickbooksCustomers, "QuickBooks Online customer list"],
    ["Invoice Ninja clients.csv", invoiceNinjaClients, "Invoice Ninja client export"],
    [
      "Invoice Ninja clients, prefixed headers.csv",
      (n: number) => invoiceNinjaClients(n, { prefixed: true }),
      "Invoice Ninja client export",
    ],
  ] as const) {
    const { t, c } = await signedIn();
    const { csv, expected } = make(60);
    const id = await straightToPreview(c, csv, name);
    const page = pageText(await (await c.get(`/import-data?type=customers&preview=${id}`)).text());
    assert.match(page, new RegExp(`Recognised: ${label}`), name);
    assert.match(page, /All 60 rows are valid/, name);
    idIn(await commit(c, id), "run");
    await checkImported(t.id, expected);
  }
});

test("an ambiguous header stops at the mapping step; the choice is used and remembered for the same headers", async () => {
  const { t, c } = await signedIn();
  const csv =
    "Client Name,Email Address,Contact\r\nIngrid Halvorsen,ingrid@example.com,(512) 555-0101\r\nTeo Marchetti,teo@example.com,(512) 555-0102\r\n";
  const res = await upload(c, "customers", csv, { name: "contacts.csv" });
  assert.equal(res.status, 303);
  const location = res.headers.get("location")!;
  const uploadId = new URL(location, "http://x").searchParams.get("upload");
  assert.ok(uploadId, location);
  assert.equal(await countOf(t.id, "import_runs"), 0, "no preview yet");

  const step = await (await c.get(location)).text();
  const text = pageText(step);
  assert.match(text, /Match your columns/);
  assert.match(text, /Contact Check: could be several fields/);
  assert.match(text, /Ingrid Halvorsen/, "first values shown");
  // Chosen in advance: the name and e-mail columns, the ambiguous one preselected.
  assert.match(step, /<select id="field-column-0" name="column.0"[^>]*>[\s\S]*?<option value="name" selected/);

  // A required field left unmapped: 422 beside it, nothing stored.
  const refused = await c.post(`/import-data/map?type=customers&upload=${uploadId}`, {
    uploadId,
    "column.0": "ignore",
    "column.1": "email",
    "column.2": "phone",
  });
  assert.equal(refused.status, 422);
  assert.match(pageText(await refused.text()), /Choose a column for the required field name/);
  assert.equal(await countOf(t.id, "import_runs"), 0);
  assert.equal(await countOf(t.id, "import_mappings"), 0);

  const ranBefore = await poolRan();
  const mapped = await c.post(`/import-data/map?type=customers&upload=${uploadId}`, {
    uploadId,
    "column.0": "name",
    "column.1": "email",
    "column.2": "phone",
  });
  const previewId = idIn(mapped, "preview");
  const ranAfter = await poolRan();
  // The mapped file is read, checked and made into its stored chunks in the CPU pool, as an upload
  // is, not on the request thread (a customers file with no clash: in one task). At least: other
  // test files share the server and its pool.
  assert.ok(ranAfter["import-map"] - (ranBefore["import-map"] ?? 0) >= 1, "the mapped file was read in the pool");
  const preview = pageText(await (await c.get(mapped.headers.get("location")!)).text());
  assert.match(preview, /Contact → phone/);
  idIn(await commit(c, previewId), "run");
  const [ingrid] = await rows<{ phone: string }>(
    `SELECT phone FROM customers WHERE tenant_id = $1 AND email = 'ingrid@example.com'`,
    [t.id],
  );
  assert.equal(ingrid.phone, "(512) 555-0101");

  // The next file with the same headers goes straight to the preview with that choice.
  const next = await upload(
    c,
    "customers",
    "Client Name,Email Address,Contact\r\nAmara Nwosu,amara@example.com,(512) 555-0103\r\n",
    { name: "more.csv" },
  );
  const nextId = idIn(next, "preview");
  const nextPage = pageText(await (await c.get(`/import-data?type=customers&preview=${nextId}`)).text());
  assert.match(nextPage, /Contact → phone/);
});

test("errors name the file's own headers", async () => {
  const { c } = await signedIn();
  const id = await straightToPreview(c, "Full Name,E-mail,Zip\r\nPat Lee,not-an-email,78704\r\n", "bad.csv");
  const page = pageText(await (await c.get(`/import-data?type=customers&preview=${id}`)).text());
  assert.match(page, /2 E-mail /);
  assert.doesNotMatch(page, /\b2 email\b/);
});

/** How many tasks of each kind the serving process's CPU pool ran (the health check, outside production). */
async function poolRan(): Promise<Record<string, number>> {
  const res = await fetch(`${BASE_URL}/healthz?figures=1`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: { pool: { ran: Record<string, number> } } }).data.pool.ran;
}
