import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { db, rows } from "../../db/index";
import { applyFunctions, functionFiles } from "../../db/functions";
import { MIGRATIONS } from "../../db/migrations/index";
import { BULK_WRITTEN_TABLES } from "../../db/statistics";

// SQL functions as files (docs/decisions/275): each function's one definition is
// db/functions/<name>.sql, applied by the migrate step when its content changes.

const appFunctions = () =>
  rows<{ name: string }>(
    `SELECT DISTINCT p.proname AS name FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
      ORDER BY 1`,
  );

test("every function of the database has exactly one file in db/functions, and the migrate step applied each", async () => {
  const files = functionFiles();
  const names = (await appFunctions()).map((r) => r.name);
  assert.deepEqual(
    files.map((f) => f.name),
    names,
    "db/functions/ and the database's functions differ",
  );
  const applied = await rows<{ name: string; file_hash: string }>(
    `SELECT name, file_hash FROM schema_functions ORDER BY name`,
  );
  for (const file of files) {
    const row = applied.find((r) => r.name === file.name);
    assert.ok(row, `${file.name} was never applied by the migrate step`);
    assert.equal(row.file_hash, file.hash, `${file.name}: the database holds another version than the file`);
    const overloads = await rows(`SELECT 1 FROM pg_proc WHERE pronamespace = 'public'::regnamespace AND proname = $1`, [
      file.name,
    ]);
    assert.equal(overloads.length, 1, `${file.name} has ${overloads.length} definitions`);
  }
});

test("app_refresh_statistics's file names exactly the tables an import writes in bulk", () => {
  const file = functionFiles().find((f) => f.name === "app_refresh_statistics")!;
  const listed = /ARRAY\[([^\]]*)\]/
    .exec(file.sql)![1]!
    .match(/'([a-z_]+)'/g)!
    .map((w) => w.slice(1, -1));
  assert.deepEqual([...listed].sort(), [...BULK_WRITTEN_TABLES].sort());
});

test("migrations after the functions moved to files change tables only", () => {
  const source = (name: string) => fs.readFileSync(path.join("db/migrations", `${name}.ts`), "utf8");
  const later = MIGRATIONS.map(([name]) => name).filter((name) => Number(name.slice(0, 4)) >= 130);
  for (const name of later)
    assert.doesNotMatch(source(name), /CREATE\s+(OR\s+REPLACE\s+)?(FUNCTION|PROCEDURE)/i, `${name} defines a function`);
});

test("changing a function's file and migrating applies it; an unchanged one is left alone; new arguments replace the old", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldwork-functions-"));
  const file = path.join(dir, "fieldwork_probe_fn.sql");
  const write = (sql: string) => fs.writeFileSync(file, sql);
  const apply = () => applyFunctions(db(), functionFiles(dir));
  const value = async (call: string) => (await rows<{ v: number }>(`SELECT ${call} AS v`))[0]!.v;
  try {
    write(`CREATE OR REPLACE FUNCTION fieldwork_probe_fn() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;`);
    assert.deepEqual(await apply(), ["fieldwork_probe_fn"]);
    assert.equal(await value("fieldwork_probe_fn()"), 1);
    assert.deepEqual(await apply(), [], "an unchanged file is not applied again");

    write(`CREATE OR REPLACE FUNCTION fieldwork_probe_fn() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 2; END $$;`);
    assert.deepEqual(await apply(), ["fieldwork_probe_fn"]);
    assert.equal(await value("fieldwork_probe_fn()"), 2);
    const [stored] = await rows<{ file_hash: string }>(
      `SELECT file_hash FROM schema_functions WHERE name = 'fieldwork_probe_fn'`,
    );
    assert.equal(stored!.file_hash, createHash("sha256").update(fs.readFileSync(file)).digest("hex"));

    // A rollback (or a hand edit) put another body in place: the next migrate puts the file's back.
    await db().query(
      `CREATE OR REPLACE FUNCTION fieldwork_probe_fn() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 9; END $$`,
    );
    assert.deepEqual(await apply(), ["fieldwork_probe_fn"]);
    assert.equal(await value("fieldwork_probe_fn()"), 2);

    write(
      `CREATE OR REPLACE FUNCTION fieldwork_probe_fn(p int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN p * 10; END $$;`,
    );
    assert.deepEqual(await apply(), ["fieldwork_probe_fn"]);
    assert.equal(await value("fieldwork_probe_fn(3)"), 30);
    const left = await rows<{ signature: string }>(
      `SELECT oid::regprocedure::text AS signature FROM pg_proc WHERE proname = 'fieldwork_probe_fn'`,
    );
    assert.deepEqual(
      left.map((r) => r.signature),
      ["fieldwork_probe_fn(integer)"],
    );
  } finally {
    await rows(`DROP FUNCTION IF EXISTS fieldwork_probe_fn(), fieldwork_probe_fn(int)`);
    await rows(`DELETE FROM schema_functions WHERE name = 'fieldwork_probe_fn'`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a file that drops and recreates its function to change its result columns is applied, and leaves one definition", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldwork-functions-"));
  const file = path.join(dir, "fieldwork_probe_table.sql");
  const apply = () => applyFunctions(db(), functionFiles(dir));
  const body = (columns: string, values: string) =>
    `DROP FUNCTION IF EXISTS fieldwork_probe_table(int);
CREATE OR REPLACE FUNCTION fieldwork_probe_table(p int) RETURNS TABLE(${columns}) LANGUAGE plpgsql AS $$ BEGIN RETURN QUERY SELECT ${values}; END $$;`;
  try {
    fs.writeFileSync(file, body("a int", "p"));
    assert.deepEqual(await apply(), ["fieldwork_probe_table"]);
    fs.writeFileSync(file, body("a int, b int", "p, p * 2"));
    assert.deepEqual(await apply(), ["fieldwork_probe_table"]);
    assert.deepEqual(await rows(`SELECT * FROM fieldwork_probe_table(4)`), [{ a: 4, b: 8 }]);
    const left = await rows(`SELECT 1 FROM pg_proc WHERE proname = 'fieldwork_probe_table'`);
    assert.equal(left.length, 1);
  } finally {
    await rows(`DROP FUNCTION IF EXISTS fieldwork_probe_table(int)`);
    await rows(`DELETE FROM schema_functions WHERE name = 'fieldwork_probe_table'`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
