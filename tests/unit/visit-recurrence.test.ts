import assert from "node:assert/strict";
import { test } from "node:test";
import { parseWithZod } from "@conform-to/zod";
import { occurrences, placeOccurrence, ruleFor } from "../../app/services/visits/recurrence.server";
import { utcToZoned } from "../../app/services/jobs/local-time";
import { jobFormSchema } from "../../app/services/jobs/schemas";
import { monthsLater } from "../../app/services/visits/series.server";

// Recurring visits (docs/decisions/315-recurring-visits.md): the rule from the job form's repeat
// fields, expanded by the rrule library as wall-clock times, placed in the tenant's zone.

const CHICAGO = "America/Chicago";
const local = (d: Date) => utcToZoned(d, CHICAGO).replace("T", " ");
const place = (list: string[], minutes = 60) => list.map((l) => placeOccurrence(l, minutes, CHICAGO).start);

test("yearly on the 2nd Tuesday of October, 5 visits", () => {
  const rule = ruleFor({ repeat: "yearly", monthlyBy: "weekday_of_month", endsAfter: 5 }, "2027-10-12T09:00");
  assert.equal(rule, "FREQ=YEARLY;INTERVAL=1;BYMONTH=10;BYDAY=+2TU;COUNT=5");
  const list = occurrences({ rule, firstLocal: "2027-10-12T09:00" });
  assert.deepEqual(place(list).map(local), [
    "2027-10-12 09:00",
    "2028-10-10 09:00",
    "2029-10-09 09:00",
    "2030-10-08 09:00",
    "2031-10-14 09:00",
  ]);
});

test("weekly series keep 09:00 wall clock across the November and March changes", () => {
  const fall = ruleFor({ repeat: "weekly", weekdays: ["tuesday"], endsAfter: 4 }, "2027-10-26T09:00");
  const fallVisits = place(occurrences({ rule: fall, firstLocal: "2027-10-26T09:00" }));
  assert.deepEqual(fallVisits.map(local), [
    "2027-10-26 09:00",
    "2027-11-02 09:00",
    "2027-11-09 09:00",
    "2027-11-16 09:00",
  ]);
  // The instants differ by the change: 14:00Z in CDT, 15:00Z in CST.
  assert.deepEqual(
    fallVisits.map((d) => d.toISOString().slice(11, 16)),
    ["14:00", "14:00", "15:00", "15:00"],
  );
  const spring = ruleFor({ repeat: "weekly", endsOn: "2028-03-21" }, "2028-03-01T09:00");
  const springVisits = place(occurrences({ rule: spring, firstLocal: "2028-03-01T09:00" }));
  assert.deepEqual(springVisits.map(local), ["2028-03-01 09:00", "2028-03-08 09:00", "2028-03-15 09:00"]);
  assert.deepEqual(
    springVisits.map((d) => d.toISOString().slice(11, 16)),
    ["15:00", "15:00", "14:00"],
  );
});

test("a daily 02:30 visit is at 03:30 on the spring-forward day; 01:30 on the fall-back day is the first", () => {
  const rule = ruleFor({ repeat: "daily", endsAfter: 3 }, "2028-03-11T02:30");
  assert.deepEqual(place(occurrences({ rule, firstLocal: "2028-03-11T02:30" })).map(local), [
    "2028-03-11 02:30",
    "2028-03-12 03:30",
    "2028-03-13 02:30",
  ]);
  const fallBack = placeOccurrence("2027-11-07T01:30", 30, CHICAGO);
  assert.equal(fallBack.start.toISOString(), "2027-11-07T06:30:00.000Z"); // 01:30 CDT, the first
});

test("a day a month lacks is skipped (the 31st, a 5th Tuesday)", () => {
  const rule = ruleFor({ repeat: "monthly", endsAfter: 4 }, "2027-01-31T10:00");
  assert.deepEqual(occurrences({ rule, firstLocal: "2027-01-31T10:00" }), [
    "2027-01-31T10:00",
    "2027-03-31T10:00",
    "2027-05-31T10:00",
    "2027-07-31T10:00",
  ]);
  const fifth = ruleFor({ repeat: "monthly", monthlyBy: "weekday_of_month", endsAfter: 2 }, "2027-03-30T10:00");
  assert.deepEqual(occurrences({ rule: fifth, firstLocal: "2027-03-30T10:00" }), [
    "2027-03-30T10:00",
    "2027-06-29T10:00",
  ]);
});

