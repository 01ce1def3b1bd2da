// Streaming CSV parse for the import. Pure: no database.
//
// The input is read chunk by chunk: bytes are counted while reading (over maxBytes stops the
// read at once), decoded as strict UTF-8, and fed to papaparse, whose step callback counts
// data rows and aborts at maxRows + 1. So an oversized file is refused before it is read or
// parsed in full.
import { Readable } from "node:stream";
import Papa from "papaparse";
import { IMPORT_COLUMNS, requiredColumnGroups, type ImportType } from "./columns";

export interface ParseLimits {
  maxBytes: number;
  maxRows: number;
}

export interface ParseOptions extends ParseLimits {
  /** With a type: required columns are checked and unknown columns dropped with a warning. */
  type?: ImportType;
}

export type FileErrorCode =
  | "EMPTY_FILE"
  | "NO_DATA_ROWS"
  | "NOT_CSV"
  | "INVALID_UTF8"
  | "FILE_TOO_LARGE"
  | "TOO_MANY_ROWS"
  | "DUPLICATE_COLUMN"
  | "MISSING_COLUMN";

/** A problem with the whole file: nothing is stored. The route maps status 400/413/422 to
 * BAD_REQUEST / PAYLOAD_TOO_LARGE / VALIDATION_FAILED; `code` says which problem. */
export interface FileError {
  ok: false;
  status: 400 | 413 | 422;
  code: FileErrorCode;
  message: string;
}

/** `row` counts the header as row 1. `column` is null when the whole row is at fault. */
export interface RowError {
  row: number;
  column: string | null;
  message: string;
}

export interface CsvRecord {
  /** Record-based row number: the index of the CSV record (not of the physical line, since a
   * quoted cell may hold line breaks) + 1, blank lines included, so it matches the row a
   * spreadsheet shows. The header is row 1 when nothing precedes it. */
  row: number;
  /** Normalised header name -> raw cell. Missing cells read as "". */
  values: Record<string, string>;
  /** Set when the row itself is malformed (cell count, quotes); the row is then not validated. */
  error?: string;
}

export interface ParsedCsvOk {
  ok: true;
  /** Normalised (trimmed, lower-cased) header names kept in `values`, in file order. */
  headers: string[];
  /** The same headers as the file writes them (trimmed). */
  fileHeaders: string[];
  records: CsvRecord[];
  /** The `error` of each malformed record, as row errors (validateRows reports them too). */
  rowErrors: RowError[];
  /** File-level warnings, each listed once (unknown or unnamed columns). */
  warnings: string[];
}

export type ParsedCsv = ParsedCsvOk | FileError;

export type CsvInput = Buffer | Uint8Array | string | AsyncIterable<Uint8Array>;

const CHUNK_BYTES = 64 * 1024;

function fileError(status: FileError["status"], code: FileErrorCode, message: string): FileError {
  return { ok: false, status, code, message };
}

async function* byteChunks(input: CsvInput): AsyncGenerator<Uint8Array> {
  const bytes = typeof input === "string" ? Buffer.from(input, "utf8") : input;
  if (bytes instanceof Uint8Array) {
    // Sliced so the byte and row limits apply as early for a buffer as for a stream.
    for (let i = 0; i < bytes.length; i += CHUNK_BYTES) yield bytes.subarray(i, i + CHUNK_BYTES);
    return;
  }
  yield* bytes;
}

interface ParseState {
  error: FileError | null;
}

