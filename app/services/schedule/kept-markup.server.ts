// Server-rendered markup kept per process by what it shows
// (docs/decisions/465-week-grid-rendered-once-per-content.md). A piece such as the week
// board's grid is a pure function of the data handed to its render: the key is a hash of
// exactly that (and of the piece's kind), so any change to what it would show (a visit moved,
// a technician renamed, another viewer's role or rows, another week or return address) is a
// new key, and nothing is ever served that a render would not produce now.
import { createHash } from "node:crypto";
import { renderToString } from "react-dom/server";
import type { KeepMarkup } from "~/components/kept-markup";
import { KeptBySize } from "~/utils/kept-by-size";

/** The bytes kept at most per process (least recently used out first). */
export const MARKUP_BYTES_KEPT = 24 * 1024 * 1024;

declare global {
  var __keptMarkup: KeptBySize<Buffer> | undefined;
}
const kept = () => (globalThis.__keptMarkup ??= new KeptBySize<Buffer>(MARKUP_BYTES_KEPT, (m) => m.byteLength));

/** The hash of a piece's kind and of everything its render reads. */
export const markupKey = (kind: string, inputs: unknown) =>
  createHash("sha256").update(kind).update("\u0000").update(JSON.stringify(inputs)).digest("base64url");

/** The kept markup for these inputs as UTF-8, or `render()`'s, kept for the next request. */
export function keptMarkupBytes(kind: string, inputs: unknown, render: () => React.ReactElement): Buffer {
  const key = markupKey(kind, inputs);
  return kept().get(key) ?? kept().keep(key, Buffer.from(renderToString(render())));
}

/** The kept markup for these inputs, or `render()`'s, kept for the next request. */
export const keepMarkup: KeepMarkup = (kind, inputs, render) => keptMarkupBytes(kind, inputs, render).toString();

/**
 * One page's keeper. A kept piece goes into the page's string as a marker (a comment with the
 * page's nonce, which no escaped text of a record can spell), and `bytes` writes the page with
 * each piece's kept bytes in its marker's place: the kept markup (most of the week board's
 * page) is neither copied into the page's string nor encoded again on every request
 * (docs/decisions/476-the-week-board-sends-its-data-short.md). The bytes are the same as those
 * of the page with the markup in place.
 */
export function keptPage(nonce: string): {
  keep: KeepMarkup;
  bytes: (html: string, edit?: (text: string) => string) => Buffer<ArrayBuffer>;
} {
  const pieces: Buffer[] = [];
  const marker = (i: number) => `<!--kept ${nonce} ${i}-->`;
  return {
    keep: (kind, inputs, render) => marker(pieces.push(keptMarkupBytes(kind, inputs, render)) - 1),
    /** The page's bytes; `edit` rewrites each run of the page's own text between the pieces. */
    bytes(html, edit = (text) => text) {
      if (!pieces.length) return Buffer.from(edit(html));
      const out: Buffer[] = [];
      let at = 0;
      pieces.forEach((piece, i) => {
        const m = marker(i);
        const found = html.indexOf(m, at);
        // A piece whose render was thrown away (not in the page) has no marker to fill.
        if (found < 0) return;
        out.push(Buffer.from(edit(html.slice(at, found))), piece);
        at = found + m.length;
      });
      out.push(Buffer.from(edit(html.slice(at))));
      // A new buffer of its own (never a shared one), as a response body takes.
      return Buffer.concat(out) as Buffer<ArrayBuffer>;
    },
  };
}

/** How many pieces this process rendered and how many it served again (the health check's figures). */
export const keptMarkupFigures = () => {
  const k = kept();
  return { kept: k.count, bytes: k.size, rendered: k.made, reused: k.reused };
};
