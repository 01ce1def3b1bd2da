// The stored form of an import preview (import_run_data): display rows, rows with errors,
// errors and records, each kind as JSON chunks. Pure: the CPU pool's threads make the chunks
// (app/workers/cpu-tasks.ts); app/services/import/runs.server.ts stores and reads them.
import v8 from "node:v8";
import type { ImportType } from "./columns";
import { unescapeFormula } from "./csv-write";
import {
  applyDatabaseAnswers,
  databaseQuestions,
  type DatabaseAnswers,
  type DatabaseQuestions,
} from "./database-checks";
import type { FileError } from "./parse.server";
import { recordSlices } from "./records.server";
import type { AnalysedCsv, ValidationResult } from "./validate.server";
import type { MappedExtras } from "./mapping/analyse.server";
import type { ImportAnalyseTask, ImportMapTask } from "~/services/work/tasks";

export const ROWS_PER_CHUNK = 500;
export const ERRORS_PER_CHUNK = 1000;
const RECORDS_PER_CHUNK = 5000;
/** Cells longer than this are cut in the stored preview (the records keep them whole). */
const CELL_PREVIEW_CHARS = 300;

export type AnalysedFile = Exclude<AnalysedCsv<ImportType>, FileError> & MappedExtras;
export type StoredRow = [number, string[], [string | null, string][] | 0];
export type StoredError = [number, string | null, string];

/** A cell as the preview shows it: without our CSV-injection escape (as it will be imported), cut. */
function cut(raw: string): string {
  // A NUL (a row error of its own) is shown as the replacement character a browser would show.
  const s = unescapeFormula((raw.includes("\u0000") ? raw.replaceAll("\u0000", "\ufffd") : raw).trim());
  return s.length > CELL_PREVIEW_CHARS ? `${s.slice(0, CELL_PREVIEW_CHARS - 1)}…` : s;
}

export type Chunk = [kind: "rows" | "invalid" | "errors" | "records" | "valid" | "left_out", seq: number, json: string];
/** A chunk as the CPU pool answers it: its JSON as UTF-8 bytes. */
export type EncodedChunk = [kind: Chunk[0], seq: number, json: Uint8Array];

/** A cell whole, as the file had it (a NUL shown as U+FFFD): the left-out rows' CSV. */
const whole = (raw: string) => (raw.includes("\u0000") ? raw.replaceAll("\u0000", "\ufffd") : raw);

/**
 * The rows that can be imported without the rows with errors (docs/decisions/250): every row
 * without an error; for quotes and invoices, only the rows of documents none of whose rows has
 * one (a document is imported whole or not at all). `documentOf`: each row's document number.
 */
function importableRows(file: AnalysedFile, byRow: Map<number, [string | null, string][]>) {
  const rows = new Set<number>();
  const documentOf = new Map<number, string>();
  if (file.type === "quotes" || file.type === "invoices") {
    for (const doc of file.documents) {
      for (const n of doc.rowNumbers) documentOf.set(n, doc.number);
      if (doc.ok && doc.rowNumbers.every((n) => !byRow.has(n))) for (const n of doc.rowNumbers) rows.add(n);
    }
  } else {
    for (const r of file.rows) if (r.values && !byRow.has(r.rowNumber)) rows.add(r.rowNumber);
  }
  return { rows, documentOf };
}

/** Rows with errors, as [column, message] lists by row number. */
function errorsByRow(file: AnalysedFile): Map<number, [string | null, string][]> {
  const byRow = new Map<number, [string | null, string][]>();
  for (const e of file.errors) {
    let list = byRow.get(e.row);
    if (!list) byRow.set(e.row, (list = []));
    list.push([e.column, e.message]);
  }
  return byRow;
}

/** The stored form of a checked analysis, chunk by chunk: display rows, rows with errors,
 * errors and (when valid) records. Made lazily, so only a few chunks exist at a time. */
