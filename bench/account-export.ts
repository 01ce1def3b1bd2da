/**
 * The account export of the big tenant (bench/big-tenant.ts: 50,000 customers, 100,000 jobs,
 * 100,000 invoices, 150,000 payments, 20,000 quotes): "Export everything" posted as the owner's
 * browser does, then the time until the ZIP is written (goal <= 30 s) and the serving process's
 * highest resident memory meanwhile, sampled every 100 ms from /proc (goal <= 400 MB).
 * `BENCH_ONLY=EXPORT npm run bench` runs it alone (writes bench/results/export.json).
 */
import fs from "node:fs";
import os from "node:os";
import pg from "pg";
import { figure, round, type Figure } from "./lib";
import { processTree, type RunningServer } from "../tests/helpers/server";
import type { BigTenant } from "./big-tenant";

/** The resident memory of the largest of a server's processes (the one exporting), in MB. */
function rssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  const sizes = processTree(pid).flatMap((p) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"));
      return m ? [Number(m[1]) / 1024] : [];
    } catch {
      return [];
    }
  });
  return sizes.length ? Math.max(...sizes) : null;
}

export async function benchAccountExport(
  server: RunningServer,
  databaseUrl: string,
  big: BigTenant,
): Promise<Figure[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const pid = server.child.pid;
    const rssBefore = rssMb(pid) ?? 0;
    let rssMax = rssBefore;
    const sampler = setInterval(() => {
      const v = rssMb(pid);
      if (v !== null && v > rssMax) rssMax = v;
    }, 100);
    const started = performance.now();
    const res = await fetch(`${server.url}/settings/export`, {
      method: "POST",
      headers: { cookie: big.cookie, origin: big.origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: big.csrf }).toString(),
      redirect: "manual",
    });
    if (res.status !== 303) throw new Error(`POST /settings/export answered ${res.status}`);
    type Row = { state: string; byte_size: string | null; counts: unknown };
    let row: Row | undefined;
    for (;;) {
      const result = await db.query<Row>(
        `SELECT state, byte_size, counts FROM account_exports WHERE tenant_id = $1 ORDER BY created_at DESC LIMIT 1`,
        [big.tenantId],
      );
      row = result.rows[0];
      if (row && row.state !== "running") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    if (row.state !== "ready") throw new Error(`the export ended ${row.state}`);
    const load = os.loadavg()[0];
    const mb = Number(row.byte_size) / 1024 / 1024;
    console.log(
      `  export written in ${round(seconds, 1)} s, ZIP ${round(mb, 1)} MB, server RSS ${round(rssBefore)} -> max ${round(rssMax)} MB (load ${round(load, 1)})`,
    );
    console.log(`  counts: ${JSON.stringify(row.counts)}`);
    return [
      figure(
        "EXPORT big tenant account export (Export everything -> ZIP written)",
        round(seconds, 1),
        "s",
        "<= 30",
        seconds <= 30,
      ),
      figure("EXPORT server RSS, highest during the export", round(rssMax), "MB", "<= 400", rssMax <= 400),
      figure("EXPORT ZIP size", round(mb, 1), "MB", "measured", null),
    ];
  } finally {
    await db.end();
  }
}
