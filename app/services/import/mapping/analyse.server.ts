// Reading an upload that may need a mapping (docs/decisions/152). Pure
// apart from the `remembered` lookup it is given.
//
// Only the head of the file (its header and first rows) is read before deciding:
// - every header a section 5 name (or unknown): the file is analysed exactly as before;
// - every header matched with certainty (a product's preset, exact names, aliases, or the
//   mapping the tenant chose for these headers before): analysed through the mapping, still
//   streaming;
// - otherwise the rest is read into memory (under the size limit) and handed back with the
//   headers and first rows, to be stored for the mapping step.
import Papa from "papaparse";
import { IMPORT_LIMITS, type ImportType } from "../columns";
import { parseCsv, type CsvInput, type FileError } from "../parse.server";
import { analyseCsv, type AnalysedCsv } from "../validate.server";
import type { MappingSummary } from "../run-types";
import { applyMapping, type MappingContext } from "./apply.server";
import type { Preset } from "./known-headers";
import { fieldsOf, headerKey, matchHeaders, type HeaderMatch } from "./match";

/** First rows kept for the mapping step. */
export const SAMPLE_ROWS = 3;
const HEAD_BYTES = 64 * 1024;
const HEAD_MAX = 4 * 1024 * 1024;

export type MappedExtras = {
  mapping?: MappingSummary;
  mergedRows?: Map<number, number[]>;
  columnHeaders?: Record<string, string>;
};

export type AnalysedUpload<T extends ImportType> =
  | (AnalysedCsv<T> & MappedExtras)
  | { ok: true; needsMapping: true; type: T; headers: string[]; sample: string[][]; data: Buffer; match: HeaderMatch };

async function* chunksOf(input: CsvInput): AsyncGenerator<Uint8Array> {
  if (typeof input === "string") yield Buffer.from(input, "utf8");
  else if (input instanceof Uint8Array) yield input;
  else yield* input;
}

/** The header (non-empty names, trimmed) and first rows of a CSV text's head. */
export function peekCsv(
  text: string,
  complete: boolean,
): { headers: string[]; keep: number[]; sample: string[][] } | null {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), {
    preview: SAMPLE_ROWS + 2,
    skipEmptyLines: "greedy",
  });
  const rows = parsed.data;
  if (!complete && rows.length > 0) rows.pop(); // the last row of a head may be cut
  if (rows.length === 0) return null;
  const keep = rows[0].flatMap((h, i) => (h.trim() && h.trim().toLowerCase() !== "__proto__" ? [i] : []));
  return {
    headers: keep.map((i) => rows[0][i].trim()),
    keep,
    // A NUL is shown as U+FFFD here (jsonb cannot hold it); the mapped preview marks its cell.
    sample: rows.slice(1, SAMPLE_ROWS + 1).map((r) => keep.map((i) => (r[i] ?? "").replaceAll("\u0000", "\ufffd"))),
  };
}

/** Parses the whole file with a mapping (one field or null per non-empty header). */
export async function analyseWithMapping<T extends ImportType>(
  type: T,
  input: CsvInput,
  fields: readonly (string | null)[],
  preset: Preset | null,
  context?: MappingContext,
): Promise<AnalysedCsv<T> & MappedExtras> {
  const parsed = await parseCsv(input, { ...IMPORT_LIMITS });
  if (!parsed.ok) return parsed;
  if (parsed.headers.length !== fields.length) {
    return {
      ok: false,
      status: 422,
      code: "MISSING_COLUMN",
      message: "The file's columns changed since they were mapped. Upload it again.",
    } satisfies FileError;
  }
  const m = applyMapping(type, parsed, fields, preset, context);
  return {
    ok: true,
    headers: m.headers,
    warnings: m.warnings,
    ...m.result,
    mapping: m.summary,
    mergedRows: m.mergedRows,
    columnHeaders: m.columnHeaders,
  };
}

export async function analyseUpload<T extends ImportType>(
  type: T,
  input: CsvInput,
  remembered: (key: string) => Promise<(string | null)[] | null>,
  context?: MappingContext,
): Promise<AnalysedUpload<T>> {
  const source = chunksOf(input)[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let bytes = 0;
  let done = false;
  let peek: ReturnType<typeof peekCsv> = null;
  while (!done) {
    const next = await source.next();
    if (next.done) done = true;
    else {
      head.push(next.value);
      bytes += next.value.byteLength;
    }
    if (done || bytes >= HEAD_BYTES) {
      const text = new TextDecoder("utf-8").decode(Buffer.concat(head));
      peek = peekCsv(text, done);
      if (done || bytes >= HEAD_MAX || (peek && peek.sample.length >= 1)) break;
    }
  }
  let ended = done;
  const all: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      try {
        yield* head;
        while (!ended) {
          const next = await source.next();
          if (next.done) ended = true;
          else yield next.value;
        }
      } finally {
        if (!ended) await source.return?.(undefined);
      }
    },
  };
  // A header holding NUL is binary data: parseCsv refuses it as a file.
  if (!peek || peek.headers.length === 0 || peek.headers.some((h) => h.includes("\u0000")))
    return analyseCsv(type, all, IMPORT_LIMITS, context?.rates);
  const known = await remembered(headerKey(peek.headers));
  const match = matchHeaders(type, peek.headers, known && known.length === peek.headers.length ? known : null);
  if (match.canonical) return analyseCsv(type, all, IMPORT_LIMITS, context?.rates);
  if (match.certain) return analyseWithMapping(type, all, fieldsOf(match), match.preset, context);

  // The mapping step: keep the file (under the size limit) until the user has chosen.
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of all) {
    size += chunk.byteLength;
    if (size > IMPORT_LIMITS.maxBytes) {
      return {
        ok: false,
        status: 413,
        code: "FILE_TOO_LARGE",
        message: `The file is larger than ${IMPORT_LIMITS.maxBytes / 1024 / 1024} MiB.`,
      };
    }
    chunks.push(Buffer.from(chunk));
  }
  return {
    ok: true,
    needsMapping: true,
    type,
    headers: peek.headers,
    sample: peek.sample,
    data: Buffer.concat(chunks),
    match,
  };
}
