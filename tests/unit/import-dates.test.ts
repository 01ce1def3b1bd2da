// Other products' dates in a mapped jobs file (CONTRACT section 14, docs/decisions/220): each
// layout Jobber, Housecall Pro and QuickBooks-era spreadsheets write becomes the section 5
// date-time; numeric dates are read day- or month-first by what the column's values settle.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { dateOrderOf, readDateTime } from "../../app/services/import/mapping/dates";
import { applyMapping } from "../../app/services/import/mapping/apply.server";
import { PRESETS } from "../../app/services/import/mapping/known-headers";
import { fieldsOf, matchHeaders } from "../../app/services/import/mapping/match";
import { parseCsv } from "../../app/services/import/parse.server";
import { IMPORT_LIMITS } from "../../app/services/import/columns";

const CHICAGO = { order: "mdy" as const, timeZone: "America/Chicago" };

describe("readDateTime", () => {
  const cases: [string, "mdy" | "dmy", string, boolean?][] = [
    // Jobber: the account's long date ("anytime": from the start of the day), or numeric with a time.
    ["Nov 24, 2026", "mdy", "2026-11-24T06:00:00.000Z"],
    ["Nov 24, 2026", "mdy", "2026-11-25T05:59:00.000Z", true],
    ["Tue, Nov 24, 2026 9:30 AM", "mdy", "2026-11-24T15:30:00.000Z"],
    ["November 24, 2026 2:00 PM", "mdy", "2026-11-24T20:00:00.000Z"],
    ["24/11/2026 09:00", "dmy", "2026-11-24T15:00:00.000Z"],
    ["24 Nov 2026", "dmy", "2026-11-24T06:00:00.000Z"],
    // Housecall Pro: ISO 8601 with an offset (and the spaced variant of spreadsheets).
    ["2026-11-24T09:00:00-05:00", "mdy", "2026-11-24T14:00:00.000Z"],
    ["2026-11-24 09:00:00 -0500", "mdy", "2026-11-24T14:00:00.000Z"],
    ["2026-11-24T14:00:00.000Z", "mdy", "2026-11-24T14:00:00.000Z"],
    ["2026-11-24 09:00", "mdy", "2026-11-24T15:00:00.000Z"],
    // QuickBooks: MM/DD/YYYY.
    ["11/24/2026", "mdy", "2026-11-24T06:00:00.000Z"],
    ["11/24/2026 2:30 PM", "mdy", "2026-11-24T20:30:00.000Z"],
    // Summer time in the tenant's zone (UTC-5 in July).
    ["07/06/2026 08:00", "mdy", "2026-07-06T13:00:00.000Z"],
  ];
  for (const [cell, order, expected, end] of cases) {
    it(`${JSON.stringify(cell)} (${order}${end ? ", end" : ""}) -> ${expected}`, () => {
      assert.equal(readDateTime(cell, { ...CHICAGO, order, end }), expected);
    });
  }

  it("refuses what is not a real date or time, leaving the cell to the section 5 check", () => {
    for (const cell of [
      "31/02/2026",
      "Nov 31, 2026",
      "next Tuesday",
      "13:00 PM",
      "2026-11-24 25:00",
      "24/11/2026 21:00 PM",
      "Foo 2, 2026",
      "",
    ]) {
      assert.equal(readDateTime(cell, { ...CHICAGO, order: "dmy" }), null, cell);
    }
  });
});

describe("dateOrderOf", () => {
  it("a first number above 12 settles day-first, a second one month-first, else the fallback (noted as ambiguous)", () => {
    assert.deepEqual(dateOrderOf(["03/04/2026", "24/11/2026 09:00"], "mdy"), {
      order: "dmy",
      settled: true,
      ambiguous: false,
    });
    assert.deepEqual(dateOrderOf(["03/04/2026", "11/24/2026"], "dmy"), {
      order: "mdy",
      settled: true,
      ambiguous: false,
    });
    assert.deepEqual(dateOrderOf(["03/04/2026", "Nov 24, 2026", ""], "mdy"), {
      order: "mdy",
      settled: false,
      ambiguous: true,
    });
    assert.deepEqual(dateOrderOf(["2026-11-24T09:00:00Z"], "mdy"), { order: "mdy", settled: false, ambiguous: false });
  });
});

describe("a Jobber jobs export through its preset", () => {
  it("turns '24/11/2026 09:00' (day-first, settled by the file) into the contract's scheduled_start", async () => {
    const csv =
      "Job #,Client name,Client email,Title,Service street,Scheduled start date\r\n" +
      "101,Maria Okafor,maria@example.com,Spring clean-up,12 Elm St,24/11/2026 09:00\r\n" +
      "102,James Brennan,james@example.com,Gutter repair,9 Oak Ave,03/12/2026 14:30\r\n";
    const parsed = await parseCsv(csv, { ...IMPORT_LIMITS });
    assert.ok(parsed.ok);
    const match = matchHeaders("jobs", parsed.fileHeaders);
    assert.equal(match.preset?.id, "jobber-jobs");
    assert.ok(match.certain);
    const m = applyMapping(
      "jobs",
      parsed,
      fieldsOf(match),
      PRESETS.find((p) => p.id === "jobber-jobs")!,
      { timeZone: "Europe/London" },
    );
    assert.deepEqual(m.result.errors, []);
    const values = m.result.rows.map((r) => r.values);
    assert.equal(values[0]?.scheduledStart, "2026-11-24T09:00:00.000Z");
    assert.equal(values[1]?.scheduledStart, "2026-12-03T14:30:00.000Z");
    assert.equal(values[0]?.status, "scheduled");
  });
});
