import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

// The code says what it does and why, and cites docs/decisions/ where a reader needs more:
// never a document outside this repository (the product's contract, an issue tracker).
const ROOT = path.resolve(import.meta.dirname, "../..");
const OUTSIDE = /CONTRACT|issue [0-9]/;

function files(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) files(rel, out);
    else if (/\.(ts|tsx|mjs|js|sql|sh)$/.test(e.name)) out.push(rel);
  }
  return out;
}

export function outsideCitations(text: string): number[] {
  return text.split("\n").flatMap((line, i) => (OUTSIDE.test(line) ? [i + 1] : []));
}

test("no line of app/, db/ or scripts/ cites the contract or an issue", () => {
  const found = ["app", "db", "scripts"].flatMap((dir) =>
    files(dir).flatMap((f) => outsideCitations(fs.readFileSync(path.join(ROOT, f), "utf8")).map((n) => `${f}:${n}`)),
  );
  assert.ok(files("app").length > 100, "the walk reads the app");
  assert.deepEqual(found, []);
});

test("the check finds both kinds of citation", () => {
  assert.deepEqual(outsideCitations("// CONTRACT section 12\nconst a = 1;\n// see issue 31\n"), [1, 3]);
  assert.deepEqual(outsideCitations("// docs/decisions/371 says why\n"), []);
});