async function* decodeUtf8(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
  state: ParseState,
): AsyncGenerator<string> {
  // fatal: invalid UTF-8 is a file error, not silently U+FFFD. ignoreBOM false strips a BOM.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let total = 0;
  // Until the first line feed: a NUL byte in the header line means binary data (a spreadsheet,
  // a zip, UTF-16 text), refused as a file. After it, a NUL is one cell's problem: the row
  // checks mark that cell ("cannot be stored (U+0000)") and the rest of the file is
  // previewed as usual (docs/decisions/192).
  let inHeaderLine = true;
  for await (const chunk of source) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      state.error = fileError(413, "FILE_TOO_LARGE", `The file is larger than ${formatBytes(maxBytes)}.`);
      return; // leaving the loop closes the source: nothing more is read
    }
    if (inHeaderLine) {
      const lf = chunk.indexOf(0x0a);
      const nul = chunk.indexOf(0);
      if (nul !== -1 && (lf === -1 || nul < lf)) {
        state.error = fileError(400, "NOT_CSV", "This does not look like a CSV text file (it holds binary data).");
        return;
      }
      if (lf !== -1) inHeaderLine = false;
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      state.error = invalidUtf8();
      return;
    }
    if (text) yield text;
  }
  let tail: string;
  try {
    tail = decoder.decode();
  } catch {
    state.error = invalidUtf8();
    return;
  }
  if (tail) yield tail;
}

