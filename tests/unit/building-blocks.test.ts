import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

// Issue 26 point 5: one list-page and one record-page building block, used by the four lists and
// their record pages. A list or record page that grows its own table, header or history card again
// fails here (the pages' behaviour is covered by the back-office suites and browser tests).
const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (route: string) => fs.readFileSync(path.join(ROOT, "app/routes", route), "utf8");

const LISTS = ["customers._index.tsx", "jobs._index.tsx", "quotes._index.tsx", "invoices._index.tsx"];
const RECORDS = ["customers.$id.tsx", "jobs.$id.tsx", "quotes.$id.tsx", "invoices.$id.tsx"];

test("the four record lists are built on ListPage and listPageData", () => {
  for (const route of LISTS) {
    const source = read(route);
    assert.match(source, /from "~\/components\/list-page"/, `${route} does not use the ListPage block`);
    assert.match(source, /listPageData\(/, `${route} does not load through listPageData`);
    assert.doesNotMatch(
      source,
      /<table|<PageHeader|<Pagination|<ListToolbar|tenantHasAny/,
      `${route} draws its own list parts`,
    );
  }
});

test("the four record pages are built on RecordPage and recordPageData", () => {
  for (const route of RECORDS) {
    const source = read(route);
    assert.match(source, /<RecordPage\b/, `${route} does not use the RecordPage block`);
    assert.match(source, /recordPageData\(/, `${route} does not load through recordPageData`);
    assert.doesNotMatch(
      source,
      /<PageHeader|<RecordHistory|<PortalLinksCard|historyOf\(|listPortalLinks\(/,
      `${route} draws its own record parts`,
    );
  }
});
