// Import runs: preview, commit, undo (docs/decisions/070-074).
//
// preview  parse + validate (pure) -> checks against the database (one query per table) ->
//          the run and its chunks stored in one transaction; the previous preview of the type
//          becomes superseded.
// commit   one transaction under the tenant's import lock: the run row locked, its state
//          checked, the stored records inserted set-based, the run marked committed.
// undo     the same lock: only the latest committed run, within 24 hours, untouched and
//          unreferenced; deletes exactly its records.
import { inTenant, one, rows, type Tx } from "../../../db/index";
import { refreshStatistics, statisticsOlderThan } from "../../../db/statistics";
import { log } from "~/utils/log.server";
import { AppError, conflict, forbidden, notFound } from "~/utils/app-error";
import { isUuid } from "~/utils/crypto.server";
import { notify } from "~/services/events/events.server";
import type { Actor } from "~/services/accounts/actor";
import { IMPORT_LIMITS, mayImportType, type ImportType } from "./columns";
import { askDatabase } from "./checks.server";
import { answersMarkNothing, type DatabaseAnswers } from "./database-checks";
import { toCsv } from "./csv-write";
import type { CsvInput, FileError, RowError } from "./parse.server";
import { insertRecords } from "./records.server";
import {
  ERRORS_PER_CHUNK,
  ROWS_PER_CHUNK,
  packFile,
  type AnalysedFile,
  type CheckedFile,
  type Chunk,
  type EncodedChunk,
  type PackedFile,
  type StoredError,
  type StoredRow,
} from "./stored-chunks";
import { runCpu } from "~/services/work/pool.server";
import { movableBuffers } from "~/services/work/tasks";
import { deleteRunRecords, undoStatus, writtenTables, type UndoStatus } from "./undo.server";
import { analyseCsv, type AnalysedCsv } from "./validate.server";
import { importRatesOf, type ImportRates } from "./rates";
import { rateBookOf } from "~/services/taxes/taxes.server";
import {
  PAGE_ERRORS,
  PAGE_ROWS,
  type ImportRun,
  type MappingSummary,
  type PreviewRow,
  type RunState,
} from "./run-types";

// Chunk sizes of import_run_data: a page of rows or errors is read from one chunk.

export type { ImportRun, PreviewRow, RunState } from "./run-types";

export type { AnalysedFile } from "./stored-chunks";

// --- Locks -------------------------------------------------------------------------------

/** Serialises commits and undos of one tenant (the "latest committed" rule needs it). */
const lockTenantImports = (tenantId: string, t: Tx) =>
  rows(`SELECT pg_advisory_xact_lock(hashtextextended('import:' || $1, 0))`, [tenantId], t);
/** Serialises previews of one type in a tenant (one live preview per type). */
const lockPreviews = (tenantId: string, type: ImportType, t: Tx) =>
  rows(`SELECT pg_advisory_xact_lock(hashtextextended('import-preview:' || $1 || ':' || $2, 0))`, [tenantId, type], t);

// --- Reading runs ------------------------------------------------------------------------

const RUN_COLUMNS = `r.id, r.type, r.state, r.file_name, r.file_bytes, r.headers, r.warnings, r.mapping, r.row_count, r.valid_count,
  r.invalid_count, r.error_count, r.document_count, r.item_count, r.imported_count, r.importable_count, r.left_out_count,
  r.created_at, r.committed_at, r.undone_at,
  u.name AS created_by_name`;

interface RunRow {
  id: string;
  type: ImportType;
  state: RunState;
  file_name: string | null;
  file_bytes: number;
  headers: string[];
  warnings: string[];
  mapping: MappingSummary | null;
  row_count: number;
  valid_count: number;
  invalid_count: number;
  error_count: number;
  document_count: number | null;
  item_count: number | null;
  imported_count: number | null;
  importable_count: number | null;
  left_out_count: number | null;
  created_at: Date;
  committed_at: Date | null;
  undone_at: Date | null;
  created_by_name: string | null;
}

