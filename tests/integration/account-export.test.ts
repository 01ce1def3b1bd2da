// The account export (/settings/export, docs/decisions/360-account-export.md): who may use it,
// what the ZIP holds (exactly the business's rows, counted in the manifest, none of another
// business's), cells escaped against spreadsheet formulas, the same file twice, and the round
// trip: the export's customers, team, jobs, quotes and invoices imported into a new business
// through the import's own routes give the same records, compared in the database.
import assert from "node:assert/strict";
import zlib from "node:zlib";
import { setTimeout as sleep } from "node:timers/promises";
import { before, describe, test } from "node:test";
import Papa from "papaparse";
import { unzipSync } from "fflate";
import { rows } from "../../db/index";
import { clientFor, type Client } from "../helpers/client";
import {
  createCustomer,
  createInvoice,
  createJob,
  createQuote,
  createTenant,
  createTenantWithUsers,
  createUser,
  type TestTenant,
} from "../helpers/fixtures";
import { importFile, pageText } from "../helpers/import";
import { poolRan } from "../helpers/pool-figures";
import { portalRequest, randomLoopback } from "../helpers/portal";
import { quoteWithOptions } from "../helpers/quote-options";
import { createPortalLink } from "../../app/services/portal/links.server";

// A 1x1 PNG: a photo and a drawn signature.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** Every entry of a ZIP, by name; each entry's CRC-32 in the central directory is checked against its data. */
async function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  const out = new Map(Object.entries(unzipSync(buffer)).map(([name, data]) => [name, Buffer.from(data)]));
  let checked = 0;
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end > 0, "the ZIP has its end of central directory");
  let at = buffer.readUInt32LE(end + 16);
  for (let i = 0; i < buffer.readUInt16LE(end + 10); i++) {
    assert.equal(buffer.readUInt32LE(at), 0x02014b50, "a central directory record");
    const nameLength = buffer.readUInt16LE(at + 28);
    const name = buffer.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const data = out.get(name);
    assert.ok(data, `${name} is in the ZIP`);
    assert.equal(buffer.readUInt32LE(at + 16), zlib.crc32(data), `${name}: its CRC-32`);
    assert.equal(buffer.readUInt32LE(at + 24), data.length, `${name}: its size`);
    checked++;
    at += 46 + nameLength + buffer.readUInt16LE(at + 30) + buffer.readUInt16LE(at + 32);
  }
  assert.equal(checked, out.size);
  return out;
}

const csvOf = (files: Map<string, Buffer>, name: string) => {
  const file = files.get(name);
  assert.ok(file, `the ZIP has ${name}`);
  const parsed = Papa.parse<Record<string, string>>(file.toString("utf8"), { header: true, skipEmptyLines: true });
  assert.deepEqual(parsed.errors, [], `${name} parses`);
  return parsed;
};

