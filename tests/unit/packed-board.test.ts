import assert from "node:assert/strict";
import { test } from "node:test";
import type { Board } from "../../app/services/schedule/board.server";
import { packBoard, unpackBoard } from "../../app/services/schedule/packed-board";
import { outsideWindow } from "../../app/services/schedule/windows";
import { lowPriorityScripts } from "../../app/http/low-priority-scripts";

// The board goes to the browser short (docs/decisions/476): unpacked, it is exactly the board the
// server read, so the server's kept markup and the browser's hydration render the same cards.

const DANA = "7d1c2a58-58f4-4b8c-9a4e-0f2f0c8a1b01";
const ELI = "7d1c2a58-58f4-4b8c-9a4e-0f2f0c8a1b02";
/** An office member on no row (an unscheduled job's assignee). */
const OFFICE = "7d1c2a58-58f4-4b8c-9a4e-0f2f0c8a1b03";
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

const board = (): Board => ({
  view: "week",
  date: "2026-03-04",
  today: "2026-03-04",
  days: ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08"],
  prev: "2026-02-23",
  next: "2026-03-09",
  timeZone: "America/Chicago",
  members: [
    { id: DANA, name: "Dana Diaz", role: "technician" },
    { id: ELI, name: "Eli Moreau", role: "technician" },
  ],
  visits: [
    // Started the week before and runs into this one.
    {
      visitId: id(1),
      jobId: id(11),
      title: "Rewire barn",
      status: "in_progress",
      customerName: "Rosa Marquez",
      crew: [DANA, ELI],
      start: "2026-02-27T08:00",
      end: "2026-03-03T17:00",
      clock: { startedAt: "2026-02-27T14:02:00.000Z", onSiteAt: null },
    },
    {
      visitId: id(2),
      jobId: id(12),
      title: "Boiler service",
      status: "scheduled",
      customerName: "Ann Lee",
      crew: [ELI],
      start: "2026-03-04T09:00",
      end: "2026-03-04T10:30",
    },
    // Across the clock change (8 March in Chicago): wall clock, as a person counts it.
    {
      visitId: id(3),
      jobId: id(13),
      title: "Fit heat pump",
      status: "completed",
      customerName: "Bo Chen",
      crew: [],
      address: "1 Elm St",
      start: "2026-03-08T01:30",
      end: "2026-03-08T04:00",
      preferred: { date: "2026-03-07", timeWindow: "morning" },
      outsideWindow: outsideWindow("2026-03-08T01:30", { date: "2026-03-07", timeWindow: "morning" })!,
    },
  ],
  unscheduled: [
    {
      jobId: id(21),
      title: "Fit thermostat",
      status: "unscheduled",
      customerName: "Ann Lee",
      address: "9 Oak Lane",
      crew: [OFFICE],
      minutes: 90,
    },
    {
      jobId: id(22),
      title: "Quote follow-up",
      status: "on_hold",
      customerName: "Bo Chen",
      crew: [],
      preferred: { date: null, timeWindow: "afternoon" },
    },
  ],
  unscheduledTotal: 140,
  canMove: true,
  ownOnly: false,
});

test("a packed board unpacks to the board it was made from, through JSON", () => {
  const b = board();
  const packed = JSON.parse(JSON.stringify(packBoard(b)));
  assert.deepStrictEqual(unpackBoard(packed), b);
});

test("a card is a tuple: crew by row, times in minutes, the usual status and empty fields left out", () => {
  const packed = packBoard(board());
  assert.deepStrictEqual(packed.visits[1], [id(2), id(12), "Boiler service", "Ann Lee", [1], 2 * 1440 + 540, 90]);
  assert.deepStrictEqual(packed.visits[0].slice(4, 7), [[0, 1], -3 * 1440 + 480, 4 * 1440 + 540]);
  // The reason a card is outside its window is worked out again from the window, not sent.
  assert.ok(!JSON.stringify(packed).includes("Outside the customer"));
  // A crew member without a row keeps their id.
  assert.deepStrictEqual(packed.unscheduled[0], [
    id(21),
    "Fit thermostat",
    "Ann Lee",
    [OFFICE],
    { address: "9 Oak Lane", minutes: 90 },
  ]);
  const full = JSON.stringify(board().visits);
  const short = JSON.stringify(packed.visits);
  assert.ok(short.length < full.length * 0.7, `${short.length} characters packed against ${full.length}`);
});

test("only the run of preload links is marked low priority; a page without them is left as it is", () => {
  const page =
    '<html><body><p>&lt;link rel="modulepreload" href="x"&gt;</p><script>a()</script>' +
    '<link rel="modulepreload" href="/a.js"/><link rel="modulepreload" href="/b.js"/>' +
    '<script>window.__remixContext = {"x":"\\u003clink rel=\\"modulepreload\\" href=\\""};</script></body></html>';
  assert.equal(
    lowPriorityScripts(page),
    page
      .replace(
        '<link rel="modulepreload" href="/a.js"/>',
        '<link rel="modulepreload" fetchpriority="low" href="/a.js"/>',
      )
      .replace(
        '<link rel="modulepreload" href="/b.js"/>',
        '<link rel="modulepreload" fetchpriority="low" href="/b.js"/>',
      ),
  );
  assert.equal(lowPriorityScripts("<p>no scripts</p>"), "<p>no scripts</p>");
});

test("times a week and more away from the first day, before and after it, come back as they were", () => {
  const b = board();
  const starts = ["2026-02-20T23:45", "2026-03-01T00:00", "2026-03-02T00:00", "2026-03-08T23:59", "2026-03-09T00:15"];
  b.visits = starts.map((start, i) => ({
    visitId: id(100 + i),
    jobId: id(200 + i),
    title: `Visit ${i}`,
    status: "scheduled",
    customerName: "Ann Lee",
    crew: [DANA],
    start,
    end: i % 2 ? "2026-03-15T08:00" : start.slice(0, 11) + "23:59",
  }));
  assert.deepStrictEqual(unpackBoard(JSON.parse(JSON.stringify(packBoard(b)))), b);
});
