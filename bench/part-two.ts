/**
 * BENCHMARKS.md "Part two (the business day)", the figures of issues 17 and 22 and the pages
 * around them, against the big tenant of bench/big-tenant.ts: each page's p99 with its
 * throughput beside it (on a 2-core machine a p99 at 20 connections is the server at
 * saturation), at the connections the table names (20 unless it says otherwise), after a
 * 2-second warm-up, 10 seconds each. The 1-minute load average is recorded beside the figures:
 * this machine is shared, so a figure means little without it.
 * `BENCH_ONLY=P2 npm run bench` runs this part alone (writes bench/results/p2.json).
 */
import os from "node:os";
import autocannon from "autocannon";
import { figure, p50Alone, processCpu, round, type Figure } from "./lib";
import { pageFigure } from "./http";
import type { RunningServer } from "../tests/helpers/server";
import type { BigTenant } from "./big-tenant";

export type Target = {
  name: string;
  path: string;
  connections: number;
  /** p99 goal in ms (null: measured only). */
  p99: number | null;
  /** p50 alone goal in ms. */
  alone?: number;
  /** Throughput goal (req/s at the target's connections). */
  rps?: number;
  method?: "GET" | "POST";
  body?: string;
  contentType?: string;
  /** The status a successful answer has (200, or 303 for a form post). */
  ok?: number;
};

const DURATION = Number(process.env.BENCH_P2_SECONDS ?? 10);

async function run(base: string, big: Pick<BigTenant, "cookie" | "origin">, t: Target, duration: number) {
  const headers: Record<string, string> = { cookie: big.cookie, origin: big.origin };
  if (t.contentType) headers["content-type"] = t.contentType;
  // A 60 s timeout: at saturation a slow answer is latency to report, not an error to drop.
  const r = await autocannon({
    url: `${base}${t.path}`,
    method: t.method ?? "GET",
    body: t.body,
    headers,
    connections: t.connections,
    duration,
    timeout: 60,
  });
  const okCount = (t.ok ?? 200) === 303 ? r["3xx"] : r["2xx"];
  const total = r.requests.total;
  return {
    rps: okCount / duration,
    p99: r.latency.p99,
    p50: r.latency.p50,
    total,
    bad: total - okCount + r.errors + r.timeouts,
  };
}

/**
 * autocannon stops at its duration with one request still in flight per connection, which
 * the server goes on answering: waiting about one slow answer's time lets that backlog finish
 * before the next figure starts (without it, one slow page's leftovers time out the next).
 */
async function drained(r: { p99: number }) {
  await new Promise((resolve) => setTimeout(resolve, Math.min(60_000, Math.max(1_000, r.p99 * 1.5))));
}

/**
 * One page (or form post) as one person feels it and at saturation: p50 alone (50 sequential
 * requests on the idle server), then p99 and throughput at the target's connections after a
 * 2 s warm-up, and the server's CPU per request; latencies also normalised to the run's floor.
 */
export async function measureTarget(
  server: RunningServer,
  big: Pick<BigTenant, "cookie" | "origin">,
  t: Target,
  floorRps: number,
): Promise<Figure[]> {
  const base = server.url;
  const out: Figure[] = [];
  const ok = t.ok ?? 200;
  const init = {
    method: t.method ?? "GET",
    body: t.body,
    headers: {
      cookie: big.cookie,
      ...(t.method === "POST" ? { origin: big.origin } : {}),
      ...(t.contentType ? { "content-type": t.contentType } : {}),
    },
  };
  // The page must answer what a user sees, or the figure measures an error page.
  const probe = await fetch(`${base}${t.path}`, { ...init, redirect: "manual" });
  if (probe.status !== ok)
    throw new Error(`${t.name}: answered ${probe.status}, not ${ok}: ${(await probe.text()).slice(0, 300)}`);
  // What the page weighs as the browser reads it (decompressed): the week board's is mostly cards.
  const bytes = (await probe.arrayBuffer().catch(() => null))?.byteLength;
  const alone = await p50Alone(`${base}${t.path}`, init);
  out.push(pageFigure(`${t.name} p50 alone`, alone, "ms", floorRps, t.alone));
  if (bytes !== undefined) out.push(figure(`${t.name} answer bytes`, bytes, "B", "measured", null));
  await drained(await run(base, big, t, 2));
  const cpuBefore = processCpu(server.child.pid);
  const r = await run(base, big, t, DURATION);
  const cpuAfter = processCpu(server.child.pid);
  await drained(r);
  const load = os.loadavg()[0];
  console.log(
    `  ${t.name}: p50 alone ${alone} ms, p99 ${r.p99} ms, p50 ${r.p50} ms, ${round(r.rps, 1)} req/s at ${t.connections} conns (load ${round(load, 1)})${r.bad ? `, ${r.bad} not ${ok}` : ""}`,
  );
  if (r.total === 0) {
    // Not one answer completed within the run: autocannon's p99 reads 0, which is no answer,
    // not a fast one. The figure is the run's length, as a lower bound, and not met.
    out.push(
      figure(
        `${t.name} p99 at ${t.connections} conns (no answer within the run: over)`,
        DURATION * 1000,
        "ms",
        t.p99 === null ? "measured" : `<= ${t.p99}`,
        false,
      ),
    );
  } else {
    out.push(pageFigure(`${t.name} p99 at ${t.connections} conns`, r.p99, "ms", floorRps, t.p99 ?? undefined, !r.bad));
  }
  out.push(pageFigure(`${t.name} throughput at ${t.connections} conns`, r.rps, "req/s", floorRps, t.rps, !r.bad));
  if (cpuBefore !== null && cpuAfter !== null && r.total)
    out.push(
      figure(`${t.name} server CPU per request`, ((cpuAfter - cpuBefore) / r.total) * 1e6, "us", "measured", null),
    );
  return out;
}

