import assert from "node:assert/strict";
import { test } from "node:test";
import zlib from "node:zlib";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import {
  keepMarkup,
  keptPage,
  keptMarkupFigures,
  markupKey,
  MARKUP_BYTES_KEPT,
} from "../../app/services/schedule/kept-markup.server";

// Server markup kept per content (docs/decisions/465): rendered once for equal inputs, byte for
// byte what a fresh render gives, and rendered anew when any input changes. Counts, not timing.

type Card = { id: string; title: string; tech: string; start: string };
const Grid = ({ cards, back }: { cards: Card[]; back: string }) =>
  createElement(
    "ul",
    null,
    cards.map((c) =>
      createElement(
        "li",
        { key: c.id, "data-start": c.start },
        c.title,
        " ",
        c.tech,
        createElement("a", { href: back }),
      ),
    ),
  );

const week = (): { cards: Card[]; back: string } => ({
  cards: [
    { id: "v1", title: "Boiler service", tech: "Dana Diaz", start: "2026-06-16T09:00" },
    { id: "v2", title: "Replace water heater", tech: "Eli Moreau", start: "2026-06-17T13:00" },
  ],
  back: "/schedule?view=week&date=2026-06-16",
});

test("the same inputs render once and give a fresh render's bytes; any changed input renders anew", () => {
  let renders = 0;
  const keep = (inputs: { cards: Card[]; back: string }) =>
    keepMarkup("unit-grid", inputs, () => {
      renders++;
      return createElement(Grid, inputs);
    });
  const fresh = (inputs: { cards: Card[]; back: string }) => renderToString(createElement(Grid, inputs));

  const before = keptMarkupFigures();
  const first = keep(week());
  assert.equal(renders, 1);
  assert.equal(first, fresh(week()), "a kept render is the fresh render");
  for (let i = 0; i < 5; i++) assert.equal(keep(week()), first);
  assert.equal(renders, 1, "equal inputs (a new but equal object each time) are rendered once");
  const after = keptMarkupFigures();
  assert.equal(after.rendered - before.rendered, 1);
  assert.equal(after.reused - before.reused, 5);

  // A visit moved, a technician renamed, another return address: each a new render, each fresh.
  const changes: Array<(w: { cards: Card[]; back: string }) => void> = [
    (w) => (w.cards[0].start = "2026-06-18T09:00"),
    (w) => (w.cards[1].tech = "Eli Moreau-Laurent"),
    (w) => (w.cards[0].title = "Boiler service (annual)"),
    (w) => (w.back = "/schedule?view=week&date=2026-06-17"),
    (w) => w.cards.pop(),
  ];
  for (const change of changes) {
    const inputs = week();
    change(inputs);
    const n: number = renders;
    const out = keep(inputs);
    assert.equal(renders, n + 1, `a changed input renders anew: ${change}`);
    assert.notEqual(out, first);
    assert.equal(out, fresh(inputs));
  }
  // Back to the first content: the kept markup again, not a render.
  const n: number = renders;
  assert.equal(keep(week()), first);
  assert.equal(renders, n);
});

test("the key covers the piece's kind and every input; the kept markup is bounded", () => {
  assert.equal(markupKey("week-grid", week()), markupKey("week-grid", week()));
  assert.notEqual(markupKey("week-grid", week()), markupKey("day-grid", week()));
  const other = week();
  other.cards[1].id = "v3";
  assert.notEqual(markupKey("week-grid", week()), markupKey("week-grid", other));

  // Pieces of an eighth of the bound each: the process never keeps more than the bound.
  const big = "x".repeat(MARKUP_BYTES_KEPT / 8 - 100);
  for (let i = 0; i < 12; i++) keepMarkup("unit-big", { i }, () => createElement("p", null, big));
  const figures = keptMarkupFigures();
  assert.ok(figures.bytes <= MARKUP_BYTES_KEPT, `${figures.bytes} bytes kept`);
});