/** A business with every kind of record the export writes. */
async function seedBusiness(t: TestTenant, tag: string) {
  const { owner, admin, technician } = t.users;
  const tricky = await createCustomer(t.id, {
    name: `=HYPERLINK("http://evil.example","${tag}")`,
    company: "@Risky Corp",
    email: `tricky-${tag}@example.test`,
    external_id: `EXT-${tag}-1`,
    city: "-Springfield",
  });
  await rows(`UPDATE customers SET notes = $2 WHERE id = $1`, [tricky.id, "+1 call before\nsecond line"]);
  const plain = await createCustomer(t.id, { name: `Plain ${tag}`, email: `plain-${tag}@example.test` });
  // No email and no external id: the export names it by its id, so its job can refer to it.
  const anonymous = await createCustomer(t.id, { name: `Walk-in ${tag}`, email: null });
  await rows(
    `INSERT INTO customer_properties (tenant_id, customer_id, position, label, address_line1, city)
     VALUES ($1, $2, 1, 'Rental', '9 Oak Lane', 'Springfield')`,
    [t.id, plain.id],
  );
  await rows(`UPDATE users SET phone = '+1 512 555 0111', hourly_rate_cents = 6850 WHERE id = $1`, [technician.id]);

  const day = (d: number) => new Date(Date.UTC(2026, 5, 1 + d, 14, 0, 0));
  const jobs = [
    await createJob(t.id, {
      customerId: tricky.id,
      status: "scheduled",
      assigneeId: technician.id,
      scheduledStart: day(1),
    }),
    await createJob(t.id, {
      customerId: plain.id,
      status: "in_progress",
      assigneeId: technician.id,
      scheduledStart: day(2),
    }),
    await createJob(t.id, { customerId: plain.id, status: "on_hold", assigneeId: admin.id, scheduledStart: day(3) }),
    await createJob(t.id, {
      customerId: plain.id,
      status: "en_route",
      assigneeId: technician.id,
      scheduledStart: day(4),
    }),
    await createJob(t.id, {
      customerId: anonymous.id,
      status: "completed",
      assigneeId: technician.id,
      scheduledStart: day(0),
      checklist: ["Shut off gas", "Drain tank"],
    }),
    await createJob(t.id, { customerId: anonymous.id, status: "unscheduled", scheduledStart: null }),
    await createJob(t.id, { customerId: tricky.id, status: "cancelled", scheduledStart: null }),
  ];
  await rows(`UPDATE jobs SET external_id = $2, description = $3, address = '9 Oak Lane' WHERE id = $1`, [
    jobs[1].id,
    `JOB-${tag}`,
    "-5 degrees outside, bring the heater",
  ]);
  const done = jobs[4];
  await rows(
    `INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, note)
     VALUES ($1, $2, $3, '2026-06-01T14:00:00Z', '2026-06-01T16:30:00Z', 'Replaced the anode')`,
    [t.id, done.id, technician.id],
  );
  await rows(
    `INSERT INTO job_notes (tenant_id, job_id, author_id, body) VALUES ($1, $2, $3, '@office: parts ordered')`,
    [t.id, done.id, technician.id],
  );
  await rows(
    `INSERT INTO job_photos (tenant_id, id, job_id, taken_by, taken_at, content_type, byte_size, sha256, bytes)
     VALUES ($1, gen_random_uuid(), $2, $3, '2026-06-01T15:00:00Z', 'image/png', $4, encode(sha256($5), 'hex'), $5)`,
    [t.id, done.id, technician.id, PNG.length, PNG],
  );
  await rows(
    `INSERT INTO job_signatures (tenant_id, job_id, signer_name, image, signed_at, collected_by)
     VALUES ($1, $2, 'Zoë Customer', $3, '2026-06-01T16:35:00Z', $4)`,
    [t.id, done.id, PNG, technician.id],
  );
  await rows(
    `INSERT INTO job_events (tenant_id, job_id, user_id, from_status, to_status) VALUES ($1, $2, $3, 'in_progress', 'completed')`,
    [t.id, done.id, technician.id],
  );
  await rows(
    `INSERT INTO price_book_items (tenant_id, kind, name, unit_price_cents, tax_rate) VALUES ($1, 'service', 'Drain clean', 14900, 8.25)`,
    [t.id],
  );
  await rows(
    `INSERT INTO booking_requests (tenant_id, customer_id, service, description) VALUES ($1, $2, 'Leaky tap', 'Kitchen')`,
    [t.id, plain.id],
  );
  await rows(
    `INSERT INTO record_history (tenant_id, record_type, record_id, action, summary, source, user_id, actor_name)
     VALUES ($1, 'customer', $2, 'created', 'Created the customer', 'staff', $3, 'Owner')`,
    [t.id, plain.id, owner.id],
  );

  const items = [
    { description: "50 gal gas water heater", unitPriceCents: 145_000, taxRate: "8.25" },
    { description: "Labour (hours)", quantity: "2.5", unitPriceCents: 12_345, taxRate: "0" },
  ];
  for (const status of ["draft", "sent", "approved", "declined", "expired"])
    await createQuote(t.id, { customerId: plain.id, number: `Q-${tag}-${status}`, status, items });
  await createQuote(t.id, { customerId: anonymous.id, number: `Q-${tag}-walkin`, status: "sent" });
  // Options and optional items: one sent (its total is the first option's, nothing optional),
  // one approved in the portal with "Better" and the warranty (its total is that choice's).
  await quoteWithOptions(t.id, plain.id, { number: `Q-${tag}-options` });
  const chosen = await quoteWithOptions(t.id, plain.id, { number: `Q-${tag}-chosen` });
  const link = await createPortalLink({ tenantId: t.id, userId: owner.id, role: "owner" }, plain.id, 30);
  const approval = await portalRequest("POST", "/api/portal/quote", {
    ip: randomLoopback(),
    form: {
      token: new URL(link.url).pathname.split("/").pop(),
      quoteId: chosen.id,
      decision: "approve",
      signatureName: "Jamie Rivera",
      acceptTerms: "on",
      option: "Better",
      optionalItems: chosen.ids.warranty,
    },
  });
  assert.equal(approval.status, 303, approval.text.slice(0, 300));
  const invoices = [];
  for (const status of ["draft", "sent", "partial", "paid", "void"]) {
    const inv = await createInvoice(t.id, { customerId: tricky.id, number: `INV-${tag}-${status}`, status, items });
    const paid = status === "partial" ? 10_000 : status === "paid" ? inv.totalCents : 0;
    if (paid) {
      await rows(`UPDATE invoices SET amount_paid_cents = $2 WHERE id = $1`, [inv.id, paid]);
      await rows(
        `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference, received_on)
         VALUES ($1, $2, $3, 'USD', 'check', '#1001', '2026-06-02')`,
        [t.id, inv.id, paid],
      );
    }
    invoices.push(inv);
  }
  return { tricky, plain, anonymous, jobs, invoices };
}

