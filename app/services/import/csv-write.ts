// RFC 4180 CSV writing for samples and exports, with OWASP CSV-injection escaping.

/** Leading characters a spreadsheet may read as a formula (OWASP "CSV Injection"). */
const FORMULA_START = new Set(["=", "+", "-", "@", "\t", "\r"]);
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvCell = string | number | null;

/** Prefixes `'` to a string that would start a formula. Numbers are never touched: -5 is data. */
export function escapeFormula(value: string): string {
  return value.length > 0 && FORMULA_START.has(value[0]) ? `'${value}` : value;
}

/** Inverse of escapeFormula, used by the import so an exported file imports back unchanged. */
export function unescapeFormula(value: string): string {
  return value.length > 1 && value[0] === "'" && FORMULA_START.has(value[1]) ? value.slice(1) : value;
}

function cell(value: CsvCell): string {
  if (value === null) return "";
  const s = typeof value === "number" ? String(value) : escapeFormula(value);
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One row of cells as an RFC 4180 line, escaped, ending with CRLF (for files written row by row). */
export function csvLine(row: readonly CsvCell[]): string {
  return row.map(cell).join(",") + "\r\n";
}

/** Header row then data rows, CRLF line ends (RFC 4180), ending with a CRLF. */
export function toCsv(headers: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const lines = [headers.map(cell).join(",")];
  for (const row of rows) lines.push(row.map(cell).join(","));
  return lines.join("\r\n") + "\r\n";
}