function toRun(r: RunRow): ImportRun {
  return {
    id: r.id,
    type: r.type,
    state: r.state,
    fileName: r.file_name,
    fileBytes: r.file_bytes,
    headers: r.headers,
    warnings: r.warnings,
    mapping: r.mapping,
    rowCount: r.row_count,
    validCount: r.valid_count,
    invalidCount: r.invalid_count,
    errorCount: r.error_count,
    documentCount: r.document_count,
    itemCount: r.item_count,
    importedCount: r.imported_count,
    importableCount: r.importable_count,
    leftOutCount: r.left_out_count,
    valid: r.row_count > 0 && r.invalid_count === 0 && r.error_count === 0,
    createdAt: r.created_at,
    createdByName: r.created_by_name,
    committedAt: r.committed_at,
    undoneAt: r.undone_at,
  };
}

/** The run, or 404 for a malformed id, another tenant's run or none (all look the same). */
async function findRun(tenantId: string, id: string, t: Tx, lock = false): Promise<ImportRun> {
  if (!isUuid(id)) throw notFound("This import does not exist.");
  const r = await one<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM import_runs r LEFT JOIN users u ON u.tenant_id = $1 AND u.id = r.created_by
      WHERE r.tenant_id = $1 AND r.id = $2 ${lock ? "FOR UPDATE OF r" : ""}`,
    [tenantId, id],
    t,
  );
  if (!r) throw notFound("This import does not exist.");
  return toRun(r);
}

export async function getRun(actor: Actor, id: string): Promise<ImportRun> {
  return inTenant(actor.tenantId, (t) => findRun(actor.tenantId, id, t));
}

/** The run with what its result page needs: may it still be undone, and if not, why. */
export async function getRunWithUndo(actor: Actor, id: string): Promise<{ run: ImportRun; undo: UndoStatus }> {
  return inTenant(actor.tenantId, async (t) => {
    const run = await findRun(actor.tenantId, id, t);
    return { run, undo: await undoStatus(actor.tenantId, run, t) };
  });
}

export async function recentRuns(actor: Actor, limit = 8): Promise<ImportRun[]> {
  const found = await inTenant(actor.tenantId, (t) =>
    rows<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM import_runs r LEFT JOIN users u ON u.tenant_id = r.tenant_id AND u.id = r.created_by
        WHERE r.tenant_id = $1 ORDER BY r.created_at DESC LIMIT $2`,
      [actor.tenantId, limit],
      t,
    ),
  );
  return found.map(toRun);
}

async function chunk<T>(tenantId: string, runId: string, kind: string, seq: number, t?: Tx): Promise<T[]> {
  const r = await one<{ data: string }>(
    `SELECT data FROM import_run_data WHERE tenant_id = $1 AND run_id = $2 AND kind = $3 AND seq = $4`,
    [tenantId, runId, kind, seq],
    t,
  );
  return r ? (JSON.parse(r.data) as T[]) : [];
}

/** One page of the preview: rows (all, or only those with errors) and errors. Pages count from 1. */
export async function getPreviewPage(
  actor: Actor,
  id: string,
  opts: { page: number; onlyInvalid: boolean; errorsPage: number },
): Promise<{ run: ImportRun; rows: PreviewRow[]; errors: RowError[] }> {
  return inTenant(actor.tenantId, async (t) => {
    const run = await findRun(actor.tenantId, id, t);
    const rowsAt = (opts.page - 1) * PAGE_ROWS;
    const errorsAt = (opts.errorsPage - 1) * PAGE_ERRORS;
    const stored = await chunk<StoredRow>(
      actor.tenantId,
      id,
      opts.onlyInvalid ? "invalid" : "rows",
      Math.floor(rowsAt / ROWS_PER_CHUNK),
      t,
    );
    const errors = await chunk<StoredError>(actor.tenantId, id, "errors", Math.floor(errorsAt / ERRORS_PER_CHUNK), t);
    const from = rowsAt % ROWS_PER_CHUNK;
    const errFrom = errorsAt % ERRORS_PER_CHUNK;
    return {
      run,
      rows: stored.slice(from, from + PAGE_ROWS).map(([row, cells, errs]) => ({ row, cells, errors: errs || [] })),
      errors: errors.slice(errFrom, errFrom + PAGE_ERRORS).map(([row, column, message]) => ({ row, column, message })),
    };
  });
}