/** The counts the manifest must give, computed here from the database. */
async function databaseCounts(tenantId: string): Promise<Record<string, number>> {
  const count = async (sql: string) => (await rows<{ n: number }>(sql, [tenantId]))[0].n;
  const n = (table: string, where = "true") =>
    count(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1 AND ${where}`);
  return {
    customers: await n("customers"),
    "team members": await n("users", "role <> 'owner'"),
    jobs: await n("jobs"),
    quotes: await n("quotes"),
    invoices: await n("invoices"),
    properties: await n("customer_properties"),
    visits: await n("visits"),
    payments: await n("payments"),
    "time entries": await n("time_entries"),
    "price book items": await n("price_book_items"),
    "checklist items": await n("job_checklist_items"),
    "job notes": await n("job_notes"),
    "booking requests": await n("booking_requests"),
    "history entries": await n("record_history"),
    "job status changes": await n("job_events"),
    photos: await n("job_photos"),
    signatures: await n("job_signatures"),
  };
}

/** Starts an export as `c` and waits until it is written; answers its ZIP's entries. */
async function exportEverything(c: Client, tenantId: string): Promise<{ id: string; files: Map<string, Buffer> }> {
  const res = await c.post("/settings/export", {});
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/settings/export");
  let state = "running";
  let id = "";
  for (let i = 0; i < 600 && state === "running"; i++) {
    [{ id, state }] = await rows<{ id: string; state: string }>(
      `SELECT id, state FROM account_exports WHERE tenant_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [tenantId],
    );
    if (state === "running") await sleep(200);
  }
  assert.equal(state, "ready");
  const zip = await c.get(`/settings/export/${id}.zip`);
  assert.equal(zip.status, 200);
  assert.equal(zip.headers.get("content-type"), "application/zip");
  assert.match(
    zip.headers.get("content-disposition") ?? "",
    /^attachment; filename="fieldwork-export-\d{4}-\d\d-\d\d\.zip"$/,
  );
  return { id, files: await unzip(Buffer.from(await zip.arrayBuffer())) };
}

let a: TestTenant;
let b: TestTenant;
let seeded: Awaited<ReturnType<typeof seedBusiness>>;
let exported: { id: string; files: Map<string, Buffer> };
let slicesRan = 0;
const TAG = Math.random().toString(36).slice(2, 8);

before(async () => {
  [a, b] = await Promise.all([createTenantWithUsers(`Export A ${TAG}`), createTenantWithUsers(`Export B ${TAG}`)]);
  seeded = await seedBusiness(a, `a${TAG}`);
  await seedBusiness(b, `b${TAG}`);
  const ranBefore = (await poolRan())["export-slice"] ?? 0;
  exported = await exportEverything(await clientFor(a.users.owner), a.id);
  slicesRan = ((await poolRan())["export-slice"] ?? 0) - ranBefore;
});

