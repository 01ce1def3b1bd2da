import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { intlOffsetAt, intlZoned, offsetAt, utcToZoned, zonedToUtc } from "../../app/services/jobs/local-time";

// Wall-clock conversions read a zone's offsets from a per-day table learnt from Intl; every
// answer must equal what Intl itself says, on ordinary days and on the days clocks change.

const ZONES = [
  "America/Chicago",
  "America/New_York",
  "America/St_Johns",
  "Europe/London",
  "Europe/Berlin",
  "Australia/Lord_Howe",
  "Australia/Sydney",
  "Asia/Kolkata",
  "Pacific/Chatham",
  "Africa/Casablanca",
  "UTC",
];
const FROM = Date.UTC(1975, 0, 1);
const TO = Date.UTC(2060, 0, 1);

test("utcToZoned and offsetAt equal Intl at any instant in any zone", () => {
  fc.assert(
    fc.property(fc.constantFrom(...ZONES), fc.integer({ min: FROM, max: TO }), (zone, ms) => {
      assert.equal(offsetAt(ms, zone), intlOffsetAt(ms, zone));
      assert.equal(utcToZoned(new Date(ms), zone), intlZoned(ms, zone));
    }),
    { numRuns: 5000 },
  );
});

test("the seconds around a clock change convert as Intl says", () => {
  // 2027-03-14 02:00 CST -> 03:00 CDT (08:00 UTC); 2027-11-07 02:00 CDT -> 01:00 CST (07:00 UTC).
  for (const change of [Date.UTC(2027, 2, 14, 8), Date.UTC(2027, 10, 7, 7), Date.UTC(2027, 2, 28, 1)])
    for (const zone of ["America/Chicago", "Europe/London"])
      for (let s = -3; s <= 3; s++) {
        const ms = change + s * 1000;
        assert.equal(offsetAt(ms, zone), intlOffsetAt(ms, zone), `${zone} ${new Date(ms).toISOString()}`);
        assert.equal(utcToZoned(new Date(ms), zone), intlZoned(ms, zone));
      }
  assert.equal(offsetAt(Date.UTC(2027, 2, 14, 8) - 1000, "America/Chicago"), -6 * 3600_000);
  assert.equal(offsetAt(Date.UTC(2027, 2, 14, 8), "America/Chicago"), -5 * 3600_000);
});

test("zonedToUtc: skipped times move forward, repeated ones take the first", () => {
  assert.equal(zonedToUtc("2027-03-14T02:30", "America/Chicago").toISOString(), "2027-03-14T08:30:00.000Z");
  assert.equal(zonedToUtc("2027-11-07T01:30", "America/Chicago").toISOString(), "2027-11-07T06:30:00.000Z");
  assert.equal(zonedToUtc("2027-07-01T09:00", "America/Chicago").toISOString(), "2027-07-01T14:00:00.000Z");
  fc.assert(
    fc.property(fc.constantFrom(...ZONES), fc.integer({ min: FROM, max: TO }), (zone, ms) => {
      // Every wall-clock time that exists maps back to itself.
      const local = intlZoned(ms, zone);
      assert.equal(utcToZoned(zonedToUtc(local, zone), zone), local);
    }),
    { numRuns: 2000 },
  );
});

test("an unknown zone or time is refused as Intl refuses it", () => {
  assert.throws(() => utcToZoned(new Date(0), "Mars/Olympus"), RangeError);
  assert.throws(() => utcToZoned(new Date(Number.NaN), "UTC"), RangeError);
});