/** Every entry of a run's chunks of one kind, in order; null when it has none. */
async function allChunks<T>(tenantId: string, runId: string, kind: Chunk[0], t: Tx): Promise<T[] | null> {
  const chunks = await rows<{ data: string }>(
    `SELECT data FROM import_run_data WHERE tenant_id = $1 AND run_id = $2 AND kind = $3 ORDER BY seq`,
    [tenantId, runId, kind],
    t,
  );
  return chunks.length ? chunks.flatMap((c) => JSON.parse(c.data) as T[]) : null;
}

/** Every error of a preview as CSV (row, column, message), for download. */
export async function errorsCsv(actor: Actor, id: string): Promise<{ run: ImportRun; csv: string }> {
  return inTenant(actor.tenantId, async (t) => {
    const run = await findRun(actor.tenantId, id, t);
    const all = (await allChunks<StoredError>(actor.tenantId, id, "errors", t)) ?? [];
    return {
      run,
      csv: toCsv(
        ["row", "column", "message"],
        all.map(([row, column, message]) => [row, column ?? "", message]),
      ),
    };
  });
}

/**
 * The rows a preview leaves out, whole, with their errors, as CSV (row, the preview's columns,
 * errors): a preview with errors, or the preview made of its valid rows. Cells are escaped
 * against formula injection like every CSV the import writes.
 */
export async function leftOutCsv(actor: Actor, id: string): Promise<{ run: ImportRun; csv: string }> {
  return inTenant(actor.tenantId, async (t) => {
    const run = await findRun(actor.tenantId, id, t);
    const all = await allChunks<StoredRow>(actor.tenantId, id, "left_out", t);
    if (!all) throw notFound("This preview leaves no row out (or it was replaced or imported).");
    return {
      run,
      csv: toCsv(
        ["row", ...run.headers, "errors"],
        all.map(([row, cells, errors]) => [
          row,
          ...cells,
          (errors || []).map(([column, message]) => (column ? `${column}: ${message}` : message)).join("; "),
        ]),
      ),
    };
  });
}

// --- Preview -----------------------------------------------------------------------------

/** Parses and validates a file (pure): the analysis a preview stores, or a file error. */
export function analyseImport<T extends ImportType>(
  type: T,
  input: CsvInput,
  rates?: ImportRates,
): Promise<AnalysedCsv<T>> {
  return analyseCsv(type, input, IMPORT_LIMITS, rates);
}

/** Writes the chunks in statements of about 2 MB: the driver copies each statement's
 * parameters, so one statement for a 50,000-row preview would hold tens of MB at once. */
async function storeChunks(tenantId: string, runId: string, chunks: Iterable<Chunk | EncodedChunk>, t: Tx) {
  let bind: unknown[] = [tenantId, runId];
  let values: string[] = [];
  let size = 0;
  const flush = async () => {
    if (values.length)
      await rows(
        `INSERT INTO import_run_data (tenant_id, run_id, kind, seq, data) VALUES ${values.join(", ")}`,
        bind,
        t,
      );
    bind = [tenantId, runId];
    values = [];
    size = 0;
  };
  for (const [kind, seq, json] of chunks) {
    // UTF-8 bytes go to the text column as they are (pg binds a Buffer in binary form).
    const data = typeof json === "string" ? json : Buffer.from(json.buffer, json.byteOffset, json.byteLength);
    bind.push(data);
    values.push(`($1, $2, '${kind}', ${seq}, $${bind.length})`);
    size += data.length;
    if (size >= 2_000_000) await flush();
  }
  await flush();
}

export interface UploadInfo {
  fileName: string | null;
  bytes: number;
}

