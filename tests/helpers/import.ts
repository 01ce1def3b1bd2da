// Helpers for the CSV import tests: upload a file like the page's form does, commit, undo,
// and read what the pages say.
import assert from "node:assert/strict";
import { rows } from "../../db/index";
import type { Client } from "./client";

/** The page's text without tags (React separates adjacent text with `<!-- -->`). */
export function pageText(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/\s+/g, " ");
}

/** POST /import-data/preview as the form sends it: _csrf, type, then the file (or pasted text). */
export async function upload(
  c: Client,
  type: string,
  content: string | Uint8Array,
  opts: { name?: string; field?: "file" | "csv"; typeLast?: boolean } = {},
): Promise<Response> {
  const form = new FormData();
  form.set("_csrf", await c.csrf());
  if (!opts.typeLast) form.set("type", type);
  if (opts.field === "csv")
    form.set("csv", typeof content === "string" ? content : Buffer.from(content).toString("utf8"));
  else
    form.set(
      "file",
      new Blob([typeof content === "string" ? content : new Uint8Array(content)]),
      opts.name ?? `${type}.csv`,
    );
  if (opts.typeLast) form.set("type", type);
  return c.post("/import-data/preview", form);
}

/** The id in a 303's Location (`preview=` or `run=`). */
export function idIn(res: Response, param: "preview" | "run"): string {
  assert.equal(res.status, 303, `expected a 303, got ${res.status}`);
  const id = new URL(res.headers.get("location")!, "http://x").searchParams.get(param);
  assert.ok(id, `no ${param} in ${res.headers.get("location")}`);
  return id;
}

/** Uploads a file that must preview; returns the preview id. */
export async function preview(c: Client, type: string, content: string, name?: string): Promise<string> {
  return idIn(await upload(c, type, content, { name }), "preview");
}

export const commit = (c: Client, previewId: string) => c.post("/import-data/commit", { previewId });
export const undo = (c: Client, runId: string) => c.post("/import-data/undo", { runId });

/** preview + commit; returns the run id. */
export async function importFile(c: Client, type: string, content: string): Promise<string> {
  return idIn(await commit(c, await preview(c, type, content)), "run");
}

export async function runState(tenantId: string, id: string): Promise<string | undefined> {
  const [r] = await rows<{ state: string }>(`SELECT state FROM import_runs WHERE tenant_id = $1 AND id = $2`, [
    tenantId,
    id,
  ]);
  return r?.state;
}

export async function countOf(tenantId: string, table: string, where = "true"): Promise<number> {
  const [r] = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1 AND ${where}`, [
    tenantId,
  ]);
  return r.n;
}

/** Parses a small CSV the app wrote (RFC 4180, CRLF, an optional BOM). */
export function parseSimpleCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const s = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quoted) {
      if (ch === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && s[i + 1] === "\n") {
      row.push(cell);
      out.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  if (cell || row.length) out.push([...row, cell]);
  return out;
}
