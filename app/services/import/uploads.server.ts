// The mapping step (docs/decisions/152-153): a file whose headers are not
// all matched with certainty is kept in import_uploads with its headers and first rows apart;
// the step's page reads only those. Choosing the mapping analyses the kept file, stores the
// preview as any other, remembers the mapping for the same headers, and drops the upload.
import { inTenant, one, rows } from "../../../db/index";
import { Tenant } from "../../../db/models/index";
import { isUuid } from "~/utils/crypto.server";
import { notFound, validationFailed } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import type { ImportType } from "./columns";
import { peekCsv, type AnalysedUpload } from "./mapping/analyse.server";
import { runCpu } from "~/services/work/pool.server";
import type { ImportAnalyseTask, ImportMapTask } from "~/services/work/tasks";
import { IMPORT_LIMITS } from "./columns";
import type { MappingContext } from "./mapping/apply.server";
import { PRESETS } from "./mapping/known-headers";
import { headerKey, matchHeaders, type MatchHow } from "./mapping/match";
import { IGNORE, isTarget, missingRequired } from "./mapping/targets";
import type { CsvInput, FileError } from "./parse.server";
import type { ImportRun } from "./run-types";
import { createPreview, type UploadInfo } from "./runs.server";
import type { PackedFile } from "./stored-chunks";
import { importRatesOf } from "./rates";
import { loadRateBook } from "~/services/taxes/taxes.server";

/** Uploads older than this are dropped when the next one is stored. */
const UPLOAD_HOURS = 24;

async function remembered(tenantId: string, type: ImportType, key: string): Promise<(string | null)[] | null> {
  const r = await inTenant(tenantId, (t) =>
    one<{ fields: (string | null)[] }>(
      `SELECT fields FROM import_mappings WHERE tenant_id = $1 AND type = $2 AND header_key = $3`,
      [tenantId, type, key],
      t,
    ),
  );
  return r?.fields ?? null;
}

/** What reading a file needs of the tenant: its time zone (a mapped file's dates without an offset)
 * and its named tax rates (quotes and invoices name them). */
async function mappingContext(tenantId: string): Promise<MappingContext> {
  return inTenant(tenantId, async (t) => {
    const tenant = await Tenant.findByPk(tenantId, { attributes: ["timeZone"], transaction: t });
    return { timeZone: tenant?.timeZone ?? "UTC", rates: importRatesOf(await loadRateBook(t, tenantId)) };
  });
}

/** An upload read in the CPU pool: a file error, "needs mapping" (with the file), or its analysis packed. */
export type PackedUpload<T extends ImportType> =
  Exclude<AnalysedUpload<T>, { ok: true; needsMapping?: undefined }> | PackedFile;

