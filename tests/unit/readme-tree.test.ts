import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

// Issue 26: the README's "How it is built" matches the tree. Every folder it names exists, and
// every folder of the app's layers (app/*, app/services/*, db/*, tests/*, scripts/*) and every
// top-level folder is named there, so a new or renamed folder fails here until the README says
// what it is.
const ROOT = path.resolve(import.meta.dirname, "../..");
const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
const section = readme.slice(
  readme.indexOf("## How it is built"),
  readme.indexOf("\n## ", readme.indexOf("## How it is built") + 3),
);
const block = section.slice(section.indexOf("```"), section.lastIndexOf("```"));
const IGNORED = new Set(["node_modules", "build", ".cache", ".data", "results", "screenshots"]);
const dirs = (rel: string) =>
  fs
    .readdirSync(path.join(ROOT, rel), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith(".") && !IGNORED.has(e.name))
    .map((e) => e.name);

test("the README's tree names only folders that exist", () => {
  assert.ok(block.length > 200, "the section has its tree block");
  const named = [...block.matchAll(/^\s*([a-z][\w.-]*(?:\/[\w.-]+)*\/)/gm)].map((m) => m[1]);
  assert.ok(named.length >= 10, named.join(", "));
  for (const dir of named) assert.ok(fs.existsSync(path.join(ROOT, dir)), `README names ${dir}, which does not exist`);
});

test("every folder of the layers is in the README's tree", () => {
  for (const top of dirs(".")) assert.match(block, new RegExp(`^${top}/`, "m"), `top-level ${top}/ is not in the tree`);
  for (const parent of ["app", "db", "tests", "scripts"]) {
    for (const dir of dirs(parent))
      assert.ok(block.includes(`${parent}/${dir}/`), `${parent}/${dir}/ is not in the tree`);
  }
  const services = block.slice(block.indexOf("app/services/"), block.indexOf("app/utils/"));
  for (const area of dirs("app/services")) {
    // Named as an entry of the list: "…, field (…), booking-requests, …".
    assert.match(
      services,
      new RegExp(`(?<=[\\s,])${area}(?=,|\\s\\(|$)`, "m"),
      `app/services/${area} is not named under app/services/`,
    );
  }
});
