// The header matcher's entity-prefix rule and the Jobber preset: headers such as Invoice
// Ninja's "Client Name" / "Contact Email" match as "Name" / "Email"; Jobber's J-ID alone
// recognises its export, and its Title and Tags go to the customer's notes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyMapping } from "../../app/services/import/mapping/apply.server";
import { fieldsOf, matchHeaders, withoutEntityPrefix } from "../../app/services/import/mapping/match";
import { parseCsv } from "../../app/services/import/parse.server";
import { IMPORT_LIMITS } from "../../app/services/import/columns";

const fieldOf = (m: ReturnType<typeof matchHeaders>, header: string) =>
  m.columns.find((c) => c.header === header)?.field ?? null;

describe("entity prefixes", () => {
  it("strips Client, Contact and Customer before a header, never a header that is only the word", () => {
    assert.equal(withoutEntityPrefix("Client Address 1"), "Address 1");
    assert.equal(withoutEntityPrefix("contact_email"), "email");
    assert.equal(withoutEntityPrefix("Customer-Phone"), "Phone");
    assert.equal(withoutEntityPrefix("Customer"), null);
    assert.equal(withoutEntityPrefix("Clientele"), null);
    assert.equal(withoutEntityPrefix("Name"), null);
  });

  it("Invoice Ninja's prefixed headers meet its preset and map every field", () => {
    const headers = [
      "Client Name",
      "Client Number",
      "Client ID Number",
      "Client VAT Number",
      "Client Phone",
      "Client Address 1",
      "Client Address 2",
      "Client City",
      "Client Shipping Address 1",
      "Client Private Notes",
      "Contact First Name",
      "Contact Last Name",
      "Contact Email",
      "Contact Phone",
    ];
    const m = matchHeaders("customers", headers);
    assert.equal(m.preset?.id, "invoice-ninja-clients");
    assert.equal(m.certain, true);
    assert.deepEqual(fieldsOf(m), [
      "name",
      "external_id",
      null,
      null,
      "phone",
      "address_line1",
      "address_line2",
      "city",
      "property_line1",
      "notes",
      "first_name",
      "last_name",
      "email",
      "phone",
    ]);
  });

  it("without a preset, a prefixed header matches by name after the prefix; an unprefixed match comes first", () => {
    const m = matchHeaders("customers", [
      "Client Full Name",
      "Customer Email Address",
      "Contact Mobile",
      "Client Town",
    ]);
    assert.equal(m.preset, null);
    assert.deepEqual(fieldsOf(m), ["name", "email", "phone", "city"]);
    assert.equal(m.certain, true);
    // "Contact Info" is a header of its own (ambiguous), not "Info"; "Customer ID" stays the external id.
    const n = matchHeaders("customers", ["Name", "Contact Info", "Customer ID"]);
    assert.equal(fieldOf(n, "Contact Info"), "phone");
    assert.equal(n.columns[1].how, "ambiguous");
    assert.equal(fieldOf(n, "Customer ID"), "external_id");
  });

  it("an empty client name takes the contact's first and last names", async () => {
    const csv =
      "Client Name,Client Number,Client ID Number,Client VAT Number,Client Address 1,Contact First Name,Contact Last Name,Contact Email\r\n" +
      ",0001,,,12 Elm St,Ingrid,Halvorsen,ingrid@example.com\r\n" +
      "Brennan Plumbing,0002,,,3 Oak Ave,Teo,Marchetti,teo@example.com\r\n";
    const parsed = await parseCsv(csv, IMPORT_LIMITS);
    assert.ok(parsed.ok);
    const m = matchHeaders("customers", parsed.fileHeaders);
    const mapped = applyMapping("customers", parsed, fieldsOf(m), m.preset);
    const names = mapped.result.rows.map((r) => (r.values as { name: string } | null)?.name);
    assert.deepEqual(names, ["Ingrid Halvorsen", "Brennan Plumbing"]);
    assert.equal(mapped.result.errors.length, 0);
  });
});

describe("Jobber client export", () => {
  it("J-ID alone recognises it; J-ID is the external id; Title and Tags are kept in notes with their headers", async () => {
    const csv =
      "J-ID,Display Name,Title,First Name,Last Name,E-mails,Tags,Lead Source\r\n" +
      '48000001_71000001,Zoë Kowalski,Dr.,Zoë,Kowalski,zoe@example.com,"residential, spring-cleanup",Google\r\n';
    const parsed = await parseCsv(csv, IMPORT_LIMITS);
    assert.ok(parsed.ok);
    const m = matchHeaders("customers", parsed.fileHeaders);
    assert.equal(m.preset?.id, "jobber-clients");
    assert.equal(fieldOf(m, "J-ID"), "external_id");
    const mapped = applyMapping("customers", parsed, fieldsOf(m), m.preset);
    const values = mapped.result.rows[0].values as { externalId: string; notes: string };
    assert.equal(values.externalId, "48000001");
    assert.equal(values.notes, "Title: Dr.\nTags: residential, spring-cleanup");
    // What is not imported is named on the preview.
    assert.ok(mapped.warnings.some((w) => w.includes('"Lead Source"')));
  });
});
