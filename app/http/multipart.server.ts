// A streaming multipart/form-data reader (RFC 7578) for uploads that are parsed while they
// arrive. The boundary is found with Buffer.indexOf (native), so a 10 MiB file costs a few
// milliseconds here; the general-purpose parser Remix ships searches byte by byte in JS and
// took a third of a second for the same file (docs/decisions/072).

export interface MultipartPart {
  name: string;
  /** Set for a file input (an empty string when no file was chosen). Only the base name. */
  filename?: string;
  contentType?: string;
  /** The part's bytes. Read it to the end, or leave it: the next part skips what is left. */
  data: AsyncIterable<Uint8Array>;
}

export class MultipartError extends Error {}

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");
const MAX_HEADER_BYTES = 16 * 1024;

/** The boundary of a `multipart/form-data; boundary=...` content type, or null. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : null;
}

/** A parameter of Content-Disposition. Browsers percent-encode quotes (%22), never backslash them. */
function headerParam(header: string, param: string): string | undefined {
  const m = new RegExp(`;\\s*${param}\\s*=\\s*(?:"([^"]*)"|([^;\\s]*))`, "i").exec(header);
  return m ? (m[1] ?? m[2]) : undefined;
}

function parseHeaders(block: string): { name: string; filename?: string; contentType?: string } {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon === -1) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "content-disposition") disposition = value;
    else if (key === "content-type") contentType = value;
  }
  if (!disposition || !/^form-data\b/i.test(disposition)) throw new MultipartError("A part has no form-data Content-Disposition.");
  const name = headerParam(disposition, "name");
  if (name === undefined) throw new MultipartError("A part has no name.");
  const filename = headerParam(disposition, "filename");
  // Browsers encode a quote in a file name as %22; keep only the base name (RFC 7578 4.2).
  return { name, filename: filename?.replace(/%22/g, '"').split(/[/\\]/).pop(), contentType };
}

/**
 * Yields the parts of a multipart body in order. Each part's data is streamed from the body;
 * nothing is buffered beyond the current chunk and a boundary's length.
 */
export async function* parseMultipart(body: AsyncIterable<Uint8Array>, boundary: string): AsyncGenerator<MultipartPart> {
  const source = body[Symbol.asyncIterator]();
  // The first boundary may lack the CRLF before it: start as if one had been read.
  let buf: Buffer = Buffer.from(CRLF);
  let ended = false;
  const delimiter = Buffer.from(`\r\n--${boundary}`);

  async function more(): Promise<boolean> {
    if (ended) return false;
    const next = await source.next();
    if (next.done) {
      ended = true;
      return false;
    }
    buf = buf.length ? Buffer.concat([buf, next.value]) : Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    return true;
  }

  /** Bytes up to the next delimiter, in pieces; the delimiter itself is consumed. */
  async function* untilDelimiter(): AsyncGenerator<Buffer> {
    for (;;) {
      const at = buf.indexOf(delimiter);
      if (at !== -1) {
        if (at > 0) yield buf.subarray(0, at);
        buf = buf.subarray(at + delimiter.length);
        return;
      }
      // Keep a tail that may be the start of the delimiter; hand out the rest.
      const safe = buf.length - (delimiter.length - 1);
      if (safe > 0) {
        const piece = buf.subarray(0, safe);
        buf = buf.subarray(safe);
        yield piece;
      }
      if (!(await more())) throw new MultipartError("The upload ended in the middle of a part.");
    }
  }

  // The preamble, before the first boundary.
  for await (const _ of untilDelimiter()) void _;

  for (;;) {
    while (buf.length < 2) if (!(await more())) throw new MultipartError("The upload ended after a boundary.");
    if (buf[0] === 0x2d && buf[1] === 0x2d) return; // "--": the closing boundary
    let headerEnd = buf.indexOf(HEADER_END);
    while (headerEnd === -1) {
      if (buf.length > MAX_HEADER_BYTES) throw new MultipartError("A part's headers are too long.");
      if (!(await more())) throw new MultipartError("The upload ended in a part's headers.");
      headerEnd = buf.indexOf(HEADER_END);
    }
    // After the boundary: optional whitespace, CRLF, then the headers.
    const lineEnd = buf.indexOf(CRLF);
    const headers = parseHeaders(buf.subarray(lineEnd + 2, headerEnd + 2).toString("utf8"));
    buf = buf.subarray(headerEnd + HEADER_END.length);

    const data = untilDelimiter();
    let done = false;
    // Read `data` by hand: a reader that stops early must not close it (the rest is skipped below).
    const tracked: AsyncIterable<Uint8Array> = {
      async *[Symbol.asyncIterator]() {
        for (let next = await data.next(); !next.done; next = await data.next()) yield next.value;
        done = true;
      },
    };
    yield { ...headers, data: tracked };
    if (!done) for await (const _ of data) void _; // what the reader left of this part
  }
}
