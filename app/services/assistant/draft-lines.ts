// The "Draft quote lines" section of quote guidance, as lines for the quote builder.
//
// The engine writes each line as "<qty> x <name>"; the page turns them back into the
// builder's prefill parameters (`item`, `qty`). This module imports nothing, so the page
// can use it in the browser without pulling in the rule tables.

export const DRAFT_SECTION_HEADING = "Draft quote lines";

export interface DraftLine {
  readonly name: string;
  readonly qty: number;
}

/** The builder's own line limit for a description; longer names are cut at a word. */
export const DRAFT_NAME_MAX = 200;

export function formatDraftLine(line: DraftLine): string {
  return `${String(line.qty)} x ${line.name}`;
}

const LINE = /^(\d+(?:\.\d+)?) x (.+)$/;

export function parseDraftLine(text: string): DraftLine | null {
  const m = LINE.exec(text);
  if (!m) return null;
  const qty = Number(m[1]);
  const name = m[2].trim();
  return Number.isFinite(qty) && qty > 0 && name !== "" ? { name, qty } : null;
}

/** The draft lines of a quote answer (none for schedule or general answers). */
export function draftLinesOf(data: {
  mode: string;
  guidance: { sections: ReadonlyArray<{ heading: string; items: readonly string[] }> };
}): DraftLine[] {
  if (data.mode !== "quote") return [];
  const section = data.guidance.sections.find((s) => s.heading === DRAFT_SECTION_HEADING);
  if (!section) return [];
  const out: DraftLine[] = [];
  for (const item of section.items) {
    const line = parseDraftLine(item);
    if (line) out.push(line);
  }
  return out;
}

/** The query string the quote builder's prefill reads: repeated `item` with matching `qty`. */
export function draftQuery(lines: readonly DraftLine[]): string {
  const params = new URLSearchParams();
  for (const line of lines) {
    params.append("item", line.name);
    params.append("qty", String(line.qty));
  }
  return params.toString();
}
