import assert from "node:assert/strict";
import { test } from "node:test";
import PDFDocument from "pdfkit";
import { registerFonts, shapingFont, type FontName } from "../../app/services/documents/pdf-fonts.server";

const NAMES: FontName[] = ["Sans", "Sans-Bold", "Sans-Italic", "CJK", "CJK-Bold"];
const TEXT = "Zoë Ærøskøbing — Nguyễn Văn Tiến, Ψυχή, Иван, 王小明 ffi";

type Run = { glyphs: { id: number }[]; positions: Record<string, number>[] };
const shape = (font: { layout: (t: string) => unknown }, text: string) => font.layout(text) as Run;

test("the fonts PDFKit is given keep their shaping in an object of our own; fontkit's font is left as fontkit made it", () => {
  for (const name of NAMES) {
    const shaper = shapingFont(name);
    assert.equal(shapingFont(name), shaper, `${name}: one shaping font per process`);
    const fontkitFont = Object.getPrototypeOf(shaper) as object;
    assert.ok(Object.hasOwn(shaper, "layout"), `${name}: the kept layout is the wrapper's own method`);
    assert.equal(Object.hasOwn(fontkitFont, "layout"), false, `${name}: fontkit's font object has no replaced method`);
    assert.equal(
      (fontkitFont as { layout: unknown }).layout,
      (Object.getPrototypeOf(fontkitFont) as { layout: unknown }).layout,
      `${name}: fontkit's font shapes with fontkit's own layout`,
    );
  }
});

test("a kept shaping equals fontkit's fresh one, and each call gets positions of its own", () => {
  for (const name of NAMES) {
    const shaper = shapingFont(name);
    const fontkitFont = Object.getPrototypeOf(shaper) as { layout: (t: string) => unknown };
    const fresh = shape(fontkitFont, TEXT);
    const first = shape(shaper, TEXT);
    const second = shape(shaper, TEXT);
    assert.deepEqual(
      first.glyphs.map((g) => g.id),
      fresh.glyphs.map((g) => g.id),
    );
    const plain = (run: Run) => run.positions.map((p) => ({ ...p }));
    assert.deepEqual(plain(first), plain(fresh));
    for (const p of first.positions) p.xAdvance *= 1000; // PDFKit scales the positions it is given in place
    assert.deepEqual(plain(second), plain(fresh), `${name}: a caller's scaling never reaches the next caller`);
    assert.notEqual(first.positions, second.positions);
  }
});

test("PDFKit embeds the shaping fonts: the same document twice is the same bytes", async () => {
  const render = () =>
    new Promise<Buffer>((resolve) => {
      const pdf = new PDFDocument({ compress: false, info: { CreationDate: new Date(0) } });
      registerFonts(pdf);
      const chunks: Buffer[] = [];
      pdf.on("data", (c: Buffer) => chunks.push(c));
      pdf.on("end", () => resolve(Buffer.concat(chunks)));
      pdf.font("Sans").text(`${TEXT} `.repeat(20), { width: 300 });
      pdf.font("CJK").text("王小明 李华 ");
      pdf.end();
    });
  const [a, b] = [await render(), await render()];
  assert.ok(a.length > 1000);
  assert.ok(a.includes("/FontFile2"), "the fonts are embedded (subset)");
  assert.equal(a.toString("latin1").replace(/\/ID \[.*?\]/, ""), b.toString("latin1").replace(/\/ID \[.*?\]/, ""));
});
