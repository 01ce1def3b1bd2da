// Every value set the database stores is declared once, in db/enums.ts (decision 116). This
// reads the source tree and fails when one of those lists, or a subset of three or more of its
// values, is written out a second time: as an array, a union type, or a SQL IN (...) / ARRAY[...] list.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import * as ENUMS from "../../db/enums";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ENUMS_FILE = "db/enums.ts";

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // The migrations are history: their CHECK lists were written once, when each ran.
      if (rel !== "db/migrations") out.push(...sourceFiles(rel));
    } else if (/\.(ts|tsx)$/.test(entry.name)) out.push(rel);
  }
  return out;
}

const WORD = String.raw`["'][a-z][a-z0-9_]*["']`;
const LISTS = [
  // ["a", "b", "c"] (an array, possibly `as const`)
  new RegExp(String.raw`\[\s*(${WORD}(?:\s*,\s*${WORD})+)\s*,?\s*\]`, "g"),
  // "a" | "b" | "c" (a union type)
  new RegExp(String.raw`(${WORD}(?:\s*\|\s*${WORD})+)`, "g"),
  // IN ('a', 'b') in SQL
  new RegExp(String.raw`\bIN\s*\(\s*(${WORD}(?:\s*,\s*${WORD})+)\s*\)`, "gi"),
];

/** Every literal list in a source text, as a sorted set, with its line. */
export function literalLists(text: string): Array<{ key: string; size: number; line: number }> {
  const found = new Map<number, { key: string; size: number; line: number }>();
  for (const re of LISTS) {
    for (const m of text.matchAll(re)) {
      const words = [...new Set(m[1].match(/[a-z][a-z0-9_]*/g) ?? [])].sort();
      const line = text.slice(0, m.index).split("\n").length;
      found.set(m.index!, { key: words.join(","), size: words.length, line });
    }
  }
  return [...found.values()];
}

test("the detector sees arrays, union types and SQL lists", () => {
  const keys = (t: string) => literalLists(t).map((l) => l.key);
  assert.deepEqual(keys(`const A = ["b", "a"] as const;`), ["a,b"]);
  assert.deepEqual(keys(`type T = "b" | "a" | 'c';`), ["a,b,c"]);
  assert.deepEqual(keys(`WHERE status IN ('sent', 'partial')`), ["partial,sent"]);
});

test("each enum of db/enums.ts is written out once in app/ and db/ (everything else imports it)", () => {
  const enums = (Object.entries(ENUMS) as Array<[string, unknown]>).filter((e): e is [string, readonly string[]] =>
    Array.isArray(e[1]),
  );
  assert.ok(enums.length >= 8, "db/enums.ts exports the lists");
  const byKey = new Map(enums.map(([name, values]) => [[...values].sort().join(","), name]));
  const repeats: string[] = [];
  for (const file of [...sourceFiles("app"), ...sourceFiles("db")]) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    for (const list of literalLists(text)) {
      const name = byKey.get(list.key);
      if (name && file !== ENUMS_FILE) repeats.push(`${file}:${list.line} repeats ${name}`);
    }
  }
  assert.deepEqual(repeats, []);
});

test("no list of three or more states or roles (a subset of an enum) is written out twice in app/ or db/", () => {
  // Column lists (`attributes: ["id", "name", "company"]`) may repeat; lists of stored values may not.
  const enumLists = (Object.values(ENUMS) as unknown[]).filter((v): v is readonly string[] => Array.isArray(v));
  const ofOneEnum = (key: string) => enumLists.some((values) => key.split(",").every((w) => values.includes(w)));
  const seen = new Map<string, string[]>();
  for (const file of [...sourceFiles("app"), ...sourceFiles("db")]) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    for (const list of literalLists(text)) {
      if (list.size < 3 || !ofOneEnum(list.key)) continue;
      seen.set(list.key, [...(seen.get(list.key) ?? []), `${file}:${list.line}`]);
    }
  }
  const twice = [...seen]
    .filter(([, places]) => places.length > 1)
    .map(([key, places]) => `[${key}] at ${places.join(", ")}`);
  assert.deepEqual(twice, []);
});
