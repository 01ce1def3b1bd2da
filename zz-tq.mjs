import pg from "pg";
import fs from "node:fs";
const c = new pg.Client("postgres://postgres@127.0.0.1:9700/fieldwork");
await c.connect();
for (const f of process.argv.slice(3)) {
  const sql = fs.readFileSync(f, "utf8");
  await c.query("BEGIN");
  try { const r = await c.query(sql, JSON.parse(process.argv[2])); console.log(f, "ok", r.rowCount); } catch (e) { console.log(f, "ERR", e.message); }
  await c.query("ROLLBACK");
}
await c.end();
