import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

// Migrations after the schema is distributed (0081) run on Citus's distributed tables too
// (scripts/citus-cluster.sh app-db), where Citus refuses two forms of ALTER TABLE that plain
// PostgreSQL takes (docs/decisions/493-the-app-database-on-a-citus-cluster.md):
// - ADD CONSTRAINT together with other subcommands in one statement;
// - ADD COLUMN with an unnamed PRIMARY KEY, UNIQUE, REFERENCES or CHECK constraint.
// This reads each migration's SQL as text (template parts included) and finds both.

const DIR = path.join(import.meta.dirname, "../../db/migrations");

/** The statement's subcommands: split on the commas outside parentheses. */
function subcommands(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of body) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

/** Where a migration's ALTER TABLE statements use a form Citus refuses on a distributed table. */
export function citusRefusals(sql: string): string[] {
  const found: string[] = [];
  for (const statement of sql.split(/[;`]/)) {
    const m = /ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?(\S+)([\s\S]*)/i.exec(statement);
    if (!m) continue;
    const parts = subcommands(m[2]!);
    const addsConstraint = parts.some((p) => /\bADD\s+(CONSTRAINT|PRIMARY|UNIQUE|FOREIGN|CHECK)\b/i.test(p));
    if (addsConstraint && parts.length > 1) found.push(`${m[1]}: ADD CONSTRAINT with other subcommands`);
    for (const p of parts) {
      if (!/\bADD\s+COLUMN\b/i.test(p)) continue;
      const unnamed = p.replace(/\bCONSTRAINT\s+\S+\s+(CHECK|REFERENCES|UNIQUE|PRIMARY\s+KEY)\b/gi, "");
      if (/\b(CHECK|REFERENCES|UNIQUE|PRIMARY\s+KEY)\b/i.test(unnamed))
        found.push(`${m[1]}: ADD COLUMN with an unnamed constraint: ${p.trim().split("\n")[0]}`);
    }
  }
  return found;
}

test("the check finds both forms Citus refuses, and passes their named, separate equivalents", () => {
  assert.equal(citusRefusals(`ALTER TABLE t DROP CONSTRAINT c, ADD CONSTRAINT c CHECK (x > 0);`).length, 1);
  assert.equal(citusRefusals(`ALTER TABLE t ADD COLUMN x int CHECK (x > 0), ADD COLUMN y int;`).length, 1);
  assert.equal(citusRefusals(`ALTER TABLE t ADD COLUMN x uuid REFERENCES u (id);`).length, 1);
  assert.deepEqual(
    citusRefusals(`ALTER TABLE t DROP CONSTRAINT c; ALTER TABLE t ADD CONSTRAINT c CHECK (x > 0);
      ALTER TABLE t ADD COLUMN x int CONSTRAINT t_x_check CHECK (x > 0), ADD COLUMN y numeric(6, 3) NOT NULL DEFAULT 0;`),
    [],
  );
});

test("no migration after the schema is distributed uses an ALTER TABLE form Citus refuses", () => {
  const refused: string[] = [];
  for (const file of fs.readdirSync(DIR).sort()) {
    const n = Number(file.slice(0, 4));
    if (!/^\d{4}-.*\.ts$/.test(file) || n <= 81) continue;
    const up = fs.readFileSync(path.join(DIR, file), "utf8").split(/export const down/)[0]!;
    for (const r of citusRefusals(up)) refused.push(`${file}: ${r}`);
  }
  assert.deepEqual(refused, []);
});
