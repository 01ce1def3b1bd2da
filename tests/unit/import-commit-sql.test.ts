// The customers commit (docs/decisions/460): one statement over one parse of the stored records
// writes the customers and their service properties.
import assert from "node:assert/strict";
import { test } from "node:test";
import { COMMIT_SQL } from "../../app/services/import/records.server";

const parses = (sql: string) => (sql.match(/jsonb_array_elements\(d\.data::jsonb\)/g) ?? []).length;

test("the customers commit parses the stored records once, in one statement with the properties", () => {
  const c = COMMIT_SQL.customers;
  const statements = [`${c.with ?? ""} ${c.main} ${c.after ?? ""}`, ...c.parts];
  assert.equal(statements.length, 1, "one statement");
  assert.equal(parses(statements.join(" ")), 1, "one parse of the stored records");
  const sql = statements[0].replace(/\s+/g, " ");
  assert.match(sql, /r AS MATERIALIZED \(/);
  assert.match(sql, /INSERT INTO customer_properties \(/);
  assert.match(sql, /INSERT INTO customers \(/);
  // Its property keys point at customers the same statement inserts: the customers are written
  // first (on a Citus cluster each writing step checks its keys at its own end).
  assert.equal(c.checksOwnRows, true);
  assert.ok(sql.indexOf("INSERT INTO customers (") < sql.indexOf("INSERT INTO customer_properties ("));
});