/** Reads an upload: its analysis (packed), a file error, or "needs mapping" (with the file kept in memory). */
export async function analyseImportUpload<T extends ImportType>(
  actor: Actor,
  type: T,
  input: CsvInput,
): Promise<PackedUpload<T>> {
  // The bytes are read here (a file over the limit stops at the limit: the parser says so);
  // the parse and the checks run in the CPU pool (decision 331).
  const data = await readUpTo(input, IMPORT_LIMITS.maxBytes + 1);
  const peek = peekHead(data);
  const known = peek?.headers.length ? await remembered(actor.tenantId, type, headerKey(peek.headers)) : null;
  const task: ImportAnalyseTask = {
    kind: "import-analyse",
    type,
    data,
    known,
    context: await mappingContext(actor.tenantId),
  };
  const result = await runCpu<PackedUpload<T>>(actor.tenantId, task);
  // A file checked in advance is read again, with the database's answers, when they mark rows.
  if ("unmarked" in result && result.unmarked) result.redo = task;
  // A kept file comes back from the thread as plain bytes.
  if ("needsMapping" in result && result.needsMapping && !Buffer.isBuffer(result.data)) {
    const bytes = result.data as Uint8Array;
    result.data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return result;
}

/** The input's bytes, at most `limit` of them (a longer input is cut there). */
async function readUpTo(input: CsvInput, limit: number): Promise<Uint8Array> {
  if (typeof input === "string") return Buffer.from(input, "utf8").subarray(0, limit);
  if (input instanceof Uint8Array) return input.subarray(0, limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of input) {
    chunks.push(chunk.byteLength > limit - size ? chunk.subarray(0, limit - size) : chunk);
    size += chunk.byteLength;
    if (size >= limit) break;
  }
  return Buffer.concat(chunks);
}

/** The headers of a file's head, as the analysis will peek them (for the remembered mapping). */
function peekHead(data: Uint8Array) {
  for (const bytes of [64 * 1024, 4 * 1024 * 1024]) {
    const complete = data.byteLength <= bytes;
    const peek = peekCsv(new TextDecoder("utf-8").decode(data.subarray(0, bytes)), complete);
    if (complete || (peek && peek.sample.length >= 1)) return peek;
  }
  return null;
}

export type NeedsMapping = Extract<AnalysedUpload<ImportType>, { needsMapping: true }>;

export async function storeUpload(actor: Actor, upload: NeedsMapping, info: UploadInfo): Promise<{ id: string }> {
  return inTenant(actor.tenantId, async (t) => {
    await rows(
      `DELETE FROM import_uploads WHERE tenant_id = $1 AND created_at < now() - interval '${UPLOAD_HOURS} hours'`,
      [actor.tenantId],
      t,
    );
    const r = await one<{ id: string }>(
      `INSERT INTO import_uploads (tenant_id, type, file_name, file_bytes, headers, sample, data, created_by)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8) RETURNING id`,
      [
        actor.tenantId,
        upload.type,
        info.fileName?.slice(0, 255) ?? null,
        info.bytes,
        JSON.stringify(upload.headers),
        JSON.stringify(upload.sample),
        upload.data,
        actor.userId,
      ],
      t,
    );
    return { id: r!.id };
  });
}

export interface MappingColumn {
  index: number;
  header: string;
  /** First values of the column. */
  values: string[];
  /** The field chosen in advance, or "ignore". */
  field: string;
  how: MatchHow;
}

export interface UploadForMapping {
  id: string;
  type: ImportType;
  fileName: string | null;
  fileBytes: number;
  columns: MappingColumn[];
  missing: string[];
}

/** The mapping step's page: headers, first values and the fields chosen in advance (never the file). */
export async function getUploadForMapping(actor: Actor, id: string): Promise<UploadForMapping> {
  if (!isUuid(id)) throw notFound("This upload does not exist.");
  const u = await inTenant(actor.tenantId, (t) =>
    one<{
      id: string;
      type: ImportType;
      file_name: string | null;
      file_bytes: number;
      headers: string[];
      sample: string[][];
    }>(
      `SELECT id, type, file_name, file_bytes, headers, sample FROM import_uploads WHERE tenant_id = $1 AND id = $2`,
      [actor.tenantId, id],
      t,
    ),
  );
  if (!u) throw notFound("This upload does not exist.");
  const known = await remembered(actor.tenantId, u.type, headerKey(u.headers));
  const match = matchHeaders(u.type, u.headers, known && known.length === u.headers.length ? known : null);
  return {
    id: u.id,
    type: u.type,
    fileName: u.file_name,
    fileBytes: Number(u.file_bytes),
    missing: match.missing,
    columns: match.columns.map((c) => ({
      index: c.index,
      header: c.header,
      values: u.sample.map((r) => r[c.index] ?? "").filter((v) => v.trim() !== ""),
      field: c.field ?? IGNORE,
      how: c.how,
    })),
  };
}

/**
 * Applies the chosen mapping (`column.<index>` = field or "ignore"): 422 with the fields when a
 * required field has no column or a value is not a field; else the preview (or the file's own
 * error), the mapping remembered for these headers, and the upload dropped.
 */
export async function mapUpload(
  actor: Actor,
  id: string,
  chosen: Record<string, string>,
  info?: { now?: Date },
): Promise<{ ok: true; run: ImportRun } | FileError> {
  void info;
  if (!isUuid(id)) throw notFound("This upload does not exist.");
  const u = await inTenant(actor.tenantId, (t) =>
    one<{ type: ImportType; file_name: string | null; file_bytes: number; headers: string[]; data: Buffer }>(
      `SELECT type, file_name, file_bytes, headers, data FROM import_uploads WHERE tenant_id = $1 AND id = $2`,
      [actor.tenantId, id],
      t,
    ),
  );
  if (!u) throw notFound("This upload does not exist.");
  const fields = u.headers.map((_, i) => chosen[String(i)] ?? IGNORE);
  const errors: Record<string, string[]> = {};
  fields.forEach((f, i) => {
    if (f !== IGNORE && !isTarget(u.type, f)) errors[`column.${i}`] = [`"${f}" is not a field of ${u.type}.`];
  });
  const mapped = fields.filter((f) => f !== IGNORE);
  const missing = missingRequired(u.type, mapped);
  if (missing.length)
    errors.column = [`Choose a column for the required field${missing.length > 1 ? "s" : ""} ${missing.join(", ")}.`];
  if (Object.keys(errors).length)
    throw validationFailed(errors, errors.column?.[0] ?? "Some columns are mapped to unknown fields.");

  const normalised = fields.map((f) => (f === IGNORE ? null : f));
  const preset = PRESETS.find((p) => p.type === u.type && matchHeaders(u.type, u.headers).preset?.id === p.id) ?? null;
  // Read through the mapping in the CPU pool, as an upload is: the rows come back packed.
  const task: ImportMapTask = {
    kind: "import-map",
    type: u.type,
    data: u.data,
    fields: normalised,
    preset,
    context: await mappingContext(actor.tenantId),
  };
  const file = await runCpu<PackedFile | FileError>(actor.tenantId, task);
  if (!file.ok) return file;
  if (file.unmarked) file.redo = task;
  const run = await createPreview(actor, file, { fileName: u.file_name, bytes: Number(u.file_bytes) });
  await inTenant(actor.tenantId, async (t) => {
    await rows(
      // now() among the VALUES (Citus refuses it in DO UPDATE SET, docs/decisions/228).
      `INSERT INTO import_mappings (tenant_id, type, header_key, fields, updated_at) VALUES ($1, $2, $3, $4::jsonb, now())
       ON CONFLICT (tenant_id, type, header_key) DO UPDATE SET fields = EXCLUDED.fields, updated_at = EXCLUDED.updated_at`,
      [actor.tenantId, u.type, headerKey(u.headers), JSON.stringify(normalised)],
      t,
    );
    await rows(`DELETE FROM import_uploads WHERE tenant_id = $1 AND id = $2`, [actor.tenantId, id], t);
  });
  return { ok: true, run };
}