describe("/settings/export", () => {
  test("only an owner or an admin: a technician and an office user get 403, and no export starts", async () => {
    for (const role of ["technician", "office"] as const) {
      const c = await clientFor(a.users[role]);
      assert.equal((await c.get("/settings/export")).status, 403, `${role} GET`);
      assert.equal((await c.post("/settings/export", {})).status, 403, `${role} POST`);
      assert.equal((await c.get(`/settings/export/${exported.id}.zip`)).status, 403, `${role} download`);
    }
    const admin = await clientFor(a.users.admin);
    assert.equal((await admin.get("/settings/export")).status, 200);
    const [{ n }] = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM account_exports WHERE tenant_id = $1`, [
      a.id,
    ]);
    assert.equal(n, 1);
  });

  test("the CSV files were written and deflated in the CPU pool: a slice per header, per batch of rows and the manifest", async () => {
    const csvFiles = [...exported.files.keys()].filter((n) => n.endsWith(".csv"));
    assert.ok(csvFiles.length >= 15, "the export's CSV files");
    // Each CSV file's header is one slice and its rows at least one more when it has any; the manifest one.
    const withRows = csvFiles.filter((n) => exported.files.get(n)!.toString("utf8").split("\r\n").length > 2);
    assert.ok(slicesRan >= csvFiles.length + withRows.length + 1, `${slicesRan} slices ran in the pool`);
  });

  test("the manifest counts exactly the business's rows, and no file holds another business's", async () => {
    const manifest = JSON.parse(exported.files.get("manifest.json")!.toString("utf8"));
    assert.equal(manifest.business, `Export A ${TAG}`);
    assert.deepEqual(manifest.counts, await databaseCounts(a.id));
    for (const [what, n] of Object.entries(manifest.counts)) assert.ok((n as number) > 0, `the test has ${what}`);
    // Rows per file: a document has one row per line item.
    const rowsOf = Object.fromEntries(manifest.files.map((f: { name: string; rows: number }) => [f.name, f.rows]));
    assert.equal(rowsOf["customers.csv"], manifest.counts.customers);
    assert.equal(csvOf(exported.files, "jobs.csv").data.length, manifest.counts.jobs);
    const [{ n: lines }] = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM invoice_items WHERE tenant_id = $1`,
      [a.id],
    );
    assert.equal(csvOf(exported.files, "invoices.csv").data.length, lines);
    // The images, one file each.
    assert.equal([...exported.files.keys()].filter((n) => n.startsWith("photos/")).length, manifest.counts.photos);
    assert.deepEqual(exported.files.get([...exported.files.keys()].find((n) => n.startsWith("signatures/"))!), PNG);

    const theirs = await rows<{ v: string }>(
      `SELECT name AS v FROM customers WHERE tenant_id = $1 UNION ALL SELECT email FROM customers WHERE tenant_id = $1 AND email IS NOT NULL
       UNION ALL SELECT email FROM users WHERE tenant_id = $1 UNION ALL SELECT number FROM invoices WHERE tenant_id = $1
       UNION ALL SELECT id::text FROM jobs WHERE tenant_id = $1`,
      [b.id],
    );
    assert.ok(theirs.length > 10);
    for (const [name, bytes] of exported.files) {
      const text = bytes.toString("utf8");
      for (const { v } of theirs)
        assert.ok(!text.includes(v.replace(/"/g, '""')) && !text.includes(v), `${name} holds ${v}`);
    }
  });

  test("the import files have the import's columns; a cell that starts with = + - @ is escaped", async () => {
    const customers = csvOf(exported.files, "customers.csv");
    assert.deepEqual(customers.meta.fields, [
      "name",
      "company",
      "email",
      "phone",
      "address_line1",
      "address_line2",
      "city",
      "region",
      "postal_code",
      "country",
      "notes",
      "external_id",
      "tax_exempt",
      "tax_exempt_reason",
    ]);
    const tricky = customers.data.find((r) => r.email === seeded.tricky.email)!;
    assert.equal(tricky.name, `'=HYPERLINK("http://evil.example","a${TAG}")`);
    assert.equal(tricky.company, "'@Risky Corp");
    assert.equal(tricky.city, "'-Springfield");
    assert.equal(tricky.notes, "'+1 call before\nsecond line");
    const jobs = csvOf(exported.files, "jobs.csv");
    assert.ok(jobs.data.some((r) => r.description === "'-5 degrees outside, bring the heater"));
    assert.ok(csvOf(exported.files, "job_notes.csv").data.some((r) => r.body === "'@office: parts ordered"));
    // Invoice numbers as they are.
    const numbers = new Set(csvOf(exported.files, "invoices.csv").data.map((r) => r.number));
    assert.deepEqual([...numbers].sort(), seeded.invoices.map((i) => i.number).sort());
  });

  test("the page shows the download and the history: who, when, what it holds", async () => {
    const owner = await clientFor(a.users.owner);
    const res = await owner.get("/settings/export");
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(html.includes(`/settings/export/${exported.id}.zip`));
    const text = pageText(html);
    assert.match(text, /History/);
    assert.ok(text.includes(a.users.owner.name), "who");
    assert.match(text, /Ready/);
    assert.match(text, /customers: 3, team members: 3, jobs: 7, quotes: 8, invoices: 5, properties: 1/);
  });

  test("another business's export, an unknown or a malformed id: 404", async () => {
    const theirs = await clientFor(b.users.owner);
    assert.equal((await theirs.get(`/settings/export/${exported.id}.zip`)).status, 404);
    const owner = await clientFor(a.users.owner);
    assert.equal((await owner.get(`/settings/export/00000000-0000-4000-8000-000000000000.zip`)).status, 404);
    assert.equal((await owner.get(`/settings/export/nope.zip`)).status, 404);
  });

  test("the same account exported twice gives the same files (stable order, no time inside a row)", async () => {
    const again = await exportEverything(await clientFor(a.users.admin), a.id);
    assert.deepEqual([...again.files.keys()], [...exported.files.keys()]);
    for (const [name, bytes] of exported.files) {
      if (name === "manifest.json") continue;
      assert.ok(bytes.equals(again.files.get(name)!), `${name} is the same`);
    }
  });
});

describe("the round trip", () => {
  test("customers, team, jobs, quotes and invoices imported into a new business give the same records", async () => {
    const fresh = await createTenant(`Round trip ${TAG}`);
    const owner = await createUser(fresh.id, { role: "owner" });
    const c = await clientFor(owner);
    for (const type of ["customers", "team", "jobs", "quotes", "invoices"])
      await importFile(c, type, exported.files.get(`${type}.csv`)!.toString("utf8"));

    const same = async (what: string, sql: string) => {
      const [before, after] = [await rows(sql, [a.id]), await rows(sql, [fresh.id])];
      assert.ok(before.length > 0, what);
      assert.deepEqual(after, before, what);
    };
    await same(
      "customers",
      `SELECT name, company, email, phone, address_line1, address_line2, city, region, postal_code, country, notes,
              coalesce(external_id, id::text) AS key
         FROM customers WHERE tenant_id = $1 ORDER BY name, email`,
    );
    await same(
      "team",
      `SELECT name, email, role, phone, hourly_rate_cents FROM users WHERE tenant_id = $1 AND role <> 'owner' ORDER BY email`,
    );
    await same(
      "jobs",
      `SELECT j.title, j.status, coalesce(j.external_id, j.id::text) AS key, j.description, j.address,
              j.scheduled_start, j.scheduled_end, u.email AS assignee, c.name AS customer
         FROM jobs j JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
         LEFT JOIN users u ON u.tenant_id = j.tenant_id AND u.id = j.assignee_id
        WHERE j.tenant_id = $1 ORDER BY key`,
    );
    const documents = (kind: "quote" | "invoice") => `
      SELECT d.number, d.status, d.issue_date::text, d.currency, d.subtotal_cents, d.tax_cents, d.total_cents,
             ${kind === "quote" ? "d.title, d.valid_until::text, d.notes, d.chosen_option" : "d.due_date::text, d.amount_paid_cents, d.total_cents - d.amount_paid_cents AS balance"},
             c.name AS customer,
             (SELECT json_agg(json_build_object('description', i.description, 'quantity', i.quantity, 'unit', i.unit_price_cents,
                     'tax_rate', i.tax_rate, 'line', i.line_total_cents, 'tax', i.tax_cents
                     ${kind === "quote" ? ", 'option', i.option_name, 'optional', i.optional, 'chosen', i.selected" : ""}) ORDER BY i.position)
                FROM ${kind}_items i WHERE i.tenant_id = d.tenant_id AND i.${kind}_id = d.id) AS items
        FROM ${kind}s d JOIN customers c ON c.tenant_id = d.tenant_id AND c.id = d.customer_id
       WHERE d.tenant_id = $1 ORDER BY d.number`;
    await same("quotes", documents("quote"));
    // The quotes with options keep the totals of their choice: the default (the first option,
    // nothing optional) and the customer's ("Better" with the warranty).
    const optionTotals = await rows<{ number: string; total: string; chosen: string | null }>(
      `SELECT number, total_cents AS total, chosen_option AS chosen FROM quotes
        WHERE tenant_id = $1 AND (number LIKE '%-options' OR number LIKE '%-chosen') ORDER BY number`,
      [fresh.id],
    );
    assert.deepEqual(
      optionTotals.map((q) => [q.number.replace(/^Q-\w+-/, ""), Number(q.total), q.chosen]),
      [
        ["chosen", 153_800, "Better"],
        ["options", 28_900, null],
      ],
    );
    await same("invoices", documents("invoice"));
    // Money received before the import is one payment per invoice, for the same amounts.
    const paid = `SELECT i.number, sum(p.amount_cents)::bigint AS paid FROM payments p
      JOIN invoices i ON i.tenant_id = p.tenant_id AND i.id = p.invoice_id WHERE p.tenant_id = $1 GROUP BY i.number ORDER BY i.number`;
    await same("payments per invoice", paid);
  });
});
