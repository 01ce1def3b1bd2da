// Performance sanity for the import: 50,000 customer rows (the row limit) parse and validate.
// Not timed as an assertion; the elapsed time is printed for the record.
import { it } from "node:test";
import assert from "node:assert/strict";
import { IMPORT_LIMITS } from "../../app/services/import/columns";
import { toCsv } from "../../app/services/import/csv-write";
import { analyseCsv } from "../../app/services/import/validate.server";

it("parses and validates 50,000 customer rows", async () => {
  const headers = [
    "name",
    "company",
    "email",
    "phone",
    "address_line1",
    "city",
    "region",
    "postal_code",
    "country",
    "notes",
    "external_id",
  ];
  const rows = Array.from({ length: IMPORT_LIMITS.maxRows }, (_, i) => [
    `Customer ${i} Nguyễn`,
    i % 7 === 0 ? `Acme ${i}, Inc.` : "",
    `customer${i}@example.com`,
    `+1 512 555 ${String(i % 10_000).padStart(4, "0")}`,
    `${i} Main St`,
    "Austin",
    "TX",
    "78701",
    "US",
    i % 11 === 0 ? "Gate code 1234\nDog in yard" : "",
    `CUST-${i}`,
  ]);
  const csv = Buffer.from(toCsv(headers, rows));
  const started = performance.now();
  const r = await analyseCsv("customers", csv);
  const ms = Math.round(performance.now() - started);
  console.log(
    `import: parse + validate of 50,000 customer rows (${(csv.length / 1024 / 1024).toFixed(1)} MiB): ${ms} ms`,
  );
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(r.rows.length, 50_000);
  assert.deepEqual(r.errors, []);
});
