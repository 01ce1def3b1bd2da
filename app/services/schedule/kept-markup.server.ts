// Server-rendered markup kept per process by what it shows
// (docs/decisions/465-week-grid-rendered-once-per-content.md). A piece such as the week
// board's grid is a pure function of the data handed to its render: the key is a hash of
// exactly that (and of the piece's kind), so any change to what it would show (a visit moved,
// a technician renamed, another viewer's role or rows, another week or return address) is a
// new key, and nothing is ever served that a render would not produce now.
import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { renderToString } from "react-dom/server";
import type { KeepMarkup } from "~/components/kept-markup";
import { KeptBySize } from "~/utils/kept-by-size";

/** The bytes kept at most per process (least recently used out first). */
export const MARKUP_BYTES_KEPT = 24 * 1024 * 1024;

/**
 * A kept piece: its UTF-8 bytes and, once a page with it went out gzipped, its raw deflate
 * blocks (made once per piece, not per request). Its size counts a quarter of its bytes more for
 * the blocks (markup of repeated cards deflates to about a sixth).
 */
type Piece = { bytes: Buffer; deflated?: Promise<Buffer> };

declare global {
  var __keptMarkupPieces: KeptBySize<Piece> | undefined;
}
const kept = () =>
  (globalThis.__keptMarkupPieces ??= new KeptBySize<Piece>(
    MARKUP_BYTES_KEPT,
    (p) => p.bytes.byteLength + Math.ceil(p.bytes.byteLength / 4),
  ));

/**
 * Raw deflate blocks of `bytes`. `last` ends the stream (its final block); otherwise the blocks
 * end with a sync flush, on a byte boundary and not final, so the blocks of what follows (each
 * deflated on its own, with no window shared across) continue the same stream.
 */
const deflated = (bytes: Buffer, last: boolean) =>
  new Promise<Buffer>((resolve, reject) =>
    zlib.deflateRaw(bytes, { finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH }, (e, out) =>
      e ? reject(e) : resolve(out),
    ),
  );
/** A gzip member's header: deflate, no flags, no time, OS unix (RFC 1952 2.3). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);

/** The hash of a piece's kind and of everything its render reads. */
export const markupKey = (kind: string, inputs: unknown) =>
  createHash("sha256").update(kind).update("\u0000").update(JSON.stringify(inputs)).digest("base64url");

/** The kept markup for these inputs as UTF-8, or `render()`'s, kept for the next request. */
function keptPiece(kind: string, inputs: unknown, render: () => React.ReactElement): Piece {
  const key = markupKey(kind, inputs);
  return kept().get(key) ?? kept().keep(key, { bytes: Buffer.from(renderToString(render())) });
}

/** The kept markup for these inputs as UTF-8, or `render()`'s, kept for the next request. */
export const keptMarkupBytes = (kind: string, inputs: unknown, render: () => React.ReactElement): Buffer =>
  keptPiece(kind, inputs, render).bytes;

/** The kept markup for these inputs, or `render()`'s, kept for the next request. */
export const keepMarkup: KeepMarkup = (kind, inputs, render) => keptMarkupBytes(kind, inputs, render).toString();

/**
 * One page's keeper. A kept piece goes into the page's string as a marker (a comment with the
 * page's nonce, which no escaped text of a record can spell), and `bytes` writes the page with
 * each piece's kept bytes in its marker's place: the kept markup (most of the week board's
 * page) is neither copied into the page's string nor encoded again on every request
 * (docs/decisions/476-the-week-board-sends-its-data-short.md). The bytes are the same as those
 * of the page with the markup in place. `gzip` writes the same bytes gzipped, each kept piece
 * from its blocks deflated once, so a request deflates only the page's own text
 * (docs/decisions/498-the-week-board-goes-out-gzipped-from-kept-blocks.md).
 */
export function keptPage(nonce: string): {
  keep: KeepMarkup;
  /** Whether a kept piece was asked for (the page has pieces to fill). */
  readonly kept: boolean;
  bytes: (html: string, edit?: (text: string) => string) => Buffer<ArrayBuffer>;
  gzip: (html: string, edit?: (text: string) => string) => Promise<Buffer<ArrayBuffer>>;
} {
  const pieces: Piece[] = [];
  const marker = (i: number) => `<!--kept ${nonce} ${i}-->`;
  /** The page as runs of its own text (edited, as bytes) with the kept pieces between; text last. */
  const runs = (html: string, edit: (text: string) => string): Array<Buffer | Piece> => {
    const out: Array<Buffer | Piece> = [];
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
    return out;
  };
  const bytesOf = (run: Buffer | Piece) => (Buffer.isBuffer(run) ? run : run.bytes);
  return {
    keep: (kind, inputs, render) => marker(pieces.push(keptPiece(kind, inputs, render)) - 1),
    get kept() {
      return pieces.length > 0;
    },
    /** The page's bytes; `edit` rewrites each run of the page's own text between the pieces. */
    bytes(html, edit = (text) => text) {
      if (!pieces.length) return Buffer.from(edit(html));
      // A new buffer of its own (never a shared one), as a response body takes.
      return Buffer.concat(runs(html, edit).map(bytesOf)) as Buffer<ArrayBuffer>;
    },
    /**
     * The same bytes as one gzip member (RFC 1952): the page's text deflated now, each kept
     * piece's blocks deflated once for the process, one deflate stream with the page's CRC-32
     * and length after it.
     */
    async gzip(html, edit = (text) => text) {
      const all = runs(html, edit);
      const blocks = await Promise.all(
        all.map((run, i) =>
          Buffer.isBuffer(run) ? deflated(run, i === all.length - 1) : (run.deflated ??= deflated(run.bytes, false)),
        ),
      );
      let crc = 0;
      let length = 0;
      for (const run of all) {
        const b = bytesOf(run);
        crc = zlib.crc32(b, crc);
        length += b.byteLength;
      }
      const trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(crc >>> 0, 0);
      trailer.writeUInt32LE(length % 2 ** 32, 4);
      return Buffer.concat([GZIP_HEADER, ...blocks, trailer]) as Buffer<ArrayBuffer>;
    },
  };
}

/** How many pieces this process rendered and how many it served again (the health check's figures). */
export const keptMarkupFigures = () => {
  const k = kept();
  return { kept: k.count, bytes: k.size, rendered: k.made, reused: k.reused };
};