/**
 * A packed file checked with the database's answers, in the CPU pool: kept as the pool checked it
 * when the answers mark nothing, else analysed again with them; or its packed rows marked from
 * them (the bytes move to the pool: the file cannot be read again here).
 */
async function checkedInPool(tenantId: string, file: PackedFile, answers: DatabaseAnswers): Promise<CheckedFile> {
  if (file.unmarked && answersMarkNothing(file.type, answers)) return file.unmarked;
  if (file.unmarked) {
    if (!file.redo) throw new Error("An import file checked in advance came without the task that reads it again.");
    return runCpu<CheckedFile>(tenantId, { ...file.redo, answers });
  }
  if (!file.packed) throw new Error("An import file came without its rows.");
  return runCpu<CheckedFile>(
    tenantId,
    { kind: "import-serialise", packed: file.packed, answers },
    movableBuffers(file.packed),
  );
}

/**
 * A team import grants roles, so it is bounded like /team: it needs `manage_team` (an office
 * user may import customers and jobs, not members) and a row never names a role above the
 * importer's own (the team file's roles stop at admin).
 */
function assertMayImport(actor: Actor, type: ImportType) {
  if (!mayImportType(actor.role, type))
    throw forbidden("Importing team members needs the manage_team permission (owner or admin).");
}

/**
 * Checks an analysed file against the tenant's records and stores it as the type's preview.
 * The previous preview of the type (if any) becomes superseded. A packed file is used up: its
 * bytes move to the CPU pool.
 */
export async function createPreview(
  actor: Actor,
  file: AnalysedFile | PackedFile,
  upload: UploadInfo,
): Promise<ImportRun> {
  assertMayImport(actor, file.type);
  // The rows never reach this thread as objects: the CPU pool checked the file already, or marks
  // its packed rows from the database's answers, and writes the stored form (display rows,
  // errors, records as JSON) with the run's counts.
  const packed = "questions" in file ? file : packFile(file);
  return inTenant(actor.tenantId, async (t) => {
    const answers = await askDatabase(actor.tenantId, packed.questions, t);
    const { summary, chunks } = await checkedInPool(actor.tenantId, packed, answers);
    await lockPreviews(actor.tenantId, packed.type, t);
    const superseded = await rows<{ id: string }>(
      `UPDATE import_runs SET state = 'superseded', superseded_at = now()
        WHERE tenant_id = $1 AND type = $2 AND state = 'previewed' RETURNING id`,
      [actor.tenantId, packed.type],
      t,
    );
    if (superseded.length) {
      await rows(
        `DELETE FROM import_run_data WHERE tenant_id = $1 AND run_id = ANY($2::uuid[])`,
        [actor.tenantId, superseded.map((s) => s.id)],
        t,
      );
    }
    const run = await one<{ id: string }>(
      `INSERT INTO import_runs (tenant_id, type, file_name, file_bytes, headers, warnings, row_count, valid_count, invalid_count,
         error_count, document_count, item_count, created_by, mapping, importable_count)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15) RETURNING id`,
      [
        actor.tenantId,
        packed.type,
        upload.fileName ? upload.fileName.slice(0, 255) : null,
        upload.bytes,
        JSON.stringify(summary.headers),
        JSON.stringify(summary.warnings),
        summary.rowCount,
        summary.rowCount - summary.invalidCount,
        summary.invalidCount,
        summary.errorCount,
        summary.documentCount,
        summary.itemCount,
        actor.userId,
        summary.mapping ? JSON.stringify(summary.mapping) : null,
        summary.importableCount,
      ],
      t,
    );
    await storeChunks(actor.tenantId, run!.id, chunks, t);
    return findRun(actor.tenantId, run!.id, t);
  });
}

/** analyseImport + createPreview, for scripts and tests: the run, or the file's error. */
export async function previewImport(
  actor: Actor,
  type: ImportType,
  input: CsvInput,
  upload: Partial<UploadInfo> = {},
): Promise<{ ok: true; run: ImportRun } | FileError> {
  const file = await analyseImport(type, input, importRatesOf(await rateBookOf(actor)));
  if (!file.ok) return file;
  const bytes =
    upload.bytes ??
    (typeof input === "string" ? Buffer.byteLength(input) : input instanceof Uint8Array ? input.byteLength : 0);
  return { ok: true, run: await createPreview(actor, file, { fileName: upload.fileName ?? null, bytes }) };
}