test("a page's kept pieces are written in place of their markers: the bytes of the page with the markup in it", () => {
  const page = keptPage("n0nce");
  const inputs = { ...week(), back: "/schedule?view=week&date=2026-06-15" };
  inputs.cards[0].title = "Réglage – chaudière";
  const grid = () => createElement(Grid, inputs);
  const fresh = renderToString(grid());
  const a = page.keep("unit-page", inputs, grid);
  const b = page.keep("unit-page-2", { x: 1 }, () => createElement("p", null, "second"));
  assert.doesNotMatch(a + b, /Boiler|second/, "the page's string holds markers, not the markup");
  // Text of a record that looks like a marker is escaped, and names no nonce.
  const html = `<p>&lt;!--kept 1 0--&gt; Café</p><div>${a}</div><section>${b}</section>`;
  const bytes = page.bytes(html);
  assert.ok(Buffer.isBuffer(bytes));
  assert.equal(
    bytes.toString(),
    `<p>&lt;!--kept 1 0--&gt; Café</p><div>${fresh}</div><section><p>second</p></section>`,
  );
  assert.deepEqual(
    bytes,
    Buffer.from(`<p>&lt;!--kept 1 0--&gt; Café</p><div>${fresh}</div><section><p>second</p></section>`),
  );
  // An edit of the page's text (the preload links' rewrite) leaves the kept bytes as they are.
  const edited = page.bytes(html, (text) => text.replaceAll("<p>", "<p class=x>")).toString();
  assert.ok(edited.startsWith("<p class=x>&lt;!--kept"));
  assert.ok(edited.includes(`<div>${fresh}</div>`) && edited.includes("<section><p class=x>second</p>") === false);
  // A page with no kept piece is its string's bytes.
  assert.deepEqual(keptPage("other").bytes("<p>é</p>"), Buffer.from("<p>é</p>"));
});

test("a page with kept pieces gzipped is one gzip member of the page's bytes, each piece deflated once", async () => {
  // docs/decisions/498-the-week-board-goes-out-gzipped-from-kept-blocks.md
  const inputs = { ...week(), back: "/schedule?view=week&date=2026-06-22" };
  inputs.cards[1].title = "Réglage – chaudière ".repeat(500);
  const grid = () => createElement(Grid, inputs);
  const deflates: number[] = [];
  const original = zlib.deflateRaw;
  // Counts the deflates of the kept piece (the large one): the first page's, none for the next.
  const counting = ((buf: Buffer, ...rest: unknown[]) => {
    deflates.push(buf.byteLength);
    return (original as (...a: unknown[]) => unknown)(buf, ...rest);
  }) as typeof zlib.deflateRaw;
  (zlib as { deflateRaw: typeof zlib.deflateRaw }).deflateRaw = counting;
  try {
    for (const nonce of ["first", "second"]) {
      const page = keptPage(nonce);
      assert.equal(page.kept, false);
      const html = `<!DOCTYPE html><p>Café ${nonce}</p><div>${page.keep("unit-gzip", inputs, grid)}</div><p>end</p>`;
      assert.equal(page.kept, true);
      const edit = (text: string) => text.replace("<p>end", "<p class=x>end");
      const gz = await page.gzip(html, edit);
      assert.deepEqual(gz.subarray(0, 3), Buffer.from([0x1f, 0x8b, 8]), "a gzip member");
      assert.deepEqual(zlib.gunzipSync(gz), page.bytes(html, edit), "the page's bytes, byte for byte");
      assert.ok(gz.byteLength < page.bytes(html, edit).byteLength / 5, `${gz.byteLength} bytes gzipped`);
    }
  } finally {
    (zlib as { deflateRaw: typeof zlib.deflateRaw }).deflateRaw = original;
  }
  const big = deflates.filter((n) => n > 10_000);
  assert.equal(big.length, 1, `the kept piece is deflated once for both pages: ${deflates.join(", ")}`);
  // A page with no piece: the last (final) block alone is still a whole gzip member.
  const plain = keptPage("plain");
  assert.equal(zlib.gunzipSync(await plain.gzip("<p>é</p>")).toString(), "<p>é</p>");
});
