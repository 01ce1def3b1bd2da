// Shapes of import runs shared by the service and the pages (no server code: safe in the browser).
import type { ImportRunState } from "../../../db/enums";
import type { ImportType } from "./columns";

/** Rows and errors per page of a preview. */
export const PAGE_ROWS = 50;
export const PAGE_ERRORS = 100;

export type RunState = ImportRunState;

/** An import run; `D` is Date on the server and string once sent to the page. */
export interface ImportRunOf<D> {
  id: string;
  type: ImportType;
  state: RunState;
  fileName: string | null;
  fileBytes: number;
  /** The file's known columns in file order: the preview table's header. */
  headers: string[];
  warnings: string[];
  /** A file mapped from other headers (section 14): which header went to which field. */
  mapping: MappingSummary | null;
  rowCount: number;
  validCount: number;
  invalidCount: number;
  errorCount: number;
  documentCount: number | null;
  itemCount: number | null;
  importedCount: number | null;
  /** A preview with errors: how many rows can be imported without the others (docs/decisions/250). */
  importableCount: number | null;
  /** A preview made of another's valid rows: how many rows of the file were left out. */
  leftOutCount: number | null;
  /** At least one row and no invalid row: only then can it be committed. */
  valid: boolean;
  createdAt: D;
  createdByName: string | null;
  committedAt: D | null;
  undoneAt: D | null;
}

export type ImportRun = ImportRunOf<Date>;

/** Which header of the file went to which field (null: not imported), and the product recognised. */
export interface MappingSummary {
  preset: string | null;
  columns: { header: string; field: string | null }[];
}
export type RunView = ImportRunOf<string>;

/** One row as the preview shows it: the raw cells (cut), and its errors (column null = the row). */
export interface PreviewRow {
  row: number;
  cells: string[];
  errors: [string | null, string][];
}

export interface PreviewError {
  row: number;
  column: string | null;
  message: string;
}

export type UndoStatusOf<D> = { available: true; until: D } | { available: false; reason: string };
