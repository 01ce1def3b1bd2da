/** B2: the HTTP figures (autocannon, 20 connections, 10 s each after a warm-up). */
import fs from "node:fs";
import http from "node:http";
import { freePort } from "../db/embedded";
import { figure, load, productionServer, type Figure } from "./lib";
import type { RunningServer } from "../tests/helpers/server";

/** A plain node:http server answering the same envelope bytes: the floor for /api/nope. */
async function bareFloor(body: string): Promise<{ url: string; close: () => void }> {
  const port = await freePort();
  const server = http.createServer((_req, res) => {
    res.writeHead(404, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
    });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/**
 * CPU seconds (user + system) the serving process has used so far, or null off Linux. Per
 * request it says what a route costs the server even when other work shares the machine and
 * moves req/s and p99 around (docs/decisions/114).
 */
function serverCpu(server: RunningServer): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${server.child.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

/** autocannon against the server, with the server's CPU time per request. */
async function measured(server: RunningServer, opts: Parameters<typeof load>[0]) {
  const before = serverCpu(server);
  const r = await load(opts);
  const after = serverCpu(server);
  return { ...r, cpuUs: before === null || after === null || !r.total ? null : ((after - before) / r.total) * 1e6 };
}

const cpuFigure = (name: string, cpuUs: number | null) =>
  cpuUs === null ? [] : [figure(`${name} server CPU per request`, cpuUs, "us", "measured", null)];

export type PageTargets = {
  name: string;
  path: string;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  goal: { rps?: number; p99?: number };
};

/** Runs B2 against a started server; `pages` are the signed-in and portal targets the features provide. */
export async function benchHttp(server: RunningServer, pages: PageTargets[] = []): Promise<Figure[]> {
  const out: Figure[] = [];
  const sample = await fetch(`${server.url}/api/nope`);
  const body = await sample.text();
  const bare = await bareFloor(body);
  try {
    await load({ url: bare.url, duration: 2 });
    const floor = await load({ url: bare.url });
    await load({ url: `${server.url}/api/nope`, duration: 2 });
    const nope = await measured(server, { url: `${server.url}/api/nope` });
    out.push(figure("bare node:http floor", floor.rps, "req/s", "measured", null));
    out.push(
      figure("GET /api/nope", nope.rps, "req/s", ">= 20% of the bare floor", nope.rps >= 0.2 * floor.rps, {
        name: "bare node:http floor",
        value: Math.round(floor.rps),
        unit: "req/s",
      }),
    );
    out.push(
      figure("GET /api/nope / bare floor", nope.rps / floor.rps, "ratio", ">= 0.20", nope.rps / floor.rps >= 0.2),
    );
    out.push(...cpuFigure("GET /api/nope", nope.cpuUs));
  } finally {
    bare.close();
  }
  for (const p of pages) {
    const opts = { url: `${server.url}${p.path}`, method: p.method ?? "GET", body: p.body, headers: p.headers };
    await load({ ...opts, duration: 2 });
    const r = await measured(server, opts);
    if (r.non2xx || r.errors) console.warn(`  ${p.name}: ${r.non2xx} non-2xx, ${r.errors} errors of ${r.total}`);
    if (p.goal.rps !== undefined)
      out.push(figure(`${p.name} throughput`, r.rps, "req/s", `>= ${p.goal.rps}`, r.rps >= p.goal.rps && !r.non2xx));
    if (p.goal.p99 !== undefined)
      out.push(figure(`${p.name} p99`, r.p99, "ms", `<= ${p.goal.p99}`, r.p99 <= p.goal.p99 && !r.non2xx));
    out.push(...cpuFigure(p.name, r.cpuUs));
  }
  return out;
}

export { productionServer };
