// Reading an import upload (POST /import-data/preview) as a stream (CONTRACT sections 5, 9).
//
// The multipart body is parsed as it arrives; the file part (or the pasted `csv` field) goes
// straight into the CSV parser, chunk by chunk, so a 10 MiB file is never held twice and a
// file over the limits is refused as soon as the limit is passed. A file error stops the read
// at once. docs/decisions/072.
import { AppError } from "~/utils/app-error";
import { checkContentLength, LIMITS, readForm } from "./body.server";
import { multipartBoundary, parseMultipart } from "./multipart.server";

/** What the parser made of the file: its analysis, or a file error (both from the service). */
export type Analyse<R> = (type: string, input: AsyncIterable<Uint8Array> | Buffer | string) => Promise<R>;

export interface ImportUpload<R> {
  fields: Record<string, string>;
  /** The type the file was read as (the `type` field, else the URL's `?type=`). */
  type: string | null;
  file: { name: string | null; bytes: number; result: R } | null;
}

const FIELD_LIMIT = 4 * 1024;
const DRAIN_LIMIT = 4 * LIMITS.importMultipart;
const fileTooLarge = () =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    `The file is larger than ${LIMITS.importFile / 1024 / 1024} MiB. Split it into smaller files and import them one after the other.`,
  );

class BodyTooLarge extends Error {}

/**
 * The request body as chunks, under a byte limit. `drain` reads what is left and drops it (up
 * to a bound) rather than cancelling: a cancelled request closes the connection under the
 * client, which then never sees the 413 or the page with the message.
 */
function limitedBody(request: Request, limit: number) {
  const reader = request.body!.getReader();
  let draining = false;
  const drain = () => {
    if (draining) return;
    draining = true;
    void (async () => {
      try {
        for (let drained = 0; drained < DRAIN_LIMIT; ) {
          const { done, value } = await reader.read();
          if (done) return;
          drained += value.byteLength;
        }
        await reader.cancel();
      } catch {
        /* the client went away */
      }
    })();
  };
  const chunks: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        size += value.byteLength;
        if (size > limit) throw new BodyTooLarge();
        yield value;
      }
    },
  };
  return { chunks, drain };
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

type Options<R> = { typeFromUrl: string | null; analyse: Analyse<R>; isFileError: (r: R) => boolean; isType: (t: string) => boolean };

/** Pasted text sent url-encoded (a script, a plain form): small enough to read whole. */
async function readUrlEncoded<R>(request: Request, opts: Options<R>): Promise<ImportUpload<R>> {
  const form = await readForm(request, LIMITS.importMultipart);
  const fields = Object.fromEntries([...form].filter(([k, v]) => k !== "csv" && typeof v === "string")) as Record<string, string>;
  const type = fields.type || opts.typeFromUrl;
  const csv = form.get("csv");
  if (!type || !opts.isType(type) || typeof csv !== "string" || csv.trim() === "") return { fields, type: type ?? null, file: null };
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
  const boundary = multipartBoundary(contentType);
  if (!boundary || !request.body) throw new AppError("BAD_REQUEST", "Send the file as a form upload (multipart/form-data).");

  const { chunks, drain } = limitedBody(request, LIMITS.importMultipart);
  const fields: Record<string, string> = {};
  const typeNow = () => fields.type || opts.typeFromUrl;
  let file: ImportUpload<R>["file"] = null;
  let readAs: string | null = null;
  let pending: { name: string | null; chunks: Buffer[] } | null = null;
  try {
    checkContentLength(request, LIMITS.importMultipart);
    for await (const part of parseMultipart(chunks, boundary)) {
      if (part.name !== "file" && part.name !== "csv") {
        fields[part.name] = await readText(part.data, FIELD_LIMIT);
        continue;
      }
      if (file || pending) {
        if (await isBlank(part.data)) continue;
        throw new AppError("BAD_REQUEST", "Choose a file or paste CSV text, not both.");
      }
      const name = part.name === "file" ? part.filename || null : null;
      // No file chosen (an empty part without a name) or nothing pasted: not a source. A chosen
      // file with no bytes is one, and the parser says it is empty.
      const data = await peek(part.data);
      if (!data && !name) continue;
      const type = typeNow();
      if (type && !opts.isType(type)) throw new AppError("BAD_REQUEST", `"${type}" is not an import type.`);
      if (!type) {
        // The type comes after the file in this body: keep the file (under the body limit) until then.
        pending = { name, chunks: [] };
        if (data) for await (const chunk of data) pending.chunks.push(Buffer.from(chunk));
        continue;
      }
      readAs = type;
      const counter = { bytes: 0 };
      const result = await opts.analyse(type, data ? counted(data, counter) : Buffer.alloc(0));
      file = { name, bytes: counter.bytes, result };
      if (opts.isFileError(result)) return { fields, type, file };
    }
  } catch (error) {
    if (error instanceof BodyTooLarge || (error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE")) throw fileTooLarge();
    if (error instanceof AppError) throw error;
    throw new AppError("BAD_REQUEST", "The upload could not be read. Please try again.");
  } finally {
    drain();
  }
  const type = typeNow();
  if (readAs && type !== readAs) throw new AppError("BAD_REQUEST", `The file was sent for "${readAs}" but the form says "${type}".`);
  if (pending && type && opts.isType(type)) {
    const { name, chunks: parts } = pending as { name: string | null; chunks: Buffer[] };
    const bytes = Buffer.concat(parts);
    file = { name, bytes: bytes.byteLength, result: await opts.analyse(type, bytes) };
  }
  return { fields, type, file };
}
