import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

// No file of the repository builds or installs another project's program from its source: a
// third-party program (Citus, PostgreSQL, a browser) comes from its own packages, installed by
// the operator (docs/decisions/268). Scripts, docs and decisions are all checked, since a
// recipe in a document is followed as much as one in a script.
const ROOT = path.resolve(import.meta.dirname, "../..");
const SKIP = new Set(["node_modules", ".git", "build", ".data", ".cache", "public/build", "bench/results"]);
const SELF = path.relative(ROOT, import.meta.filename);

function files(dir = ""): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (SKIP.has(p) || (dir === "" && e.name.startsWith(".") && e.name !== ".ci")) continue;
    if (e.isDirectory()) out.push(...files(p));
    else if (/\.(sh|mjs|cjs|js|ts|tsx|md|json|yml|yaml|txt)$|^[^.]+$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The lines of a text that build a program from source (configure, make, a source archive). */
export function sourceBuildSteps(text: string): string[] {
  const steps = [
    /(^|[\s;&|(])\.\/configure\b/, // autotools
    /\bmake\s+(-j\s*\d*\s+)?(install|all)\b|\bmake\s+-j\s*\d/, // make, make install
    /\bcmake\s+(-S|-B|--build|\.\.)/, // cmake
    /\bgit\b[^\n|]*\b(archive|clone)\b[^\n]*\|\s*tar\b|\bgit\b[^\n|]*\bclone\b[^\n]*&&\s*(cd|make)/, // a source tree fetched to build
    /\bapt-get\s+install\b[^\n]*(-dev\b|\bbuild-essential\b|\bautoconf\b|\bbison\b|\bflex\b)/, // build dependencies
    /\bpip\s+install\b[^\n]*--no-binary|\bnpm\s+rebuild\b|\bnode-gyp\s+rebuild\b/, // forced source builds
  ];
  return text.split("\n").filter((line) => steps.some((s) => s.test(line)));
}

test("no file of the repository compiles or installs a third-party program from source", () => {
  const found: string[] = [];
  for (const file of files()) {
    if (file === SELF) continue;
    for (const line of sourceBuildSteps(fs.readFileSync(path.join(ROOT, file), "utf8")))
      found.push(`${file}: ${line.trim()}`);
  }
  assert.deepEqual(found, [], found.join("\n"));
});

test("the check finds the build steps the Citus recipe had", () => {
  const recipe = [
    "  apt-get install -y postgresql-server-dev-15 libcurl4-openssl-dev autoconf flex bison make gcc",
    '  git -C "$MIRROR" archive "$TAG" | tar -x -C "$SRC"',
    '  PG_CONFIG="$PGBIN/pg_config" nice -n 15 ./configure --without-libcurl',
    "  nice -n 15 make -j2 with_llvm=no",
    "  make install with_llvm=no",
    "cmake -S . -B out && cmake --build out",
  ];
  assert.equal(sourceBuildSteps(recipe.join("\n")).length, recipe.length);
  // Installing a distribution's package, or starting an installed program, is not a build.
  assert.deepEqual(sourceBuildSteps("apt-get install -y chromium\npg_ctl -D data start\nnpm ci"), []);
});
