import assert from "node:assert/strict";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { cruise } from "dependency-cruiser";
import { ESLint } from "eslint";

// The house checks that `npm test` runs before the tests (tests/run.ts) catch what they are for:
// each is shown failing once on code written to break it (issue 26).
const ROOT = path.resolve(import.meta.dirname, "../..");

test("the lint fails on an unused variable, a hook called conditionally and a label without text", async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(
    `import { useState } from "react";
export function Broken({ on }: { on: boolean }) {
  const unused = 1;
  if (on) useState(0);
  return <label><input type="checkbox" /></label>;
}
`,
    { filePath: path.join(ROOT, "app/components/broken-example.tsx") },
  );
  const rules = result.messages.map((m) => m.ruleId);
  assert.ok(rules.includes("@typescript-eslint/no-unused-vars"), JSON.stringify(rules));
  assert.ok(rules.includes("react-hooks/rules-of-hooks"), JSON.stringify(rules));
  assert.ok(rules.includes("jsx-a11y/label-has-associated-control"), JSON.stringify(rules));
  assert.ok(result.errorCount >= 3);
});

test("the layer and cycle check fails on a service importing the boundary, db importing the app, and a cycle", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldwork-layers-"));
  try {
    const write = (file: string, body: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), body);
    };
    write("app/http/guard.server.ts", `export const guard = 1;\n`);
    write(
      "app/services/quotes/quotes.server.ts",
      `import { guard } from "../../http/guard.server";\nexport const quotes = guard;\n`,
    );
    write("db/index.ts", `import { quotes } from "../app/services/quotes/quotes.server";\nexport const db = quotes;\n`);
    write("app/components/a.tsx", `import { b } from "./b";\nexport const a = () => b;\n`);
    write("app/components/b.tsx", `import { a } from "./a";\nexport const b = () => a;\n`);
    const ruleSet = createRequire(import.meta.url)(path.join(ROOT, ".dependency-cruiser.cjs"));
    const previous = process.cwd();
    process.chdir(dir);
    let result;
    try {
      result = await cruise(["app", "db"], {
        validate: true,
        ruleSet: { forbidden: ruleSet.forbidden },
        outputType: "json",
      });
    } finally {
      process.chdir(previous);
    }
    const summary = JSON.parse(String(result.output)).summary as {
      violations: Array<{ rule: { name: string }; from: string; to: string }>;
    };
    const broken = new Set(summary.violations.map((v) => v.rule.name));
    assert.deepEqual(
      [...broken].sort(),
      ["db-imports-nothing-of-the-app", "no-cycles", "services-below-the-boundary"],
      JSON.stringify(summary.violations),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** Files (from the root) under `dir` whose names end with one of `ends`. */
function filesUnder(dir: string, ends: string[]): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, d), { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (ends.some((x) => e.name.endsWith(x)) && !e.name.endsWith(".d.ts")) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

test("the portal, settings, billing overview and booking request services read and write through the models; raw SQL says why", () => {
  // STYLE.md: ordinary reads and writes go through db/models; raw SQL stays for set-based,
  // bulk or report queries, with a comment saying why ("Raw SQL on purpose: ...") just above.
  const files = [
    ...filesUnder("app/services/portal", [".server.ts"]),
    ...filesUnder("app/services/company", [".server.ts"]),
    ...filesUnder("app/services/booking-requests", [".server.ts"]),
    "app/services/integrations/settings.server.ts",
    "app/services/billing/overview.server.ts",
  ];
  const unexplained: string[] = [];
  for (const file of files) {
    const lines = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (!/\b(one|rows)(<[^>]*>)?\(|\.query\(/.test(line) || /^\s*(\/\/|\*)/.test(line)) return;
      const above = lines.slice(Math.max(0, i - 10), i).join("\n");
      if (!/Raw SQL on purpose/.test(above)) unexplained.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(unexplained, [], "use the models (db/models), or say why the SQL is raw");
});

test("configuration only through env() and explicit options: app/ and db/ read no process.env outside app/utils/env.server.ts", () => {
  // Issue 26 point 3. Scripts' entry points (scripts/, bench/) and the test helpers read the
  // environment and pass options on (configureDb, parseEnv); the app reads env(); db/ takes
  // explicit options only.
  const files = [
    ...filesUnder("app", [".ts", ".tsx", ".mjs", ".js"]),
    ...filesUnder("db", [".ts", ".mjs", ".js"]),
  ].filter((f) => f !== path.join("app", "utils", "env.server.ts"));
  const readers = files.filter((file) => {
    const code = fs
      .readFileSync(path.join(ROOT, file), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
    return /\bprocess\s*(\.\s*env\b|\[\s*["'`]env["'`]\s*\])|\{\s*env\b[^}]*\}\s*=\s*process\b/.test(code);
  });
  assert.deepEqual(readers, [], "read configuration through env() (app) or take it as options (db)");
});

test("forms use conform: the hand-written form parser (app/http/form.server.ts) is gone and nothing imports it", () => {
  // Issue 15: every route module's forms use conform (app/http/conform.server.ts, decision 115).
  assert.equal(fs.existsSync(path.join(ROOT, "app/http/form.server.ts")), false);
  const importers = filesUnder("app", [".ts", ".tsx"]).filter((f) =>
    /["']~\/http\/form\.server["']|http\/form\.server["']/.test(fs.readFileSync(path.join(ROOT, f), "utf8")),
  );
  assert.deepEqual(importers, []);
});