test("every 2 weeks on Monday and Thursday, open-ended, up to a horizon", () => {
  const rule = ruleFor({ repeat: "weekly", interval: 2, weekdays: ["thursday", "monday"] }, "2027-01-04T08:00");
  assert.equal(rule, "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH");
  assert.deepEqual(occurrences({ rule, firstLocal: "2027-01-04T08:00" }, { until: "2027-01-31T23:59" }), [
    "2027-01-04T08:00",
    "2027-01-07T08:00",
    "2027-01-18T08:00",
    "2027-01-21T08:00",
  ]);
  assert.deepEqual(
    occurrences({ rule, firstLocal: "2027-01-04T08:00" }, { after: "2027-01-07T08:00", until: "2027-01-21T08:00" }),
    ["2027-01-18T08:00", "2027-01-21T08:00"],
  );
  assert.equal(monthsLater("2027-01-31T08:00", 1), "2027-02-28T08:00");
  assert.equal(monthsLater("2026-11-27T10:15", 12), "2027-11-27T10:15");
});

test("the job form takes the repeat fields (one weekday or several) and checks them", () => {
  const form = (entries: Array<[string, string]>) => {
    const f = new FormData();
    for (const [k, v] of [["customerId", "7b0c2f36-9f5b-4c8e-9d0e-1b7f1e0c0a11"], ["title", "Mow"], ...entries])
      f.append(k, v);
    return parseWithZod(f, { schema: jobFormSchema });
  };
  const one = form([
    ["scheduledStart", "2027-01-04T08:00"],
    ["repeat", "weekly"],
    ["weekdays", "monday"],
    ["interval", "2"],
  ]);
  assert.equal(one.status, "success");
  assert.deepEqual(one.status === "success" && [one.value.weekdays, one.value.interval], [["monday"], 2]);
  const two = form([
    ["scheduledStart", "2027-01-04T08:00"],
    ["repeat", "weekly"],
    ["weekdays", "monday"],
    ["weekdays", "friday"],
  ]);
  assert.deepEqual(two.status === "success" && two.value.weekdays, ["monday", "friday"]);
  const unknownDay = form([
    ["scheduledStart", "2027-01-04T08:00"],
    ["repeat", "weekly"],
    ["weekdays", "caturday"],
  ]);
  assert.deepEqual(unknownDay.status === "error" && unknownDay.error, { "weekdays[0]": ["Choose days of the week."] });
  const bad = form([
    ["repeat", "weekly"],
    ["endsAfter", "3"],
    ["endsOn", "2027-02-01"],
  ]);
  assert.equal(bad.status, "error");
  const errors = bad.status === "error" ? bad.error : {};
  assert.ok(errors?.scheduledStart && errors?.endsOn, JSON.stringify(errors));
});

test("an open-ended rule expanded from any of its occurrences continues the same sequence", async () => {
  // The horizon worker expands a series from its latest visit made rather than its first.
  const fc = (await import("fast-check")).default;
  fc.assert(
    fc.property(
      fc.constantFrom("daily", "weekly", "monthly", "yearly" as const),
      fc.integer({ min: 1, max: 4 }),
      fc.subarray(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const),
      fc.constantFrom("day_of_month", "weekday_of_month" as const),
      fc.integer({ min: 0, max: 800 }),
      fc.integer({ min: 0, max: 40 }),
      (repeat, interval, weekdays, monthlyBy, dayOffset, pick) => {
        const firstLocal = new Date(Date.UTC(2026, 0, 1 + dayOffset, 9, 30)).toISOString().slice(0, 16);
        const rule = ruleFor({ repeat, interval, weekdays, monthlyBy }, firstLocal);
        const until = "2034-12-31T23:59";
        const all = occurrences({ rule, firstLocal }, { until, limit: 100_000 });
        if (all.length < 2) return;
        const anchor = all[pick % all.length]!;
        const after = all[Math.min(all.length - 1, (pick % all.length) + 1)]!.slice(0, 10) + "T00:00";
        const expected = all.filter((o) => o > after && o > anchor);
        assert.deepEqual(
          occurrences({ rule, firstLocal: anchor }, { after, until, limit: 100_000 }).filter((o) => o > anchor),
          expected,
        );
      },
    ),
    { numRuns: 300 },
  );
});
