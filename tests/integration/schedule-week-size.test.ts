import assert from "node:assert/strict";
import { test } from "node:test";
import { rows } from "../../db/index";
import { zonedToday, zonedToUtc } from "../../app/services/jobs/local-time";
import { addDays, weekStart } from "../../app/services/schedule/days";
import { clientFor } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers, createUser } from "../helpers/fixtures";

// The week board of a big firm is hundreds of cards: each card's markup stays small, and the
// page sends its data once and short (a tuple a card, docs/decisions/476). Sizes, not timing.

const ZONE = "America/Chicago";
/** Bytes of one card's HTML on the week view, on average (it was about 1,500). */
const CARD_HTML_BUDGET = 460;
/** Bytes of one card's loader data in the page, on average (about 280 as objects with field names). */
const CARD_DATA_BUDGET = 150;

test("the week board's cards stay within a byte budget each, in the HTML and in the loader data", async () => {
  const t = await createTenantWithUsers();
  await rows(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, ZONE]);
  const techs = [
    await createUser(t.id, { role: "technician", name: "Dana Diaz" }),
    await createUser(t.id, { role: "technician", name: "Eli Moreau" }),
  ];
  const customer = await createCustomer(t.id, {
    name: "Rosa Marquez",
    address_line1: "48 Oak Lane",
    city: "Springfield",
  });
  const monday = addDays(weekStart(zonedToday(ZONE)), 14);
  const N = 30;
  for (let i = 0; i < N; i++) {
    const day = addDays(monday, i % 5);
    const hour = String(8 + Math.floor(i / 5)).padStart(2, "0");
    await createJob(t.id, {
      customerId: customer.id,
      assigneeId: techs[i % 2].id,
      title: `Replace water heater ${i + 1}`,
      scheduledStart: zonedToUtc(`${day}T${hour}:00`, ZONE),
    });
  }
  const office = await clientFor(t.users.office);
  const res = await office.get(`/schedule?view=week&date=${monday}`);
  assert.equal(res.status, 200);
  const html = await res.text();

  const cards = html.match(/<article\b[\s\S]*?<\/article>/g) ?? [];
  assert.equal(cards.length, N, "one card per visit");
  assert.ok(
    cards.every((c) => /Replace water heater \d+/.test(c) && /href="\/visits\/[0-9a-f-]{36}\/schedule/.test(c)),
  );
  const perCard = Buffer.byteLength(cards.join("")) / N;
  assert.ok(
    perCard <= CARD_HTML_BUDGET,
    `${Math.round(perCard)} bytes of HTML per card (budget ${CARD_HTML_BUDGET}), e.g. ${cards[0]}`,
  );

  const context = html.match(/window\.__remixContext = (\{[\s\S]*?\});<\/script>/);
  assert.ok(context, "the page's loader data");
  const board = JSON.parse(context[1]).state.loaderData["routes/schedule"];
  assert.equal(board.visits.length, N);
  const data = Buffer.byteLength(JSON.stringify(board.visits)) / N;
  assert.ok(data <= CARD_DATA_BUDGET, `${Math.round(data)} bytes of loader data per card (budget ${CARD_DATA_BUDGET})`);
  for (const v of board.visits as unknown[][]) {
    assert.ok(Array.isArray(v), "a card is a tuple, not an object with its field names");
    assert.ok(!v.includes(null), "a field with nothing is left out, not sent as null");
    assert.equal(v.filter((x) => x === v[0]).length, 1, "the card's key is its visit's id, not a second copy of it");
    assert.ok(
      (v[4] as unknown[]).every((c) => typeof c === "number"),
      "the crew are rows, not ids again",
    );
  }
});