/**
 * "Import only the valid rows" (docs/decisions/250): from a preview with errors, a new preview
 * of just the rows that can be imported on their own, which commits like any valid preview.
 * The rows left out stay downloadable from it. The preview with errors is superseded.
 */
export async function previewValidRows(actor: Actor, previewId: string): Promise<ImportRun> {
  return inTenant(actor.tenantId, async (t) => {
    // The type's preview lock first, as a new upload takes it, then the run's row.
    const { type } = await findRun(actor.tenantId, previewId, t);
    assertMayImport(actor, type);
    await lockPreviews(actor.tenantId, type, t);
    const source = await findRun(actor.tenantId, previewId, t, true);
    if (source.state !== "previewed") {
      throw conflict(
        "This preview was replaced by a newer one or imported already, so its valid rows cannot be taken from it. Upload the file again.",
      );
    }
    if (source.valid)
      throw new AppError("VALIDATION_FAILED", "Every row of this preview is valid: import it as it is.");
    if (!source.importableCount) {
      throw new AppError(
        "VALIDATION_FAILED",
        "No row of this file can be imported on its own: every row has an error. Fix the file and upload it again.",
      );
    }
    await rows(
      `UPDATE import_runs SET state = 'superseded', superseded_at = now() WHERE tenant_id = $1 AND id = $2`,
      [actor.tenantId, source.id],
      t,
    );
    const isDocs = source.documentCount !== null;
    const kept = source.importableCount;
    const leftOut = source.rowCount - kept;
    const made = await one<{ id: string }>(
      `INSERT INTO import_runs (tenant_id, type, file_name, file_bytes, headers, warnings, row_count, valid_count, invalid_count,
         error_count, document_count, item_count, created_by, mapping, left_out_count)
       SELECT tenant_id, type, file_name, file_bytes, headers, warnings, $3::int, $3::int, 0, 0,
              CASE WHEN $4::boolean THEN (SELECT coalesce(sum(jsonb_array_length(d.data::jsonb)), 0)::int
                                            FROM import_run_data d
                                           WHERE d.tenant_id = $1 AND d.run_id = $2 AND d.kind = 'records') END,
              CASE WHEN $4::boolean THEN $3::int END, $5::uuid, mapping, $6::int
         FROM import_runs WHERE tenant_id = $1 AND id = $2
       RETURNING id`,
      [actor.tenantId, source.id, kept, isDocs, actor.userId, leftOut],
      t,
    );
    // The valid rows become the new preview's rows; its records and the left-out rows move with them.
    await rows(
      `INSERT INTO import_run_data (tenant_id, run_id, kind, seq, data)
       SELECT tenant_id, $3, CASE WHEN kind = 'valid' THEN 'rows' ELSE kind END, seq, data FROM import_run_data
        WHERE tenant_id = $1 AND run_id = $2 AND kind IN ('valid', 'records', 'left_out')`,
      [actor.tenantId, source.id, made!.id],
      t,
    );
    await rows(`DELETE FROM import_run_data WHERE tenant_id = $1 AND run_id = $2`, [actor.tenantId, source.id], t);
    return findRun(actor.tenantId, made!.id, t);
  });
}

// --- Commit and undo ---------------------------------------------------------------------

/**
 * Commits a preview: exactly once. A preview already committed (a double click, two tabs,
 * two servers) returns its run, so every submit lands on the same result page. After the
 * records are in, the tables they went to get fresh planner statistics (statistics below).
 */
