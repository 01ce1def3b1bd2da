// The tasks the CPU pool runs (decision 331), shared by the pool and its threads.
import type { ImportType } from "~/services/import/columns";
import type { MappingContext } from "~/services/import/mapping/apply.server";
import type { Preset } from "~/services/import/mapping/known-headers";
import type { CsvCell } from "~/services/import/csv-write";
import type { DatabaseAnswers } from "~/services/import/database-checks";
import type { PdfDocument } from "~/services/documents/pdf-layout.server";
import type { Reports } from "~/services/reports/reports.server";
import type { ReportName } from "~/services/reports/csv";

export type ImportAnalyseTask = {
  kind: "import-analyse";
  type: ImportType;
  /** The whole file (at most the import's byte limit plus one). */
  data: Uint8Array;
  /** The mapping the tenant chose before for these headers, if any. */
  known: (string | null)[] | null;
  context?: MappingContext;
  /** The database's answers: the task then answers the file checked (CheckedFile), not analysed. */
  answers?: DatabaseAnswers;
};

/** A file kept at the mapping step, read through the columns the user mapped. */
export type ImportMapTask = {
  kind: "import-map";
  type: ImportType;
  data: Uint8Array;
  fields: (string | null)[];
  preset: Preset | null;
  context?: MappingContext;
  /** As ImportAnalyseTask's. */
  answers?: DatabaseAnswers;
};

/**
 * A slice of one of the account export's files: its lines written as CSV (escaped as the import
 * reads them) and deflated without ending the stream, so the slices of one file, in order and
 * closed by a final empty block, are that file's deflate data in the ZIP.
 */
export type ExportSliceTask = {
  kind: "export-slice";
  /** The file's header line, when this slice starts the file. */
  header?: string[];
  /** Rows as the export's queries give them: cells `c0`..`c<width - 1>`. */
  rows?: Record<string, CsvCell>[];
  /** Rows already as cells. */
  lines?: CsvCell[][];
  width?: number;
  /** Text written as it is (the manifest). */
  text?: string;
  /** The CRC-32 of the file so far (0 at its start). */
  crc: number;
};

export type ExportSlice = { data: Uint8Array; crc: number; size: number };

/** An analysed import file's packed rows, marked from the database's answers and made into its stored chunks (JSON). */
export type ImportSerialiseTask = { kind: "import-serialise"; packed: Uint8Array; answers: DatabaseAnswers };

/** A quote, invoice or receipt drawn as a PDF (pdfkit, the embedded fonts); answers its bytes. */
export type PdfTask = { kind: "pdf"; doc: PdfDocument };

/** One report's figures written as its CSV download; answers the text. */
export type ReportCsvTask = { kind: "report-csv"; name: ReportName; reports: Reports };

export type CpuTask =
  ImportAnalyseTask | ImportMapTask | ImportSerialiseTask | ExportSliceTask | PdfTask | ReportCsvTask;

export type CpuKind = CpuTask["kind"];

/**
 * The memory under these views that can move between threads instead of being copied: a view
 * that covers all of its ArrayBuffer, larger than a piece of Node's shared pool of small Buffers
 * (moving the pool would take it from every other Buffer that uses it). The others are copied.
 */
export function movableBuffers(...views: Uint8Array[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const v of views) {
    const b = v.buffer;
    if (
      b instanceof ArrayBuffer &&
      v.byteOffset === 0 &&
      v.byteLength === b.byteLength &&
      b.byteLength > Buffer.poolSize
    )
      out.add(b);
  }
  return [...out];
}
