// Reading an import upload (POST /import-data/preview) as a stream.
//
// The multipart body is parsed as it arrives by busboy (a maintained streaming parser); the
// file part goes straight into the CSV parser, chunk by chunk, so a 32 MiB file is never held
// twice and a file over the limits is refused as soon as the limit is passed. A file error
// stops the read at once. docs/decisions/072, 110.
import type { Readable } from "node:stream";
import busboy from "busboy";
import { AppError } from "~/utils/app-error";
import { checkContentLength, LIMITS, readForm } from "./body.server";

/** What the parser made of the file: its analysis, or a file error (both from the service). */
export type Analyse<R> = (type: string, input: AsyncIterable<Uint8Array> | Buffer | string) => Promise<R>;

export interface ImportUpload<R> {
  fields: Record<string, string>;
  /** The type the file was read as (the `type` field, else the URL's `?type=`). */
  type: string | null;
  file: { name: string | null; bytes: number; result: R } | null;
}

const FIELD_LIMIT = 4 * 1024;
// After reading stops (an answer is ready, or the body is over its limit), at most this many
// bytes of the body are read and thrown away, so the client finishes sending and reads the
// answer; past it the connection is cut.
const DRAIN_LIMIT = 4 * LIMITS.importMultipart;
const fileTooLarge = () =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    `The file is larger than ${LIMITS.importFile / 1024 / 1024} MiB. Split it into smaller files and import them one after the other.`,
  );

class BodyTooLarge extends Error {}
class Unreadable extends Error {}

/** A part as busboy hands it over: a text field whole, a file part as a stream. */
type Part =
  | { kind: "field"; name: string; value: string; truncated: boolean }
  | { kind: "file"; name: string; filename: string | null; stream: Readable };

/**
 * The parts of a multipart body, in order, pulled one by one. The body is fed to busboy under
 * a byte limit, with backpressure: a file part that is not being read holds the body back.
 * `stop()` ends the parse and reads what is left of the body (up to DRAIN_LIMIT) and drops
 * it, rather than cancelling it: a cancelled request closes the connection under the client,
 * which then never sees the 413 or the page with the message.
 */
function multipartParts(request: Request, limit: number) {
  const queue: Part[] = [];
  let failure: Error | null = null;
  let finished = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const fail = (error: Error) => {
    failure ??= error;
    notify();
  };

  const parser = busboy({
    headers: { "content-type": request.headers.get("content-type") ?? "" },
    // The pasted `csv` field may be as large as a file; other fields are checked below.
    limits: { fieldSize: LIMITS.importFile + 1 },
    // Browsers send file names as UTF-8.
    defParamCharset: "utf8",
  });
  parser.on("field", (name, value, info) => {
    queue.push({ kind: "field", name, value, truncated: info.valueTruncated });
    notify();
  });
  parser.on("file", (name, stream, info) => {
    // Browsers encode a quote in a file name as %22 (busboy keeps only the base name).
    const filename = info.filename ? info.filename.replace(/%22/g, '"') : null;
    queue.push({ kind: "file", name, filename, stream });
    notify();
  });
  parser.on("close", () => {
    finished = true;
    notify();
  });
  parser.on("error", (error) =>
    fail(error instanceof BodyTooLarge || error instanceof Unreadable ? error : new Unreadable(String(error))),
  );

  let stopped = false;
  let unblock: (() => void) | null = null;
  const reader = request.body!.getReader();
  void (async () => {
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (stopped) {
          if (size > DRAIN_LIMIT) return void (await reader.cancel());
          continue;
        }
        if (size > limit) {
          // Also ends a file part being read, with this error.
          stopped = true;
          parser.destroy(new BodyTooLarge());
          continue;
        }
        if (!parser.write(value)) {
          await new Promise<void>((resolve) => {
            unblock = resolve;
            parser.once("drain", resolve);
          });
          unblock = null;
        }
      }
      if (!stopped && !failure) parser.end();
    } catch {
      // The client went away.
      parser.destroy(new Unreadable("the request was aborted"));
    }
  })();

  const parts: AsyncIterable<Part> = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (failure) throw failure;
        const part = queue.shift();
        if (part) {
          yield part;
          // What the reader left of a file part is skipped, so the parse goes on.
          if (part.kind === "file") part.stream.resume();
          continue;
        }
        if (finished) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    unblock?.();
    if (!parser.destroyed) parser.destroy();
  };
  return { parts, stop, failure: () => failure };
}

/** A file part's bytes; a reader that stops early leaves the stream open (the rest is skipped). */
function chunksOf(stream: Readable): AsyncIterable<Uint8Array> {
  return {
    async *[Symbol.asyncIterator]() {
      for await (const chunk of stream.iterator({ destroyOnReturn: false })) yield chunk as Uint8Array;
    },
  };
}

/** A text field's value as chunks (none when empty), read like a file part. */
function textChunks(value: string): AsyncIterable<Uint8Array> {
  return {
    async *[Symbol.asyncIterator]() {
      if (value !== "") yield Buffer.from(value);
    },
  };
}

