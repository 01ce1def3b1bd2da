import { AppError, validationFailed } from "~/utils/app-error";

export const KiB = 1024;
export const MiB = 1024 * KiB;

/** Request body limits. */
export const LIMITS = {
  // Every import file may be 32 MiB (IMPORT_LIMITS, docs/decisions/249); the parser stops at that limit.
  importFile: 32 * MiB,
  importMultipart: 32 * MiB + 64 * KiB,
  offlineSync: 1 * MiB,
  billingWebhook: 256 * KiB,
  form: 1 * MiB,
} as const;

// Connection: close, because the rest of the body may still be on its way (it is discarded).
export const tooLarge = (limit: number) =>
  new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${formatBytes(limit)}.`, {
    headers: { Connection: "close" },
  });

function formatBytes(n: number) {
  return n >= MiB ? `${n / MiB} MiB` : `${n / KiB} KiB`;
}

/** Refuses early on a declared Content-Length over the limit. */
export function checkContentLength(request: Request, limit: number) {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
}

/**
 * Reads the raw body, stopping (and refusing) as soon as it passes `limit`, so a large
 * body is never buffered whole.
 */
export async function readBodyLimited(request: Request, limit: number): Promise<Buffer> {
  checkContentLength(request, limit);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not cancelled: cancelling the body resets the connection and the client never reads
      // the 413. What is left is read and dropped once the answer is sent (scripts/serve-hooks.mjs).
      reader.releaseLock();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** Streams the body chunk by chunk under a limit (for imports, parsed while read). */
export async function* streamBodyLimited(request: Request, limit: number): AsyncGenerator<Uint8Array> {
  checkContentLength(request, limit);
  if (!request.body) return;
  const reader = request.body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > limit) throw tooLarge(limit);
      yield value;
    }
  } finally {
    // Not cancelled (see readBodyLimited).
    reader.releaseLock();
  }
}

/** A JSON body under a limit; malformed JSON is 400 BAD_REQUEST. */
export async function readJson(request: Request, limit: number): Promise<unknown> {
  const raw = await readBodyLimited(request, limit);
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid JSON.");
  }
}

/** A url-encoded or multipart form under a limit; a malformed body is 400 BAD_REQUEST. */
export async function readForm(request: Request, limit: number = LIMITS.form): Promise<FormData> {
  const raw = await readBodyLimited(request, limit);
  try {
    return await new Request(request.url, {
      method: "POST",
      headers: { "content-type": request.headers.get("content-type") ?? "application/x-www-form-urlencoded" },
      body: new Uint8Array(raw),
    }).formData();
  } catch {
    throw new AppError("BAD_REQUEST", "The form body could not be read.");
  }
}

export const NUL_MESSAGE = "This contains a character that cannot be stored (U+0000). Remove it and try again.";

/**
 * Text is normalised at the boundary: a form field holding U+0000 (which PostgreSQL
 * text cannot store) is refused beside that field with 422, before anything is written.
 */
export function assertNoNul(form: FormData) {
  const fields: Record<string, string[]> = {};
  for (const [name, value] of form)
    if (typeof value === "string" && value.includes("\u0000")) fields[name] = [NUL_MESSAGE];
  if (Object.keys(fields).length) throw validationFailed(fields);
}
