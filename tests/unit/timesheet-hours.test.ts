import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { zonedToUtc } from "../../app/services/jobs/local-time";
import { overlapping, weekHours, weekStartOf, type PaidSpan } from "../../app/services/timesheets/hours";
import { payrollCsv } from "../../app/services/timesheets/payroll";

// The week's hours (docs/decisions/385-timesheets.md): local days, overtime by the weekly and the
// daily rule, each hour overtime at most once, real elapsed hours across a daylight-saving change.

const ZONE = "America/Chicago";
const span = (from: string, to: string): PaidSpan => ({
  start: zonedToUtc(from, ZONE).getTime(),
  end: zonedToUtc(to, ZONE).getTime(),
});
const WEEKLY = { weeklyMinutes: 40 * 60, dailyMinutes: null };

test("the week containing a date starts on the company's weekday", () => {
  assert.equal(weekStartOf("2026-06-18", 1), "2026-06-15"); // Thursday -> Monday
  assert.equal(weekStartOf("2026-06-15", 1), "2026-06-15");
  assert.equal(weekStartOf("2026-06-18", 7), "2026-06-14"); // Sunday weeks
  assert.equal(weekStartOf("2026-06-14", 7), "2026-06-14");
  assert.equal(weekStartOf("2026-06-13", 7), "2026-06-07");
});

test("46 hours in a week with the 40 h weekly rule: 40 regular and 6 overtime, on the hours after the threshold", () => {
  // Mon-Thu 10 h each (40 h), Friday 6 h: the whole of Friday is overtime.
  const days = ["15", "16", "17", "18"].map((d) => span(`2026-06-${d}T07:00`, `2026-06-${d}T17:00`));
  const week = weekHours([...days, span("2026-06-19T07:00", "2026-06-19T13:00")], WEEKLY, "2026-06-15", ZONE);
  assert.deepEqual([week.paidMinutes, week.regularMinutes, week.overtimeMinutes], [46 * 60, 40 * 60, 6 * 60]);
  assert.deepEqual(
    week.days.map((d) => [d.regularMinutes / 60, d.overtimeMinutes / 60]),
    [
      [10, 0],
      [10, 0],
      [10, 0],
      [10, 0],
      [0, 6],
      [0, 0],
      [0, 0],
    ],
  );
});

test("with an 8 h daily rule, a day's overtime is counted once, not again against the week", () => {
  const rules = { weeklyMinutes: 40 * 60, dailyMinutes: 8 * 60 };
  // Five 10 h days: 2 h daily overtime each (10 h); the 40 remaining hours are regular, no weekly overtime.
  const five = ["15", "16", "17", "18", "19"].map((d) => span(`2026-06-${d}T07:00`, `2026-06-${d}T17:00`));
  const week = weekHours(five, rules, "2026-06-15", ZONE);
  assert.deepEqual([week.paidMinutes, week.regularMinutes, week.overtimeMinutes], [50 * 60, 40 * 60, 10 * 60]);
  // A sixth day of 6 h: the week's regular hours are already 40, so all 6 are (weekly) overtime.
  const six = weekHours([...five, span("2026-06-20T08:00", "2026-06-20T14:00")], rules, "2026-06-15", ZONE);
  assert.deepEqual([six.regularMinutes, six.overtimeMinutes], [40 * 60, 16 * 60]);
  assert.deepEqual(six.days[5], { date: "2026-06-20", paidMinutes: 360, regularMinutes: 0, overtimeMinutes: 360 });
});

test("an entry crossing midnight counts on each day by its part", () => {
  const week = weekHours([span("2026-06-16T22:00", "2026-06-17T03:30")], WEEKLY, "2026-06-15", ZONE);
  assert.deepEqual(
    week.days.slice(1, 3).map((d) => d.paidMinutes),
    [120, 210],
  );
});

test("a week across the fall-back change counts real elapsed hours (the night is 9 hours, not 8)", () => {
  // 2026-11-01 02:00 CDT falls back to 01:00 CST: 22:00 Saturday to 06:00 Sunday is 9 real hours.
  const night = span("2026-10-31T22:00", "2026-11-01T06:00");
  assert.equal((night.end - night.start) / 3600_000, 9);
  const week = weekHours([night], WEEKLY, "2026-10-26", ZONE);
  assert.deepEqual(
    week.days.slice(5).map((d) => d.paidMinutes / 60),
    [2, 7],
  );
  assert.equal(week.paidMinutes, 9 * 60);
  // Spring forward (2026-03-08): 00:00 to 08:00 Sunday is 7 real hours.
  const spring = weekHours([span("2026-03-08T00:00", "2026-03-08T08:00")], WEEKLY, "2026-03-02", ZONE);
  assert.equal(spring.paidMinutes, 7 * 60);
});

test("property: regular + overtime = paid, overtime is at least the excess over the weekly threshold, never counted twice", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          day: fc.integer({ min: 0, max: 6 }),
          from: fc.integer({ min: 0, max: 20 }),
          hours: fc.integer({ min: 1, max: 10 }),
        }),
        { maxLength: 12 },
      ),
      fc.integer({ min: 10, max: 60 }),
      fc.option(fc.integer({ min: 4, max: 12 }), { nil: null }),
      (parts, weekly, daily) => {
        const spans = parts.map((p) => {
          const start = zonedToUtc(`2026-06-${15 + p.day}T${String(p.from).padStart(2, "0")}:00`, ZONE).getTime();
          return { start, end: start + p.hours * 3600_000 };
        });
        const w = weekHours(
          spans,
          { weeklyMinutes: weekly * 60, dailyMinutes: daily == null ? null : daily * 60 },
          "2026-06-15",
          ZONE,
        );
        for (const d of w.days) assert.equal(d.regularMinutes + d.overtimeMinutes, d.paidMinutes);
        assert.ok(w.regularMinutes <= weekly * 60);
        assert.ok(w.overtimeMinutes >= Math.max(0, w.paidMinutes - weekly * 60));
        if (daily != null) for (const d of w.days) assert.ok(d.regularMinutes <= daily * 60);
        else assert.equal(w.overtimeMinutes, Math.max(0, w.paidMinutes - weekly * 60));
      },
    ),
    { numRuns: 200 },
  );
});

test("overlapping entries are flagged, touching ones are not", () => {
  const flagged = overlapping([
    { start: 0, end: 10 },
    { start: 10, end: 20 },
    { start: 15, end: 18 },
    { start: 30, end: 40 },
  ]);
  assert.deepEqual([...flagged].sort(), [1, 2]);
});

test("the payroll file escapes formula cells and gives hours and minutes per person and day", () => {
  const day = { date: "2026-06-15", paidMinutes: 570, regularMinutes: 480, overtimeMinutes: 90 };
  const csv = payrollCsv([{ name: "=HYPERLINK(1)", email: "a@b.test", days: [day], approved: true }]);
  const [header, row] = csv.trim().split("\r\n");
  assert.match(header, /^employee_name,employee_email,date,regular_hours,overtime_hours/);
  assert.equal(row, "'=HYPERLINK(1),a@b.test,2026-06-15,8.00,1.50,9.50,480,90,approved");
});