function* serialise(
  file: AnalysedFile,
  byRow: Map<number, [string | null, string][]>,
  importable: ReturnType<typeof importableRows>,
): Generator<Chunk> {
  const display = (r: AnalysedFile["rows"][number]): StoredRow => [
    r.rowNumber,
    file.headers.map((h) => cut(r.raw[h] ?? "")),
    byRow.get(r.rowNumber) ?? 0,
  ];
  for (let i = 0, seq = 0; i < file.rows.length; i += ROWS_PER_CHUNK) {
    yield ["rows", seq++, JSON.stringify(file.rows.slice(i, i + ROWS_PER_CHUNK).map(display))];
  }
  const invalid = file.rows.filter((r) => byRow.has(r.rowNumber));
  for (let i = 0, seq = 0; i < invalid.length; i += ROWS_PER_CHUNK) {
    yield ["invalid", seq++, JSON.stringify(invalid.slice(i, i + ROWS_PER_CHUNK).map(display))];
  }
  for (let i = 0, seq = 0; i < file.errors.length; i += ERRORS_PER_CHUNK) {
    const errors = file.errors.slice(i, i + ERRORS_PER_CHUNK).map((e): StoredError => [e.row, e.column, e.message]);
    yield ["errors", seq++, JSON.stringify(errors)];
  }
  if (file.rows.length === 0) return;
  let records: ValidationResult = file as ValidationResult;
  if (invalid.length > 0) {
    // With errors: the rows that can be imported on their own (shown by the preview made of
    // them) and the others whole with their errors (the CSV to fix), then their records.
    const ok = (n: number) => importable.rows.has(n);
    const valid = file.rows.filter((r) => ok(r.rowNumber));
    if (valid.length === 0) return;
    for (let i = 0, seq = 0; i < valid.length; i += ROWS_PER_CHUNK) {
      yield ["valid", seq++, JSON.stringify(valid.slice(i, i + ROWS_PER_CHUNK).map(display))];
    }
    const label = file.type === "quotes" ? "quote" : "invoice";
    const leftOut = file.rows
      .filter((r) => !ok(r.rowNumber))
      .map((r): StoredRow => {
        const errors = byRow.get(r.rowNumber) ?? [
          [
            null,
            `Left out with its ${label}: another row of ${label} ${importable.documentOf.get(r.rowNumber)} has errors`,
          ],
        ];
        return [r.rowNumber, file.headers.map((h) => whole(r.raw[h] ?? "")), errors];
      });
    for (let i = 0, seq = 0; i < leftOut.length; i += ROWS_PER_CHUNK) {
      yield ["left_out", seq++, JSON.stringify(leftOut.slice(i, i + ROWS_PER_CHUNK))];
    }
    records =
      records.type === "quotes" || records.type === "invoices"
        ? ({
            ...records,
            documents: (records.documents as { rowNumbers: number[] }[]).filter((d) => ok(d.rowNumbers[0])),
          } as ValidationResult)
        : ({ ...records, rows: valid } as ValidationResult);
  }
  let seq = 0;
  for (const slice of recordSlices(records, RECORDS_PER_CHUNK)) yield ["records", seq++, JSON.stringify(slice)];
}

/** A file checked against the database: its run's counts and its stored chunks, as the CPU pool answers them. */
export interface CheckedFile {
  summary: CheckedSummary;
  chunks: EncodedChunk[];
}

/**
 * An analysed file as the request thread holds it while it asks the database: the questions its
 * rows ask, and never its rows as objects (40,000 of them took the request thread 130-200 ms to
 * receive and as long to send back). Either its rows serialised in one buffer (`packed`), for
 * the pool's second task to mark from the answers; or, for a type whose answers can only find
 * clashes (`answersThatMarkNothing`), the file already checked as if none clash (`unmarked`),
 * with the task that analyses it again with the answers when some do (`redo`, set by the
 * request thread). A 50,000-row file packed was 44 MB, written and read again in 0.8 s.
 */
export interface PackedFile {
  ok: true;
  type: ImportType;
  questions: DatabaseQuestions;
  packed?: Uint8Array;
  unmarked?: CheckedFile;
  redo?: ImportAnalyseTask | ImportMapTask;
}

export function packFile(file: AnalysedFile): PackedFile & { packed: Uint8Array } {
  const packed = v8.serialize(file);
  return {
    ok: true,
    type: file.type,
    packed: new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength),
    questions: databaseQuestions(file),
  };
}

/** What the run's row records of a checked file. */
export interface CheckedSummary {
  headers: string[];
  warnings: AnalysedFile["warnings"];
  rowCount: number;
  invalidCount: number;
  errorCount: number;
  documentCount: number | null;
  itemCount: number | null;
  mapping: AnalysedFile["mapping"] | null;
  /** Rows that can be imported on their own, when some rows have errors. */
  importableCount: number | null;
}

/**
 * A mapped file (section 14): errors the database checks found name the file's own headers, and
 * an error of a record folded from several rows (a client with several properties) names all
 * of its rows.
 */
function nameFileColumns(file: AnalysedFile) {
  const headers = file.columnHeaders ?? {};
  file.errors = file.errors.map((e) => {
    const column = e.column !== null && headers[e.column] ? headers[e.column] : e.column;
    const more = file.mergedRows?.get(e.row) ?? [];
    const message =
      more.length && !e.message.includes("(rows ")
        ? `${e.message} (rows ${[e.row, ...more].join(", ")} of the file are this one record)`
        : e.message;
    return { row: e.row, column, message };
  });
}

/** A packed file's rows again (packFile's `packed`). */
export function unpackFile(packed: Uint8Array): AnalysedFile {
  return v8.deserialize(Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength)) as AnalysedFile;
}

/** An analysed file marked from the database's answers (in place): its stored chunks and its run's counts. */
export function checkFile(file: AnalysedFile, answers: DatabaseAnswers): { summary: CheckedSummary; chunks: Chunk[] } {
  applyDatabaseAnswers(file, answers);
  if (file.columnHeaders || file.mergedRows) nameFileColumns(file);
  const byRow = errorsByRow(file);
  const importable = importableRows(file, byRow);
  const documents = "documents" in file ? file.documents : null;
  return {
    summary: {
      headers: file.headers,
      warnings: file.warnings,
      rowCount: file.rows.length,
      invalidCount: byRow.size,
      errorCount: file.errors.length,
      documentCount: documents ? documents.length : null,
      itemCount: documents ? documents.reduce((n, d) => n + d.rowNumbers.length, 0) : null,
      mapping: file.mapping ?? null,
      importableCount: byRow.size > 0 ? importable.rows.size : null,
    },
    chunks: [...serialise(file, byRow, importable)],
  };
}
