// The sample CSVs (CONTRACT section 5) are valid and importable in the order customers, team,
// jobs, quotes, invoices: every reference points at a row of an earlier sample.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { IMPORT_TYPES, IMPORT_COLUMNS, type ImportType } from "../../app/services/import/columns";
import { sampleCsv, sampleFilename } from "../../app/services/import/samples";
import { analyseCsv, type AnalysedCsv } from "../../app/services/import/validate.server";

async function load<T extends ImportType>(type: T) {
  const r: AnalysedCsv<T> = await analyseCsv(type, sampleCsv(type));
  if (!r.ok) assert.fail(`${type}: ${r.message}`);
  return r;
}

describe("sample CSVs", () => {
  for (const type of IMPORT_TYPES) {
    it(`${type}: parses and validates with no error or warning, 8 to 15 rows, every column`, async () => {
      const r = await load(type);
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.warnings, []);
      assert.ok(r.rows.length >= 8 && r.rows.length <= 15, `${r.rows.length} rows`);
      assert.deepEqual(
        r.headers,
        IMPORT_COLUMNS[type].map((c) => c.name),
      );
      assert.ok(sampleCsv(type).endsWith("\r\n"));
      assert.equal(sampleFilename(type), `${type}-sample.csv`);
    });
  }

  it("customers show accents, a comma in a company name and a multi-line note", async () => {
    const rows = (await load("customers")).rows.map((r) => r.values!);
    assert.ok(rows.some((r) => /[^\x00-\x7f]/.test(r.name)));
    assert.ok(rows.some((r) => r.company?.includes(",")));
    assert.ok(rows.some((r) => r.notes?.includes("\n")));
  });

  it("jobs, quotes and invoices reference customers and team members of the samples", async () => {
    const customers = (await load("customers")).rows.map((r) => r.values!);
    const team = (await load("team")).rows.map((r) => r.values!);
    const emails = new Map(customers.filter((c) => c.email).map((c) => [c.email, c]));
    const ids = new Map(customers.filter((c) => c.externalId).map((c) => [c.externalId, c]));
    const members = new Set(team.map((t) => t.email));
    const refs = [...(await load("jobs")).rows, ...(await load("quotes")).rows, ...(await load("invoices")).rows].map(
      (r) => r.values!,
    );
    let byEmail = 0;
    let byId = 0;
    for (const v of refs) {
      const a = v.customerEmail ? emails.get(v.customerEmail) : undefined;
      const b = v.customerExternalId ? ids.get(v.customerExternalId) : undefined;
      assert.ok(a || b, `no customer for ${JSON.stringify(v)}`);
      if (v.customerEmail) {
        assert.ok(a, `unknown customer email ${v.customerEmail}`);
        byEmail++;
      }
      if (v.customerExternalId) {
        assert.ok(b, `unknown customer external_id ${v.customerExternalId}`);
        byId++;
      }
      if (a && b) assert.equal(a, b, "both references name the same customer");
      if ("assigneeEmail" in v && v.assigneeEmail)
        assert.ok(members.has(v.assigneeEmail), `unknown assignee ${v.assigneeEmail}`);
    }
    assert.ok(byEmail > 0 && byId > 0, "both kinds of customer reference are shown");
  });

  it("quotes and invoices hold documents with several line items", async () => {
    for (const type of ["quotes", "invoices"] as const) {
      const docs = (await load(type)).documents;
      assert.ok(docs.length >= 3);
      assert.ok(docs.some((d) => d.items.length >= 3));
      assert.ok(docs.every((d) => d.ok));
    }
    const invoices = (await load("invoices")).documents;
    assert.deepEqual([...new Set(invoices.map((d) => d.status))].sort(), ["draft", "paid", "partial", "sent", "void"]);
  });
});