/** Ten line items of a quote, as the builder's form posts them (conform's items[i].field names). */
function quoteBody(big: Pick<BigTenant, "customerId" | "csrf">): string {
  const form = new URLSearchParams({ _csrf: big.csrf, customerId: big.customerId, title: "Bathroom remodel (bench)" });
  for (let i = 0; i < 10; i++) {
    form.set(`items[${i}].description`, `Line ${i + 1}: tile, fixtures and labour`);
    form.set(`items[${i}].quantity`, String(1 + (i % 3)));
    form.set(`items[${i}].unitPrice`, `${(125 + i * 10).toFixed(2)}`);
    form.set(`items[${i}].taxRate`, i % 2 ? "8.25" : "0");
  }
  return form.toString();
}

/** The pages part two measures on the big tenant, each with the four PAGE_MEASURES (bench/parts.ts). */
export function partTwoTargets(
  big: Pick<BigTenant, "customerId" | "weekDate" | "feedPath" | "pdfInvoiceId">,
): Target[] {
  return [
    {
      name: "P2 quote builder page GET /quotes/new?customerId=<id>",
      path: `/quotes/new?customerId=${big.customerId}`,
      connections: 20,
      p99: 100,
      alone: 40,
    },
    { name: "P2 GET /customers/<id>", path: `/customers/${big.customerId}`, connections: 20, p99: 100, alone: 40 },
    {
      name: "P2 GET /schedule?view=week (30 technicians, 600 visits, 100 crews)",
      path: `/schedule?view=week&date=${big.weekDate}`,
      connections: 20,
      p99: 150,
      alone: 40,
    },
    { name: "P2 technician's .ics feed (500 jobs in range)", path: big.feedPath, connections: 20, p99: 50 },
    { name: "P2 invoice PDF of 50 lines", path: `/invoices/${big.pdfInvoiceId}.pdf`, connections: 10, p99: 150 },
    { name: "P2 GET /reports", path: "/reports", connections: 10, p99: 300, alone: 40 },
    { name: "P2 dashboard GET /", path: "/", connections: 20, p99: 100, alone: 40 },
  ];
}

/** Quote creation: the builder's POST with 10 lines, each answered 303 to the new quote. */
export function quoteCreationTarget(big: Pick<BigTenant, "customerId" | "csrf">): Target {
  return {
    name: "P2 quote creation with 10 lines",
    path: `/quotes/new?customerId=${big.customerId}`,
    connections: 20,
    p99: null,
    rps: 200,
    alone: 40,
    method: "POST",
    body: quoteBody(big),
    contentType: "application/x-www-form-urlencoded",
    ok: 303,
  };
}

export async function benchPartTwo(server: RunningServer, big: BigTenant, floorRps: number): Promise<Figure[]> {
  const out: Figure[] = [];
  const loadBefore = os.loadavg()[0];
  // BENCH_P2_TARGETS=<regex>: only the pages whose name matches (a quick look at one figure).
  const pick = process.env.BENCH_P2_TARGETS ? new RegExp(process.env.BENCH_P2_TARGETS, "i") : null;
  for (const t of [...partTwoTargets(big), quoteCreationTarget(big)].filter((x) => !pick || pick.test(x.name)))
    out.push(...(await measureTarget(server, big, t, floorRps)));

  out.push(figure("P2 load average (1 min) before the loads", loadBefore, "", "measured", null));
  out.push(figure("P2 load average (1 min) after the loads", os.loadavg()[0], "", "measured", null));
  out.push(figure("P2 machine cores", os.cpus().length, "", "measured", null));
  return out;
}
