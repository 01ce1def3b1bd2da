// "Import only the valid rows" (docs/decisions/250): a preview with errors offers a new preview
// of just its valid rows, which commits like any valid preview; the preview with errors itself
// stays refused; the rows left out download as CSV, whole, with their errors, escaped against
// formula injection.
import assert from "node:assert/strict";
import { test } from "node:test";
import { rows } from "../../db/index";
import { clientFor, type Client } from "../helpers/client";
import { createTenantWithUsers } from "../helpers/fixtures";
import { commit, countOf, idIn, importFile, pageText, parseSimpleCsv, preview, runState } from "../helpers/import";

async function signedIn() {
  const t = await createTenantWithUsers();
  return { t, c: await clientFor(t.users.office) };
}

const validRows = (c: Client, previewId: string) => c.post("/import-data/commit", { previewId, intent: "valid-rows" });

test("customers: the valid rows become a new preview that commits; the rows with errors download whole with their errors", async () => {
  const { t, c } = await signedIn();
  const longNotes = "Side gate code 4412. ".repeat(30).trim();
  const csv =
    "name,email,phone,notes\r\n" +
    "Ingrid Halvorsen,ingrid@example.com,(512) 555-0101,\r\n" +
    `=HYPERLINK("http://evil.example"),not-an-email,(512) 555-0102,${longNotes}\r\n` +
    "Teo Marchetti,teo@example.com,(512) 555-0103,Friendly dog\r\n" +
    ",nameless@example.com,,\r\n";
  const id = await preview(c, "customers", csv, "customers.csv");
  const page = pageText(await (await c.get(`/import-data?type=customers&preview=${id}`)).text());
  assert.match(page, /2 rows have errors, so the file cannot be imported as it is/);
  assert.match(page, /Preview the 2 valid rows/);

  // The preview with errors itself is still refused.
  const refused = await commit(c, id);
  assert.equal(refused.status, 422);
  assert.match(pageText(await refused.text()), /This preview has rows with errors, so nothing was imported/);
  assert.equal(await countOf(t.id, "customers"), 0);

  // The rows with errors as CSV: each row whole (not cut like the preview's cells), its errors,
  // and a formula escaped.
  const leftOut = await c.get(`/import-data/left-out?preview=${id}`);
  assert.equal(leftOut.status, 200);
  assert.match(leftOut.headers.get("content-type")!, /^text\/csv/);
  assert.match(leftOut.headers.get("content-disposition")!, /attachment; filename="customers-rows-with-errors.csv"/);
  const table = parseSimpleCsv(await leftOut.text());
  assert.deepEqual(table[0], ["row", "name", "email", "phone", "notes", "errors"]);
  assert.equal(table.length, 3);
  assert.equal(table[1][0], "3");
  assert.equal(table[1][1], `'=HYPERLINK("http://evil.example")`, "formula escaped");
  assert.equal(table[1][4], longNotes, "the cell whole");
  assert.match(table[1][5], /email: /);
  assert.equal(table[2][0], "5");
  assert.match(table[2][5], /name: /);

  // Take the valid rows: a new preview, valid, saying what was left out.
  const made = await validRows(c, id);
  const next = idIn(made, "preview");
  assert.notEqual(next, id);
  assert.equal(await runState(t.id, id), "superseded");
  const nextPage = pageText(await (await c.get(`/import-data?type=customers&preview=${next}`)).text());
  assert.match(nextPage, /All 2 rows are valid/);
  assert.match(nextPage, /2 rows of the file were left out because of errors/);
  assert.match(nextPage, /Ingrid Halvorsen/);
  assert.doesNotMatch(nextPage, /HYPERLINK/);
  // Its left-out rows are the same CSV.
  const again = parseSimpleCsv(await (await c.get(`/import-data/left-out?preview=${next}`)).text());
  assert.deepEqual(again, table);

  // The new preview commits like any valid one; the old one is superseded (409).
  const runId = idIn(await commit(c, next), "run");
  const imported = await rows<{ name: string; notes: string | null }>(
    `SELECT name, notes FROM customers WHERE tenant_id = $1 ORDER BY name`,
    [t.id],
  );
  assert.deepEqual(imported, [
    { name: "Ingrid Halvorsen", notes: null },
    { name: "Teo Marchetti", notes: "Friendly dog" },
  ]);
  const [run] = await rows<{ imported_count: number }>(
    `SELECT imported_count FROM import_runs WHERE tenant_id = $1 AND id = $2`,
    [t.id, runId],
  );
  assert.equal(run.imported_count, 2);
  assert.equal((await commit(c, id)).status, 409);
  const twice = await validRows(c, id);
  assert.equal(twice.status, 409);
  assert.match(pageText(await twice.text()), /replaced by a newer one or imported already/);
  assert.equal(await countOf(t.id, "customers"), 2);
});