/** The first chunk of a part (null when it is empty) and an iterable of the whole part. */
async function peek(data: AsyncIterable<Uint8Array>): Promise<AsyncIterable<Uint8Array> | null> {
  const it = data[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return null;
  return {
    async *[Symbol.asyncIterator]() {
      yield first.value;
      for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    },
  };
}

async function readText(data: AsyncIterable<Uint8Array>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += chunk.byteLength;
    if (size > limit) throw new AppError("BAD_REQUEST", "A form field is too long.");
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function isBlank(data: AsyncIterable<Uint8Array>): Promise<boolean> {
  let blank = true;
  for await (const chunk of data) if (blank && Buffer.from(chunk).toString("latin1").trim() !== "") blank = false;
  return blank;
}

function counted(data: AsyncIterable<Uint8Array>, counter: { bytes: number }): AsyncIterable<Uint8Array> {
  return {
    async *[Symbol.asyncIterator]() {
      for await (const chunk of data) {
        counter.bytes += chunk.byteLength;
        yield chunk;
      }
    },
  };
}

type Options<R> = {
  typeFromUrl: string | null;
  analyse: Analyse<R>;
  isFileError: (r: R) => boolean;
  isType: (t: string) => boolean;
};

/** Pasted text sent url-encoded (a script, a plain form): small enough to read whole. */
async function readUrlEncoded<R>(request: Request, opts: Options<R>): Promise<ImportUpload<R>> {
  const form = await readForm(request, LIMITS.importMultipart);
  const fields = Object.fromEntries([...form].filter(([k, v]) => k !== "csv" && typeof v === "string")) as Record<
    string,
    string
  >;
  const type = fields.type || opts.typeFromUrl;
  const csv = form.get("csv");
  if (!type || !opts.isType(type) || typeof csv !== "string" || csv.trim() === "")
    return { fields, type: type ?? null, file: null };
  return { fields, type, file: { name: null, bytes: Buffer.byteLength(csv), result: await opts.analyse(type, csv) } };
}

/**
 * Reads `_csrf`, `type` and the file (`file`, or pasted text in `csv`) of an import upload.
 * Stops at the first file error (`isFileError`). Throws AppError 400 for a body that cannot be
 * read, 413 for one over the limit.
 */
export async function readImportUpload<R>(request: Request, opts: Options<R>): Promise<ImportUpload<R>> {
  const contentType = request.headers.get("content-type");
  if (contentType?.startsWith("application/x-www-form-urlencoded")) return readUrlEncoded(request, opts);
  if (!/^multipart\/form-data\s*;/i.test(contentType ?? "") || !request.body) {
    throw new AppError("BAD_REQUEST", "Send the file as a form upload (multipart/form-data).");
  }
  try {
    checkContentLength(request, LIMITS.importMultipart);
  } catch {
    throw fileTooLarge();
  }
  let upload: ReturnType<typeof multipartParts>;
  try {
    upload = multipartParts(request, LIMITS.importMultipart);
  } catch {
    // busboy refuses a content type without a boundary.
    throw new AppError("BAD_REQUEST", "Send the file as a form upload (multipart/form-data).");
  }

  const fields: Record<string, string> = {};
  const typeNow = () => fields.type || opts.typeFromUrl;
  let file: ImportUpload<R>["file"] = null;
  let readAs: string | null = null;
  let pending: { name: string | null; chunks: Buffer[] } | null = null;
  try {
    for await (const part of upload.parts) {
      const data: AsyncIterable<Uint8Array> = part.kind === "file" ? chunksOf(part.stream) : textChunks(part.value);
      if (part.name !== "file" && part.name !== "csv") {
        fields[part.name] = await readText(data, FIELD_LIMIT);
        continue;
      }
      if (part.kind === "field" && part.truncated) throw fileTooLarge();
      if (file || pending) {
        if (await isBlank(data)) continue;
        throw new AppError("BAD_REQUEST", "Choose a file or paste CSV text, not both.");
      }
      const name = part.kind === "file" && part.name === "file" ? part.filename : null;
      // No file chosen (an empty part without a name) or nothing pasted: not a source. A chosen
      // file with no bytes is one, and the parser says it is empty.
      const source = await peek(data);
      if (!source && !name) continue;
      const type = typeNow();
      if (type && !opts.isType(type)) throw new AppError("BAD_REQUEST", `"${type}" is not an import type.`);
      if (!type) {
        // The type comes after the file in this body: keep the file (under the body limit) until then.
        pending = { name, chunks: [] };
        if (source) for await (const chunk of source) pending.chunks.push(Buffer.from(chunk));
        continue;
      }
      readAs = type;
      const counter = { bytes: 0 };
      const result = await opts.analyse(type, source ? counted(source, counter) : Buffer.alloc(0));
      file = { name, bytes: counter.bytes, result };
      if (opts.isFileError(result)) return { fields, type, file };
    }
  } catch (thrown) {
    // A stopped parse fails what was reading it: the body's own failure is the cause.
    const error = upload.failure() ?? thrown;
    if (error instanceof BodyTooLarge || (error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE"))
      throw fileTooLarge();
    if (error instanceof AppError) throw error;
    throw new AppError("BAD_REQUEST", "The upload could not be read. Please try again.");
  } finally {
    upload.stop();
  }
  const type = typeNow();
  if (readAs && type !== readAs)
    throw new AppError("BAD_REQUEST", `The file was sent for "${readAs}" but the form says "${type}".`);
  if (pending && type && opts.isType(type)) {
    const { name, chunks: parts } = pending as { name: string | null; chunks: Buffer[] };
    const bytes = Buffer.concat(parts);
    file = { name, bytes: bytes.byteLength, result: await opts.analyse(type, bytes) };
  }
  return { fields, type, file };
}
