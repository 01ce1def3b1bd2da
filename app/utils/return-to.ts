// Where a form on a record page sends the browser back to: only one of our record pages,
// never an arbitrary URL (an open redirect).
const RECORD_PAGE =
  /^\/(customers|quotes|invoices|jobs)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function recordPageOf(value: FormDataEntryValue | string | null | undefined, fallback: string): string {
  return typeof value === "string" && RECORD_PAGE.test(value) ? value : fallback;
}

/** A list page with its query string (for triage forms that return to the same filtered list). */
export function listPageOf(value: FormDataEntryValue | string | null | undefined, path: string): string {
  if (typeof value !== "string") return path;
  if (value === path) return value;
  return value.startsWith(`${path}?`) && !/[\\\s]/.test(value) ? value : path;
}