test("quotes: only whole quotes are kept; a good row of a quote with a bad row is left out with the reason", async () => {
  const { t, c } = await signedIn();
  await importFile(c, "customers", "name,email\r\nZoë Kowalski,zoe@example.com\r\nJosé Álvarez,jose@example.com\r\n");
  const quotes =
    "number,customer_email,title,status,item_description,item_quantity,item_unit_price,tax_rate\r\n" +
    "Q-1,zoe@example.com,Water heater,sent,Heater,1,1149.00,8.25\r\n" +
    "Q-1,zoe@example.com,Water heater,sent,Labour,four,95.00,0\r\n" +
    "Q-2,jose@example.com,Panel,draft,Panel,1,1890.00,8.25\r\n" +
    "Q-2,jose@example.com,Panel,draft,Breakers,2,45.00,8.25\r\n";
  const id = await preview(c, "quotes", quotes);
  const page = pageText(await (await c.get(`/import-data?type=quotes&preview=${id}`)).text());
  assert.match(page, /Preview the 2 valid rows/);
  const table = parseSimpleCsv(await (await c.get(`/import-data/left-out?preview=${id}`)).text());
  assert.deepEqual(
    table.slice(1).map((r) => [r[0], r.at(-1)!.replace(/:.*/, "")]),
    [
      ["2", "Left out with its quote"],
      ["3", "item_quantity"],
    ],
  );
  assert.match(table[1].at(-1)!, /another row of quote Q-1 has errors/);

  const next = idIn(await validRows(c, id), "preview");
  const nextPage = pageText(await (await c.get(`/import-data?type=quotes&preview=${next}`)).text());
  assert.match(nextPage, /Importing adds 1 quote with 2 line items/);
  idIn(await commit(c, next), "run");
  const docs = await rows<{ number: string; items: number; total_cents: number }>(
    `SELECT q.number, count(i.*)::int AS items, q.total_cents
       FROM quotes q JOIN quote_items i ON i.tenant_id = q.tenant_id AND i.quote_id = q.id
      WHERE q.tenant_id = $1 GROUP BY q.tenant_id, q.id`,
    [t.id],
  );
  assert.deepEqual(docs, [{ number: "Q-2", items: 2, total_cents: 214_336 }]);
});

test("no valid row, a valid preview, a technician, another tenant's preview: refused, nothing changes", async () => {
  const { t, c } = await signedIn();
  const none = await preview(c, "customers", "name,email\r\n,a@example.com\r\nBo,not-an-email\r\n");
  const page = pageText(await (await c.get(`/import-data?type=customers&preview=${none}`)).text());
  assert.doesNotMatch(page, /Preview the/);
  const refused = await validRows(c, none);
  assert.equal(refused.status, 422);
  assert.match(pageText(await refused.text()), /No row of this file can be imported on its own/);
  assert.equal(await runState(t.id, none), "previewed");

  const tech = await clientFor(t.users.technician);
  assert.equal((await validRows(tech, none)).status, 403);
  assert.equal((await tech.get(`/import-data/left-out?preview=${none}`)).status, 403);

  const other = await createTenantWithUsers();
  const stranger = await clientFor(other.users.owner);
  assert.equal((await validRows(stranger, none)).status, 404);
  assert.equal((await stranger.get(`/import-data/left-out?preview=${none}`)).status, 404);
  assert.equal(await runState(t.id, none), "previewed");

  const valid = await preview(c, "customers", "name,email\r\nBo Lindqvist,bo@example.com\r\n");
  assert.equal((await validRows(c, valid)).status, 422);
  assert.equal(
    (await c.get(`/import-data/left-out?preview=${valid}`)).status,
    404,
    "a valid preview leaves nothing out",
  );
  assert.equal(await runState(t.id, valid), "previewed");
  assert.equal(await countOf(t.id, "customers"), 0);
});
