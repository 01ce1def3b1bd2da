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

/** The characters kept at most per process (least recently used out first). */
export const MARKUP_CHARS_KEPT = 24 * 1024 * 1024;

declare global {
  var __keptMarkup: KeptBySize<string> | undefined;
}
const kept = () => (globalThis.__keptMarkup ??= new KeptBySize<string>(MARKUP_CHARS_KEPT, (m) => m.length));

/** The hash of a piece's kind and of everything its render reads. */
export const markupKey = (kind: string, inputs: unknown) =>
  createHash("sha256").update(kind).update("\u0000").update(JSON.stringify(inputs)).digest("base64url");

/** The kept markup for these inputs, or `render()`'s, kept for the next request. */
export const keepMarkup: KeepMarkup = (kind, inputs, render) => {
  const key = markupKey(kind, inputs);
  return kept().get(key) ?? kept().keep(key, renderToString(render()));
};

/** How many pieces this process rendered and how many it served again (the health check's figures). */
export const keptMarkupFigures = () => {
  const k = kept();
  return { kept: k.count, chars: k.size, rendered: k.made, reused: k.reused };
};