export async function commitPreview(actor: Actor, previewId: string): Promise<ImportRun> {
  const { run, inserted } = await inTenant(actor.tenantId, async (t) => {
    await lockTenantImports(actor.tenantId, t);
    const run = await findRun(actor.tenantId, previewId, t, true);
    assertMayImport(actor, run.type);
    if (run.state === "committed" || run.state === "undone") return { run, inserted: false };
    if (run.state === "superseded") {
      throw conflict(
        "A newer file of this type was previewed after this one, so this preview can no longer be imported. Import the newer preview, or upload this file again.",
      );
    }
    if (!run.valid) {
      throw new AppError(
        "VALIDATION_FAILED",
        "This preview has rows with errors, so nothing was imported. Fix the file and upload it again.",
      );
    }
    const records = run.documentCount ?? run.rowCount;
    const imported = await insertRecords(run.type, actor.tenantId, run.id, records, t);
    await rows(
      `UPDATE import_runs SET state = 'committed', committed_at = now(), committed_by = $3, imported_count = $4
        WHERE tenant_id = $1 AND id = $2`,
      [actor.tenantId, run.id, actor.userId, imported],
      t,
    );
    // The records are in their tables now; the display rows are not needed any more either.
    await rows(`DELETE FROM import_run_data WHERE tenant_id = $1 AND run_id = $2`, [actor.tenantId, run.id], t);
    await notify(t, actor.tenantId, { type: "import.committed", id: run.id });
    return { run: await findRun(actor.tenantId, run.id, t), inserted: true };
  });
  if (inserted) await statistics(writtenTables(run.type));
  return run;
}

/**
 * ANALYZE of the tables an import wrote to, after its transaction (db/statistics.ts): every
 * connection's cached plans of the foreign-key checks on them are made again on their new
 * size, so the undo (or a later import that refers to them) does not check each row with a
 * plan made while the table was small (docs/decisions/234). The records are committed
 * already, so a failure here is logged and the import still succeeds; autovacuum gathers the
 * statistics later.
 */
async function statistics(tables: Parameters<typeof refreshStatistics>[0]): Promise<void> {
  try {
    await refreshStatistics(tables);
  } catch (error) {
    log.error("import: refreshing the planner statistics failed", { tables, error });
  }
}

/** When a committed run of the tenant was committed, and its type (null for any other run). */
async function committedAt(tenantId: string, runId: string): Promise<{ type: ImportType; committedAt: Date } | null> {
  const run = await inTenant(tenantId, (t) =>
    one<{ type: ImportType; committed_at: Date }>(
      `SELECT type, committed_at FROM import_runs WHERE tenant_id = $1 AND id = $2 AND state = 'committed'`,
      [tenantId, runId],
      t,
    ),
  );
  return run ? { type: run.type, committedAt: run.committed_at } : null;
}

/** Undoes a committed import, or refuses (409) with the reason and deletes nothing. */
export async function undoImport(actor: Actor, runId: string): Promise<ImportRun> {
  // Statistics gathered before the run was committed (its commit could not refresh them, or it
  // predates that) are refreshed first, so the delete's foreign-key checks are planned on the
  // tables as they are now (docs/decisions/234).
  const before = isUuid(runId) ? await committedAt(actor.tenantId, runId) : null;
  if (before) await statistics(await statisticsOlderThan(writtenTables(before.type), before.committedAt));
  return inTenant(actor.tenantId, async (t) => {
    await lockTenantImports(actor.tenantId, t);
    const run = await findRun(actor.tenantId, runId, t, true);
    const status = await undoStatus(actor.tenantId, run, t);
    if (!status.available) throw conflict(status.reason);
    try {
      await deleteRunRecords(actor.tenantId, run, t);
    } catch (error) {
      const code = (error as { parent?: { code?: string } })?.parent?.code;
      if (code === "23503")
        throw conflict("This import can no longer be undone: another record was just linked to one of its records.");
      throw error;
    }
    await rows(
      `UPDATE import_runs SET state = 'undone', undone_at = now(), undone_by = $3 WHERE tenant_id = $1 AND id = $2`,
      [actor.tenantId, run.id, actor.userId],
      t,
    );
    return findRun(actor.tenantId, run.id, t);
  });
}
