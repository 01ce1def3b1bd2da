// CSV import over HTTP (CONTRACT section 5, issue 3): samples, previews, file errors, limits.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { rows } from "../../db/index";
import { BASE_URL, Client, clientFor } from "../helpers/client";
import { createTenantWithUsers, twoTenants } from "../helpers/fixtures";
import { commit, countOf, idIn, importFile, pageText, parseSimpleCsv, preview, upload } from "../helpers/import";

const ORDER = ["customers", "team", "jobs", "quotes", "invoices"] as const;
const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/import");

async function signedIn() {
  const t = await createTenantWithUsers();
  return { t, c: await clientFor(t.users.office) };
}

test("each sample downloads as an attachment; the five preview clean and commit in order on an empty account", async () => {
  // An admin: the team file grants roles, which needs manage_team (issue 24).
  const t = await createTenantWithUsers();
  const c = await clientFor(t.users.admin);
  for (const type of ORDER) {
    const res = await c.get(`/import-data/sample?type=${type}`);
    assert.equal(res.status, 200, type);
    assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8");
    assert.equal(res.headers.get("content-disposition"), `attachment; filename="${type}-sample.csv"`);
    const csv = await res.text();
    assert.match(csv.split("\r\n")[0], /name|title|number/, `${type}: a header row`);

    const previewRes = await upload(c, type, csv, { name: `${type}-sample.csv` });
    const id = idIn(previewRes, "preview");
    assert.equal(previewRes.headers.get("location"), `/import-data?type=${type}&preview=${id}`);
    const page = pageText(await (await c.get(previewRes.headers.get("location")!)).text());
    assert.match(page, /Rows \d+ Valid \d+ With errors 0 Warnings 0/, `${type}: counts`);
    assert.match(page, /All \d+ rows are valid/, type);
    const committed = await commit(c, id);
    const runId = idIn(committed, "run");
    assert.equal(committed.headers.get("location"), `/import-data?type=${type}&run=${runId}`);
    const result = pageText(await (await c.get(committed.headers.get("location")!)).text());
    assert.match(result, /Imported \d+ (customers|team members|jobs|quotes|invoices)/, type);
  }
  const counts = Object.fromEntries(
    await Promise.all(
      ["customers", "jobs", "quotes", "quote_items", "invoices", "invoice_items", "payments"].map(async (table) => [
        table,
        await countOf(t.id, table),
      ]),
    ),
  );
  assert.deepEqual(counts, {
    customers: 12,
    jobs: 12,
    quotes: 4,
    quote_items: 11,
    invoices: 5,
    invoice_items: 10,
    payments: 2,
  });
  // Team members arrive without a password (they sign in through an invite later).
  const team = await rows<{ role: string; password_hash: string | null }>(
    `SELECT role, password_hash FROM users WHERE tenant_id = $1 AND import_run_id IS NOT NULL ORDER BY email`,
    [t.id],
  );
  assert.equal(team.length, 8);
  assert.ok(team.every((u) => u.password_hash === null));
  assert.deepEqual([...new Set(team.map((u) => u.role))].sort(), ["admin", "office", "technician"]);
  // A job found its customer by email and its technician; an invoice keeps what was paid.
  const [job] = await rows<{ customer: string; assignee: string; start: Date }>(
    `SELECT c.name AS customer, u.name AS assignee, j.scheduled_start AS start FROM jobs j
       JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
       JOIN users u ON u.tenant_id = j.tenant_id AND u.id = j.assignee_id
      WHERE j.tenant_id = $1 AND j.external_id = 'JOB-5001'`,
    [t.id],
  );
  assert.deepEqual(job, {
    customer: "Zoë Kowalski",
    assignee: "Tomás Ibáñez",
    start: new Date("2026-07-06T13:00:00Z"),
  });
  const [inv] = await rows<{ total_cents: number; amount_paid_cents: number; paid: number }>(
    `SELECT i.total_cents, i.amount_paid_cents, (SELECT sum(amount_cents)::int FROM payments p WHERE p.tenant_id = i.tenant_id AND p.invoice_id = i.id AND p.method = 'import') AS paid
       FROM invoices i WHERE i.tenant_id = $1 AND i.number = 'INV-2002'`,
    [t.id],
  );
  assert.deepEqual(inv, { total_cents: 42403, amount_paid_cents: 20000, paid: 20000 });
});

