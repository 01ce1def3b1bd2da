// The fonts every PDF embeds (docs/decisions/235-pdf-fonts-and-tags.md): Noto Sans (Latin,
// Greek, Cyrillic, Vietnamese) in regular, bold and italic, and Noto Sans SC (Chinese, Japanese
// kana, CJK punctuation) for what Noto Sans lacks. Both are TrueType
// files shipped by npm packages; PDFKit embeds only the glyphs a document uses (a subset).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";

export type FontStyle = "regular" | "bold" | "italic";
export type FontName = "Sans" | "Sans-Bold" | "Sans-Italic" | "CJK" | "CJK-Bold";

const FILES: Record<FontName, [pkg: string, file: string]> = {
  Sans: ["@expo-google-fonts/noto-sans", "400Regular/NotoSans_400Regular.ttf"],
  "Sans-Bold": ["@expo-google-fonts/noto-sans", "700Bold/NotoSans_700Bold.ttf"],
  "Sans-Italic": ["@expo-google-fonts/noto-sans", "400Regular_Italic/NotoSans_400Regular_Italic.ttf"],
  CJK: ["@expo-google-fonts/noto-sans-sc", "400Regular/NotoSansSC_400Regular.ttf"],
  "CJK-Bold": ["@expo-google-fonts/noto-sans-sc", "700Bold/NotoSansSC_700Bold.ttf"],
};
const PRIMARY: Record<FontStyle, FontName> = { regular: "Sans", bold: "Sans-Bold", italic: "Sans-Italic" };
const FALLBACK: Record<FontStyle, FontName> = { regular: "CJK", bold: "CJK-Bold", italic: "CJK" };

const require = createRequire(import.meta.url);
const bytes = new Map<FontName, Buffer>();
const faces = new Map<FontName, fontkit.Font>();

/** The font file's bytes, read once per process. */
function fontBytes(name: FontName): Buffer {
  let b = bytes.get(name);
  if (!b) {
    const [pkg, file] = FILES[name];
    b = fs.readFileSync(path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file));
    bytes.set(name, b);
  }
  return b;
}

/** The font as fontkit parsed it, once per process; never changed by this module. */
function face(name: FontName): fontkit.Font {
  let f = faces.get(name);
  if (!f) {
    f = fontkit.create(fontBytes(name)) as fontkit.Font;
    faces.set(name, f);
  }
  return f;
}

type GlyphRun = ReturnType<fontkit.Font["layout"]>;
type Features = Parameters<fontkit.Font["layout"]>[1];
const LAYOUTS_KEPT = 20_000;
const shapers = new Map<FontName, fontkit.Font>();

/**
 * Text is shaped without the "ccmp" feature: Noto Sans's would draw a letter such as "ị" as
 * "i" plus a separate dot glyph that maps to no character, so the PDF's text would read
 * "Thi" where the page shows "Thị". Documents NFC-normalise their text first, so precomposed
 * letters are used.
 */
const SHAPING_FEATURES = { ccmp: false } as unknown as Features;

/**
 * The font PDFKit is given: an object of our own whose prototype is fontkit's font (so every
 * metric, glyph and the subsetting are fontkit's) with one own method, `layout`, which shapes
 * with the document features above and keeps the font's shaping of a text (its glyphs and
 * their positions) per process. PDFKit accepts any font object with a `layout` method; given
 * no features of its own, it shapes word by word and keeps each word's shaping for the
 * document, and this keeps it across documents: the OpenType shaping was most of a document's
 * time (docs/decisions/490-pdf-shaping-kept-by-our-own-font-object.md). PDFKit scales the
 * positions it is given in place, so each call gets its own copy of the positions (the glyphs
 * are the font's own). fontkit's font object itself is left as fontkit made it.
 */
export function shapingFont(name: FontName): fontkit.Font {
  let shaper = shapers.get(name);
  if (!shaper) {
    const font = face(name);
    const kept = new Map<string, GlyphRun>();
    const layout = (...args: unknown[]): GlyphRun => {
      const [text, features] = args;
      if (args.length > 2 || typeof text !== "string" || features !== undefined)
        return (font.layout as (...a: unknown[]) => GlyphRun)(...args);
      let run = kept.get(text);
      if (!run) {
        run = font.layout(text, SHAPING_FEATURES);
        if (kept.size >= LAYOUTS_KEPT) kept.clear();
        kept.set(text, run);
      }
      const copy = Object.create(Object.getPrototypeOf(run) as object) as GlyphRun;
      Object.assign(copy, run, { glyphs: [...run.glyphs], positions: run.positions.map((p) => ({ ...p })) });
      return copy;
    };
    shaper = Object.create(font, { layout: { value: layout } }) as fontkit.Font;
    shapers.set(name, shaper);
  }
  return shaper;
}

/**
 * Every font a document may use (only the used ones are embedded). PDFKit takes the parsed font
 * object as well as its bytes: parsed once per process, not per document (reading Noto Sans's
 * layout tables again for each PDF cost more than the rest of the document).
 */
export function registerFonts(pdf: PDFKit.PDFDocument): void {
  for (const name of Object.keys(FILES) as FontName[])
    pdf.registerFont(name, shapingFont(name) as unknown as PDFKit.Mixins.PDFFontSource);
}

export type Run = { font: FontName; text: string };

/**
 * `text` cut into runs of one font each: Noto Sans where it has the character, else Noto Sans
 * SC where that has it, else Noto Sans (which prints its "missing" box, never another character).
 */
export function fontRuns(text: string, style: FontStyle): Run[] {
  const primary = face(PRIMARY[style]);
  const runs: Run[] = [];
  let fallback: fontkit.Font | null = null;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    let font = PRIMARY[style];
    if (!primary.hasGlyphForCodePoint(cp)) {
      fallback ??= face(FALLBACK[style]);
      if (fallback.hasGlyphForCodePoint(cp)) font = FALLBACK[style];
    }
    const last = runs[runs.length - 1];
    if (last && last.font === font) last.text += ch;
    else runs.push({ font, text: ch });
  }
  return runs;
}