function invalidUtf8(): FileError {
  return fileError(400, "INVALID_UTF8", 'The file is not valid UTF-8 text. Save it as "CSV UTF-8" and try again.');
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n.toLocaleString("en-US")} bytes`;
}

/**
 * Finds the line break of the first record, skipping quoted text. Papa would guess it from
 * its first chunk alone, which can be a few bytes of a slow stream. Incremental: call again
 * with more text while it answers null.
 */
function newlineDetector() {
  let i = 0;
  let inQuotes = false;
  return (text: string, eof: boolean): string | null => {
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) inQuotes = !inQuotes;
      else if (!inQuotes && c === 10) return "\n";
      else if (!inQuotes && c === 13) {
        if (i + 1 < text.length) return text.charCodeAt(i + 1) === 10 ? "\r\n" : "\r";
        return eof ? "\r" : null; // a CR at the end of the text so far: wait for the next char
      }
    }
    return eof ? "\n" : null;
  };
}

interface Header {
  names: string[];
  originals: string[];
  /** Per cell index: the key to store it under, or null to drop it. */
  keys: (string | null)[];
  warnings: string[];
}

function readHeader(cells: string[], type: ImportType | undefined): Header | FileError {
  // A quoted header cell spanning lines can still hold a NUL the byte check did not see.
  if (cells.some((c) => c.includes("\u0000")))
    return fileError(400, "NOT_CSV", "This does not look like a CSV text file (it holds binary data).");
  const names = cells.map((c) => c.trim().toLowerCase());
  const known = type ? new Set(IMPORT_COLUMNS[type].map((c) => c.name)) : null;
  const seen = new Set<string>();
  const keys: (string | null)[] = [];
  const warnings: string[] = [];
  const originals: string[] = [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name === "") {
      warnings.push(`Column ${i + 1} has no header and is ignored.`);
      keys.push(null);
      continue;
    }
    if (seen.has(name))
      return fileError(422, "DUPLICATE_COLUMN", `The column "${name}" appears more than once in the header.`);
    seen.add(name);
    if ((known && !known.has(name)) || name === "__proto__") {
      warnings.push(`Unknown column "${name}" is ignored.`);
      keys.push(null);
      continue;
    }
    keys.push(name);
    originals.push(cells[i].trim());
  }
  if (type) {
    const missing = requiredColumnGroups(type)
      .filter((group) => !group.some((c) => seen.has(c)))
      .map((group) => group.join(" or "));
    if (missing.length > 0) {
      const s = missing.length > 1 ? "s" : "";
      return fileError(422, "MISSING_COLUMN", `Missing required column${s}: ${missing.join(", ")}.`);
    }
  }
  return { names: keys.filter((k): k is string => k !== null), originals, keys, warnings };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function isBlank(cells: string[]): boolean {
  for (const c of cells) if (c.trim() !== "") return false;
  return true;
}

function quoteError(errors: Papa.ParseError[]): string | undefined {
  if (errors.length === 0) return undefined;
  return errors.some((e) => e.code === "MissingQuotes")
    ? 'A quoted cell is never closed (a " without its closing ").'
    : 'Malformed quotes: text follows a closing quote. Write a quote inside a quoted cell as "".';
}

export async function parseCsv(input: CsvInput, opts: ParseOptions): Promise<ParsedCsv> {
  const state: ParseState = { error: null };
  const text = decodeUtf8(byteChunks(input), opts.maxBytes, state);

  // Peek far enough to know the line break, then hand the peeked text and the rest to Papa.
  const detect = newlineDetector();
  let head = "";
  let newline: string | null = null;
  let ended = false;
  while (newline === null) {
    const next = await text.next();
    if (next.done) {
      ended = true;
      newline = detect(head, true);
    } else {
      head += next.value;
      newline = detect(head, false);
    }
  }
  if (state.error) return state.error;
  if (head.trim() === "" && ended) return fileError(400, "EMPTY_FILE", "The file is empty.");

  async function* all(): AsyncGenerator<string> {
    try {
      if (head) yield head;
      if (!ended) yield* text;
    } finally {
      await text.return(undefined); // stop reading when Papa is done early
    }
  }

  const records: CsvRecord[] = [];
  const rowErrors: RowError[] = [];
  let header = null as Header | null; // assigned in the step callback
  let recordIndex = 0;
  let dataRows = 0;

  const stream = Readable.from(all(), { objectMode: true, highWaterMark: 1 });
  function stop(error: FileError, parser: Papa.Parser) {
    state.error = error;
    parser.abort();
    stream.destroy();
  }
  await new Promise<void>((resolve, reject) => {
    Papa.parse<string[]>(stream, {
      delimiter: ",",
      newline: newline as "\n" | "\r\n" | "\r",
      quoteChar: '"',
      escapeChar: '"',
      header: false,
      dynamicTyping: false,
      skipEmptyLines: false, // skipped below, but still counted for row numbers
      step(result, parser) {
        recordIndex++;
        const cells = result.data;
        const broken = quoteError(result.errors);
        // Rows of only empty cells (blank lines, or ",,," left by spreadsheets) carry nothing.
        if (!broken && isBlank(cells)) return;
        if (!header) {
          if (broken) return stop(fileError(400, "NOT_CSV", `The header row is not valid CSV. ${broken}`), parser);
          const h = readHeader(cells, opts.type);
          if ("ok" in h) stop(h, parser);
          else header = h;
          return;
        }
        if (++dataRows > opts.maxRows) {
          stop(
            fileError(
              413,
              "TOO_MANY_ROWS",
              `The file has more than ${opts.maxRows.toLocaleString("en-US")} data rows.`,
            ),
            parser,
          );
          return;
        }
        const values: Record<string, string> = {};
        for (let i = 0; i < header.keys.length; i++) {
          const key = header.keys[i]; // never "__proto__": readHeader drops it
          if (key !== null) values[key] = cells[i] ?? "";
        }
        const record: CsvRecord = { row: recordIndex, values };
        const error =
          broken ??
          (cells.length !== header.keys.length
            ? `This row has ${count(cells.length, "cell")} but the header has ${count(header.keys.length, "column")}.`
            : undefined);
        if (error) {
          record.error = error;
          rowErrors.push({ row: recordIndex, column: null, message: error });
        }
        records.push(record);
      },
      complete: () => resolve(),
      error: (err: Error) => reject(err),
    });
  });
  // After an abort, wait until the source is closed, so no read outlives the call.
  if (!stream.closed) await new Promise((resolve) => stream.once("close", resolve));

  if (state.error) return state.error;
  if (!header) return fileError(400, "EMPTY_FILE", "The file is empty.");
  if (records.length === 0) return fileError(422, "NO_DATA_ROWS", "The file has a header row but no data rows.");
  return {
    ok: true,
    headers: header.names,
    fileHeaders: header.originals,
    records,
    rowErrors,
    warnings: header.warnings,
  };
}