test("the sample link with an unknown or missing type is a 404 / 400 page", async () => {
  const { c } = await signedIn();
  const unknown = await c.get("/import-data/sample?type=widgets");
  assert.equal(unknown.status, 404);
  assert.match(await unknown.text(), /There is no sample for &#34;widgets&#34;|There is no sample for "widgets"/);
  const missing = await c.get("/import-data/sample");
  assert.equal(missing.status, 400);
  assert.match(await missing.text(), /customers, jobs, quotes, invoices, team/);
  assert.equal((await c.get("/import-data?type=widgets")).status, 404);
});

test("a file mixing good and bad rows lists every error by row and column, offers no commit, and a forced commit writes nothing", async () => {
  const { t, c } = await signedIn();
  const csv = fs.readFileSync(path.join(FIXTURES, "customers-mixed.csv"));
  const res = await upload(c, "customers", csv, { name: "customers-mixed.csv" });
  const id = idIn(res, "preview");
  const html = await (await c.get(res.headers.get("location")!)).text();
  const page = pageText(html);
  assert.match(page, /Rows 10 Valid 3 With errors 7 Warnings 1/);
  assert.match(page, /Unknown column "favourite colour" is ignored/);
  assert.match(page, /7 rows have errors, so the file cannot be imported as it is/);
  assert.doesNotMatch(html, /name="intent" value="commit"/, "no commit form (only the one taking the valid rows)");
  assert.doesNotMatch(page, /Import \d+ customers/);
  // Every error, with its row (the header is row 1) and column, on the page and in the download.
  const expected = [
    ["3", "name", "Required"],
    ["4", "email", "Not a valid email address"],
    ["5", "phone", "Not a valid phone number (digits, spaces, + ( ) - . and an optional extension like x12)"],
    ["6", "email", "Same email as row 2"],
    ["7", "external_id", "Same external_id as row 2"],
    ["8", "", "This row has 5 cells but the header has 8 columns."],
    ["10", "", "This row has 9 cells but the header has 8 columns."],
  ];
  for (const [row, column, message] of expected) {
    assert.ok(page.includes(` ${row} ${column || "whole row"} ${message}`), `row ${row} ${column}: ${message}`);
  }
  const download = await c.get(`/import-data/errors?preview=${id}`);
  assert.equal(download.status, 200);
  assert.equal(download.headers.get("content-type"), "text/csv; charset=utf-8");
  assert.equal(download.headers.get("content-disposition"), 'attachment; filename="customers-errors.csv"');
  assert.deepEqual(parseSimpleCsv(await download.text()), [["row", "column", "message"], ...expected]);
  // The bad cells are marked in the rows table.
  assert.match(
    html,
    /class="import-cell-bad" aria-invalid="true"><span class="import-cell">not-an-email<\/span><div class="import-cell-error">Not a valid email address/,
  );

  const forced = await commit(c, id);
  assert.equal(forced.status, 422);
  assert.match(pageText(await forced.text()), /This preview has rows with errors, so nothing was imported/);
  assert.equal(await countOf(t.id, "customers"), 0);
  const [run] = await rows<{ state: string }>(`SELECT state FROM import_runs WHERE tenant_id = $1 AND id = $2`, [
    t.id,
    id,
  ]);
  assert.equal(run.state, "previewed");
});

test("parsing through HTTP: BOM, quoted commas, LF and CRLF inside quotes, escaped quotes, UTF-8 names, header case and spaces, blank lines", async () => {
  const { t, c } = await signedIn();
  const csv =
    "\uFEFF Name ,EMAIL,Company, NOTES ,External_ID\r\n" +
    'Zoë Kowalski,zoe@example.com,"Brennan, Hart & Co.","Gate code 4412\nDog in yard",C-1\r\n' +
    '田中 愛子,aiko@example.com,"She said ""hi""","two\r\nlines",C-2\r\n' +
    "Emoji 🔧 Plumbing,,,,C-3\r\n" +
    "\r\n\r\n";
  const id = await preview(c, "customers", csv);
  const runId = idIn(await commit(c, id), "run");
  assert.ok(runId);
  const got = await rows<{ name: string; email: string | null; company: string | null; notes: string | null }>(
    `SELECT name, email, company, notes FROM customers WHERE tenant_id = $1 ORDER BY external_id`,
    [t.id],
  );
  assert.deepEqual(got, [
    {
      name: "Zoë Kowalski",
      email: "zoe@example.com",
      company: "Brennan, Hart & Co.",
      notes: "Gate code 4412\nDog in yard",
    },
    { name: "田中 愛子", email: "aiko@example.com", company: 'She said "hi"', notes: "two\nlines" },
    { name: "Emoji 🔧 Plumbing", email: null, company: null, notes: null },
  ]);
});

test("invalid UTF-8 is a clear file error; nothing is stored", async () => {
  const { t, c } = await signedIn();
  const bad = Buffer.concat([Buffer.from("name,email\nJos"), Buffer.from([0xe9]), Buffer.from(",jose@example.com\n")]);
  const res = await upload(c, "customers", bad);
  assert.equal(res.status, 400);
  assert.match(pageText(await res.text()), /The file is not valid UTF-8 text. Save it as "CSV UTF-8" and try again/);
  assert.equal(await countOf(t.id, "import_runs"), 0);
});

test("an empty file, a missing required column and an unknown type are 4xx with a message, and store nothing", async () => {
  const { t, c } = await signedIn();
  const cases: [string, string | Uint8Array, number, RegExp][] = [
    ["customers", "", 400, /The file is empty/],
    ["customers", "\r\n  \r\n", 400, /The file is empty/],
    ["customers", "name,email\r\n", 422, /The file has a header row but no data rows/],
    ["customers", "email,phone\r\nzoe@example.com,555 0100\r\n", 422, /Missing required column: name/],
    [
      "jobs",
      "title,description\r\nFix sink,Leak\r\n",
      422,
      /Missing required column: customer_email or customer_external_id/,
    ],
    ["widgets", "name\r\nZoë\r\n", 400, /"widgets" is not an import type/],
  ];
  for (const [type, content, status, message] of cases) {
    const res = await upload(c, type, content);
    assert.equal(res.status, status, `${type} ${JSON.stringify(content)}`);
    const page = pageText(await res.text());
    assert.match(page, message);
    if (type !== "widgets") assert.match(page, /Upload and preview/, "the form is shown again");
  }
  // Neither a file nor pasted text.
  const form = new FormData();
  form.set("_csrf", await c.csrf());
  form.set("type", "customers");
  form.set("file", new Blob([]), "");
  form.set("csv", "");
  const none = await c.post("/import-data/preview", form);
  assert.equal(none.status, 400);
  assert.match(pageText(await none.text()), /Choose a CSV file, or paste CSV text/);
  assert.equal(await countOf(t.id, "import_runs"), 0);
});

test("a file over 32 MiB or 50,000 rows is 413 and stores nothing, also when streamed without a length", async () => {
  const { t, c } = await signedIn();
  const header = "name,email\r\n";
  // Declared length over the limit: refused before the body is read.
  const big = header + "x".repeat(32 * 1024 * 1024 + 100_000);
  const declared = await upload(c, "customers", big);
  assert.equal(declared.status, 413);
  assert.match(pageText(await declared.text()), /The file is larger than 32 MiB/);
  // A file just over 32 MiB inside a body under the form's limit: the parser stops at the limit.
  const justOver = await upload(c, "customers", header + "y".repeat(32 * 1024 * 1024 - header.length + 10));
  assert.equal(justOver.status, 413);
  assert.match(pageText(await justOver.text()), /The file is larger than 32 MiB/);
  // Streamed (chunked, no Content-Length): the reader stops once past the limit.
  const token = await c.csrf();
  const boundary = "----import-test-boundary";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${token}\r\n--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ncustomers\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n${header}`;
  // Long rows, so the byte limit comes before the row limit.
  const chunk = Buffer.from(`${"Zoë Kowalski ".repeat(90)},zoe@example.com\r\n`.repeat(200));
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(Buffer.from(head));
    },
    pull(controller) {
      if (sent > 34 * 1024 * 1024) {
        controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
        controller.close();
        return;
      }
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
  const streamed = await fetch(new URL("/import-data/preview", BASE_URL), {
    method: "POST",
    headers: {
      cookie: c.cookieHeader(),
      origin: new URL(BASE_URL).origin,
      "content-type": `multipart/form-data; boundary=${boundary}`,
    },
    body,
    duplex: "half",
    redirect: "manual",
  } as RequestInit);
  assert.equal(streamed.status, 413);
  assert.match(pageText(await streamed.text()), /larger than 32 MiB/);
  // 50,001 data rows (small file): 413 as well; 50,000 would pass (unit tests).
  const many = header + "Ann,\r\n".repeat(50_001);
  const tooMany = await upload(c, "customers", many);
  assert.equal(tooMany.status, 413);
  assert.match(pageText(await tooMany.text()), /The file has more than 50,000 data rows/);
  assert.equal(await countOf(t.id, "import_runs"), 0);
});

test("a 25 MiB customers file in the import's own columns is read (one limit of 32 MiB for every type and header style)", async () => {
  const { t, c } = await signedIn();
  const notes = "Gate code 4412; friendly dog. ".repeat(160).slice(0, 4_900);
  const lines = ["name,email,notes"];
  for (let i = 0, size = 0; size < 25 * 1024 * 1024; i++) {
    lines.push(`Customer ${i},customer${i}@example.com,${notes}`);
    size += lines[lines.length - 1].length + 2;
  }
  const csv = `${lines.join("\r\n")}\r\n`;
  assert.ok(Buffer.byteLength(csv) > 25 * 1024 * 1024);
  const res = await upload(c, "customers", csv, { name: "big customers.csv" });
  assert.equal(res.status, 303, pageText(await res.clone().text()).slice(0, 300));
  const id = idIn(res, "preview");
  const [run] = await rows<{ valid_count: number; invalid_count: number }>(
    `SELECT valid_count, invalid_count FROM import_runs WHERE tenant_id = $1 AND id = $2`,
    [t.id, id],
  );
  assert.deepEqual(run, { valid_count: lines.length - 1, invalid_count: 0 });
});

test("quotes and invoices: rows sharing a number become one document with its line items; disagreeing rows are errors", async () => {
  const { t, c } = await signedIn();
  await importFile(
    c,
    "customers",
    "name,email,external_id\r\nZoë Kowalski,zoe@example.com,C-1\r\nJosé Álvarez,jose@example.com,C-2\r\n",
  );
  const quotes =
    "number,customer_email,title,status,item_description,item_quantity,item_unit_price,tax_rate\r\n" +
    "Q-1,zoe@example.com,Water heater,sent,Heater,1,1149.00,8.25\r\n" +
    "Q-1,zoe@example.com,Water heater,sent,Labour,4,95.00,0\r\n" +
    "Q-2,jose@example.com,Panel,draft,Panel,1,1890.00,8.25\r\n";
  await importFile(c, "quotes", quotes);
  const docs = await rows<{
    number: string;
    items: number;
    subtotal_cents: number;
    tax_cents: number;
    total_cents: number;
  }>(
    `SELECT q.number, count(i.*)::int AS items, q.subtotal_cents, q.tax_cents, q.total_cents
       FROM quotes q JOIN quote_items i ON i.tenant_id = q.tenant_id AND i.quote_id = q.id
      WHERE q.tenant_id = $1 GROUP BY q.tenant_id, q.id ORDER BY q.number`,
    [t.id],
  );
  assert.deepEqual(docs, [
    { number: "Q-1", items: 2, subtotal_cents: 152_900, tax_cents: 9_479, total_cents: 162_379 },
    { number: "Q-2", items: 1, subtotal_cents: 189_000, tax_cents: 15_593, total_cents: 204_593 },
  ]);

  const invoices =
    "number,customer_email,status,due_date,currency,item_description,item_unit_price,amount_paid\r\n" +
    "INV-1,zoe@example.com,partial,2026-07-30,USD,Drain cleaning,189.00,50.00\r\n" +
    "INV-1,jose@example.com,partial,2026-07-30,USD,Camera inspection,125.00,50.00\r\n" +
    "INV-1,zoe@example.com,paid,2026-07-30,EUR,Cap,25.00,50.00\r\n";
  const res = await upload(c, "invoices", invoices);
  const id = idIn(res, "preview");
  const page = pageText(await (await c.get(res.headers.get("location")!)).text());
  assert.ok(
    page.includes(' 3 customer_email Differs from row 2 of invoice INV-1, which has "zoe@example.com"'),
    page.slice(0, 2000),
  );
  assert.ok(page.includes(' 4 status Differs from row 2 of invoice INV-1, which has "partial"'));
  assert.ok(page.includes(' 4 currency Differs from row 2 of invoice INV-1, which has "USD"'));
  assert.equal((await commit(c, id)).status, 422);
  assert.equal(await countOf(t.id, "invoices"), 0);
});

test("pasted text previews like a file, also when the type comes after it", async () => {
  const { t, c } = await signedIn();
  const pasted = idIn(
    await upload(c, "customers", "name,email\r\nAnn Lee,ann@example.com\r\n", { field: "csv" }),
    "preview",
  );
  const typeLast = idIn(
    await upload(c, "customers", "name,email\r\nBo Li,bo@example.com\r\n", { typeLast: true }),
    "preview",
  );
  const runs = await rows<{ id: string; state: string; file_name: string | null; row_count: number }>(
    `SELECT id, state, file_name, row_count FROM import_runs WHERE tenant_id = $1 ORDER BY created_at`,
    [t.id],
  );
  assert.deepEqual(runs, [
    { id: pasted, state: "superseded", file_name: null, row_count: 1 },
    { id: typeLast, state: "previewed", file_name: "customers.csv", row_count: 1 },
  ]);
});

test("the upload needs the CSRF token, a same-site origin and the import permission; nothing is stored otherwise", async () => {
  const { t, c } = await signedIn();
  const csv = "name\r\nAnn Lee\r\n";
  const noToken = new FormData();
  noToken.set("type", "customers");
  noToken.set("file", new Blob([csv]), "c.csv");
  assert.equal((await c.request("POST", "/import-data/preview", { body: noToken })).status, 403);
  const crossSite = new FormData();
  crossSite.set("_csrf", await c.csrf());
  crossSite.set("type", "customers");
  crossSite.set("file", new Blob([csv]), "c.csv");
  // (A foreign Origin header never reaches the route: Remix itself refuses it for every page action.)
  assert.equal(
    (await c.request("POST", "/import-data/preview", { body: crossSite, headers: { "sec-fetch-site": "cross-site" } }))
      .status,
    403,
  );
  const tech = await clientFor(t.users.technician);
  assert.equal((await tech.get("/import-data")).status, 403);
  assert.equal((await tech.get("/import-data/sample?type=customers")).status, 403);
  assert.equal((await upload(tech, "customers", csv)).status, 403);
  const anonymous = await new Client().get("/import-data?type=customers");
  assert.equal(anonymous.status, 302);
  assert.equal(anonymous.headers.get("location"), "/login?redirectTo=%2Fimport-data%3Ftype%3Dcustomers");
  assert.equal(await countOf(t.id, "import_runs"), 0);
});

test("another tenant's preview is unknown: its page, its errors and its commit answer 404", async () => {
  const { a, b } = await twoTenants();
  const ca = await clientFor(a.users.owner);
  const cb = await clientFor(b.users.owner);
  const id = await preview(ca, "customers", "name,email\r\nAnn Lee,not-an-email\r\n");
  assert.equal((await ca.get(`/import-data?type=customers&preview=${id}`)).status, 200);
  assert.equal((await cb.get(`/import-data?type=customers&preview=${id}`)).status, 404);
  assert.equal((await cb.get(`/import-data?preview=${id}`)).status, 404);
  assert.equal((await cb.get(`/import-data/errors?preview=${id}`)).status, 404);
  assert.equal((await cb.get(`/import-data?type=customers&preview=not-a-uuid`)).status, 404);
  assert.equal((await commit(cb, id)).status, 404);
  assert.equal(await countOf(b.id, "customers"), 0);
});
