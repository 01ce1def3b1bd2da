import pg from "pg";
import fs from "node:fs";
const c = new pg.Client(process.env.URL ?? "postgres://postgres@127.0.0.1:9700/fieldwork");
await c.connect();
const sql = fs.readFileSync(process.argv[2], "utf8");
const params = JSON.parse(process.argv[3] ?? "[]");
await c.query(`SET ROLE ${process.env.ROLE}`);
await c.query(`START TRANSACTION; SET LOCAL app.tenant_id = '${params[0]}';`);
try { const r = await c.query(sql, params); console.log("ok", r.rowCount); } catch (e) { console.log("ERR", e.message); }
await c.query("ROLLBACK");
await c.end();
