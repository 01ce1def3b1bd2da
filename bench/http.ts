/** B2: the HTTP figures (autocannon, 20 connections, 10 s each after a warm-up). */
import { bareServer, figure, load, normalised, p50Alone, processCpu, productionServer, type Figure } from "./lib";
import type { RunningServer } from "../tests/helpers/server";

/** autocannon against the server, with the server's CPU time per request. */
async function measured(server: RunningServer, opts: Parameters<typeof load>[0]) {
  const before = processCpu(server.child.pid);
  const r = await load(opts);
  const after = processCpu(server.child.pid);
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
  goal: { rps?: number; p99?: number; alone?: number };
};

/** A figure with its value normalised to the run's floor; its goal is judged on the normalised value. */
export function pageFigure(name: string, value: number, unit: string, floorRps: number, goal?: number, ok = true) {
  const n = normalised(value, unit, floorRps) ?? value;
  const better = unit === "ms" ? n <= (goal ?? Infinity) : n >= (goal ?? 0);
  const f = figure(
    name,
    value,
    unit,
    goal === undefined ? "measured" : `${unit === "ms" ? "<=" : ">="} ${goal}`,
    goal === undefined ? null : better && ok,
  );
  return { ...f, normalised: n };
}

/**
 * One page as one person feels it (p50 alone: 50 sequential requests on the idle server), then
 * at saturation (p99 and throughput at 20 connections after a 2 s warm-up), with the server's
 * CPU per request; the latencies also normalised to the run's bare floor.
 */
export async function benchPage(server: RunningServer, p: PageTargets, floorRps: number): Promise<Figure[]> {
  const out: Figure[] = [];
  const opts = { url: `${server.url}${p.path}`, method: p.method ?? "GET", body: p.body, headers: p.headers };
  const alone = await p50Alone(opts.url, { method: opts.method, body: opts.body, headers: opts.headers });
  await load({ ...opts, duration: 2 });
  const r = await measured(server, opts);
  if (r.non2xx || r.errors) console.warn(`  ${p.name}: ${r.non2xx} non-2xx, ${r.errors} errors of ${r.total}`);
  const ok = !r.non2xx;
  out.push(pageFigure(`${p.name} p50 alone`, alone, "ms", floorRps, p.goal.alone));
  out.push(pageFigure(`${p.name} throughput`, r.rps, "req/s", floorRps, p.goal.rps, ok));
  out.push(pageFigure(`${p.name} p99`, r.p99, "ms", floorRps, p.goal.p99, ok));
  out.push(...cpuFigure(p.name, r.cpuUs));
  return out;
}

/** Runs B2 against a started server; `pages` are the signed-in and portal targets the features provide. */
export async function benchHttp(server: RunningServer, pages: PageTargets[] = []): Promise<Figure[]> {
  const out: Figure[] = [];
  const sample = await fetch(`${server.url}/api/nope`);
  const body = await sample.text();
  const bare = await bareServer(body);
  let floorRps = 0;
  try {
    await load({ url: bare.url, duration: 2 });
    const floor = await load({ url: bare.url });
    floorRps = Math.round(floor.rps);
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
  for (const p of pages) out.push(...(await benchPage(server, p, floorRps)));
  return out;
}

export { productionServer };

/** B2's signed-in and portal pages (BENCHMARKS.md B2 and part two's "B2 again"). */
export function b2Pages(baseUrl: string, user: { cookie: string; csrf: string }, portalPath: string): PageTargets[] {
  const session = { cookie: user.cookie, origin: baseUrl };
  return [
    {
      name: "POST /ai-assistant/generate",
      path: "/ai-assistant/generate",
      method: "POST",
      body: new URLSearchParams({
        _csrf: user.csrf,
        mode: "quote",
        job_title: "Replace 50 gal water heater",
        details: "Two-story house, heater in the attic",
      }).toString(),
      headers: { ...session, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      goal: { rps: 1500, p99: 50, alone: 40 },
    },
    {
      name: "GET /import-data?type=customers",
      path: "/import-data?type=customers",
      headers: session,
      goal: { p99: 100, alone: 40 },
    },
    { name: "GET /portal/<token>", path: portalPath, goal: { p99: 100, alone: 40 } },
  ];
}
