// Reading an import upload (POST /import-data/preview) as a stream (CONTRACT sections 5, 9).
//
// The multipart body is parsed as it arrives; the file part (or the pasted `csv` field) goes
// straight into the CSV parser, chunk by chunk, so a 10 MiB file is never held twice and a
// file over the limits is refused as soon as the limit is passed. A file error stops the read
// at once. docs/decisions/072.
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { AppError } from "~/utils/app-error";
import { checkContentLength, LIMITS, readForm, tooLarge } from "./body.server";

/** What the parser made of the file: its analysis, or a file error (both from the service). */
export type Analyse<R> = (type: string, input: AsyncIterable<Uint8Array> | Buffer | string) => Promise<R>;

export interface ImportUpload<R> {
  fields: Record<string, string>;
  /** The type the file was read as (the `type` field, else the URL's `?type=`). */
  type: string | null;
  file: { name: string | null; bytes: number; result: R } | null;
}

/** Thrown out of the multipart parser to stop reading: the analysis already says no. */
class StopReading<R> {
  constructor(readonly result: R) {}
}

const FIELD_LIMIT = 4 * 1024;
const fileTooLarge = () =>
  new AppError("PAYLOAD_TOO_LARGE", `The file is larger than ${LIMITS.importFile / 1024 / 1024} MiB. Split it into smaller files and import them one after the other.`);
const DRAIN_LIMIT = 4 * LIMITS.importMultipart;

/** Reads what is left of a body and drops it, up to a bound, then cancels. */
async function drainBody(reader: ReadableStreamDefaultReader<Uint8Array>) {
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
}

/**
 * The request body under a byte limit. When reading stops early (limit passed, file error),
 * `drain` reads the rest and drops it (up to a bound) rather than cancelling: a cancelled
 * request closes the connection under the client, which then never sees the 413 or the page.
 */
function limitedBody(request: Request, limit: number): { body: ReadableStream<Uint8Array>; drain: () => void } {
  const reader = request.body!.getReader();
  let draining = false;
  const drain = () => {
    if (!draining) void drainBody(reader);
    draining = true;
  };
  try {
    checkContentLength(request, limit);
  } catch (error) {
    drain();
    throw error;
  }
  let size = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        size += value.byteLength;
        if (size > limit) return controller.error(tooLarge(limit));
        controller.enqueue(value);
      },
    },
    { highWaterMark: 0 },
  );
  return { body, drain };
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
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += chunk.byteLength;
    if (size > limit) throw new AppError("BAD_REQUEST", "A form field is too long.");
    chunks.push(chunk);
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

/**
 * Reads `_csrf`, `type` and the file (`file`, or pasted text in `csv`) of an import upload.
 * `isFileError(result)` tells whether to stop reading at once. Throws AppError 400/413 for a
 * body that cannot be read or is too large.
 */
export async function readImportUpload<R>(
  request: Request,
  opts: { typeFromUrl: string | null; analyse: Analyse<R>; isFileError: (r: R) => boolean; isType: (t: string) => boolean },
): Promise<ImportUpload<R>> {
  const contentType = request.headers.get("content-type") ?? "";
  if (contentType.startsWith("application/x-www-form-urlencoded")) {
    // Pasted text without multipart (a script, a plain form): small enough to read whole.
    const form = await readForm(request, LIMITS.importMultipart);
    const fields = Object.fromEntries([...form].filter(([k, v]) => k !== "csv" && typeof v === "string")) as Record<string, string>;
    const type = fields.type || opts.typeFromUrl;
    const csv = form.get("csv");
    if (!type || !opts.isType(type) || typeof csv !== "string" || csv.trim() === "") return { fields, type: type ?? null, file: null };
    return { fields, type, file: { name: null, bytes: Buffer.byteLength(csv), result: await opts.analyse(type, csv) } };
  }
  if (!contentType.startsWith("multipart/form-data")) {
    throw new AppError("BAD_REQUEST", "Send the file as a form upload (multipart/form-data).");
  }
  if (!request.body) throw new AppError("BAD_REQUEST", "The upload is empty.");

  const fields: Record<string, string> = {};
  let file: ImportUpload<R>["file"] = null;
  let readAs: string | null = null;
  let pending: { name: string | null; chunks: Buffer[] } | null = null;
  const typeNow = () => fields.type || opts.typeFromUrl;

  const handler: UploadHandler = async (part) => {
    if (part.name !== "file" && part.name !== "csv") {
      fields[part.name] = await readText(part.data, FIELD_LIMIT);
      return undefined;
    }
    if (file || pending) {
      if (await isBlank(part.data)) return undefined;
      throw new AppError("BAD_REQUEST", "Choose a file or paste CSV text, not both.");
    }
    const name = part.name === "file" ? part.filename || null : null;
    // No file chosen (an empty part without a name) or nothing pasted: not a source. A chosen
    // file with no bytes is one, and the parser says it is empty.
    const data = await peek(part.data);
    if (!data && !name) return undefined;
    const type = typeNow();
    if (type && !opts.isType(type)) throw new AppError("BAD_REQUEST", `"${type}" is not an import type.`);
    if (!type) {
      // The type comes after the file in this body: keep the file (under the body limit) until then.
      pending = { name, chunks: [] };
      if (data) for await (const chunk of data) pending.chunks.push(Buffer.from(chunk));
      return undefined;
    }
    readAs = type;
    const counter = { bytes: 0 };
    const result = await opts.analyse(type, data ? counted(data, counter) : Buffer.alloc(0));
    file = { name, bytes: counter.bytes, result };
    if (opts.isFileError(result)) throw new StopReading(result);
    return undefined;
  };

  let stream: ReturnType<typeof limitedBody>;
  try {
    stream = limitedBody(request, LIMITS.importMultipart);
  } catch {
    throw fileTooLarge(); // a declared Content-Length over the limit: refused before reading
  }
  const { body, drain } = stream;
  try {
    await unstable_parseMultipartFormData(
      new Request(request.url, { method: "POST", headers: { "content-type": contentType }, body, duplex: "half" } as RequestInit),
      handler,
    );
  } catch (error) {
    if (error instanceof StopReading) return { fields, type: typeNow(), file };
    if (error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE") throw fileTooLarge();
    if (error instanceof AppError) throw error;
    throw new AppError("BAD_REQUEST", "The upload could not be read. Please try again.");
  } finally {
    drain();
  }
  const type = typeNow();
  if (readAs && type !== readAs) throw new AppError("BAD_REQUEST", `The file was sent for "${readAs}" but the form says "${type}".`);
  if (pending && type && opts.isType(type)) {
    const p = pending as { name: string | null; chunks: Buffer[] };
    const bytes = Buffer.concat(p.chunks);
    file = { name: p.name, bytes: bytes.byteLength, result: await opts.analyse(type, bytes) };
  }
  return { fields, type, file };
}
