/**
 * Fairness (BENCHMARKS.md part three): tenant B's page median while tenant A floods (6 import
 * previews of 40,000 rows, 6 reports and 6 searches in flight at once, each re-sent as soon as
 * it is answered), over B's unloaded median, same run, same server. B's page: `/customers`
 * (signed in, 30 customers), 50 sequential requests each time. Goal: <= 3.
 * Beside it, a static file's and the health check's medians tell where B's page waited (the
 * request thread's event loop, or a database connection and PostgreSQL).
 * `BENCH_ONLY=FAIR npm run bench` (merged into bench/results/latest.json; the whole run has it too)
 * or `npx tsx bench/fairness.ts` (writes bench/results/fairness.json).
 * `BENCH_FAIR_BEFORE="HEAVY_PAGES_PER_SERVER=0"` (variables, space-separated) first measures the
 * same on a second server started with those variables, in the same run: the figures before a
 * change beside the ones after it, named "fairness [HEAVY_PAGES_PER_SERVER=0]: ...".
 */
import os from "node:os";
import { closeDb, configureDb, rows } from "../db/index";
import { createTenantWithUsers } from "../scripts/seeds/factories";
import { clientFor, type Client } from "../tests/helpers/client";
import { upload } from "../tests/helpers/import";
import { benchDatabase, buildApp, figure, printTable, productionServer, round, writeResults, type Figure } from "./lib";

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

type Probe = { customers: number[]; asset: number[]; health: number[] };

/**
 * B's page, `n` times in a row; between two pages, a static file (only the request thread: its
 * time is the event loop's delay) and the health check (one trivial query: the wait for a
 * database connection and PostgreSQL's turn), so a slow page says where it waited.
 */
async function bPages(b: Client, baseUrl: string, n = 50): Promise<Probe> {
  const out: Probe = { customers: [], asset: [], health: [] };
  const time = async (into: number[], send: () => Promise<Response>) => {
    const t = performance.now();
    const res = await send();
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`B's probe answered ${res.status}`);
    into.push(performance.now() - t);
  };
  for (let i = 0; i < n; i++) {
    await time(out.customers, () => b.get("/customers"));
    await time(out.asset, () => fetch(`${baseUrl}/favicon.svg`));
    await time(out.health, () => fetch(`${baseUrl}/healthz`));
  }
  return out;
}

/**
 * One 40,000-row preview of A's alone, while B's static file is asked for every 2 ms: the
 * longest of B's waits (what one stall of the request thread costs another tenant), the median
 * of three previews.
 */
async function previewStall(a: Client, baseUrl: string, csv: string): Promise<number> {
  const longest: number[] = [];
  for (let round = 0; round < 3; round++) {
    let going = true;
    let worst = 0;
    const probe = (async () => {
      while (going) {
        const t = performance.now();
        await (await fetch(`${baseUrl}/favicon.svg`)).arrayBuffer();
        worst = Math.max(worst, performance.now() - t);
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const res = await upload(a, "customers", csv);
    await res.arrayBuffer();
    going = false;
    await probe;
    if (res.status !== 303) throw new Error(`A's preview answered ${res.status}`);
    longest.push(worst);
  }
  return median(longest);
}

export async function benchFairness(baseUrl: string, databaseUrl: string, variant = ""): Promise<Figure[]> {
  configureDb({ url: databaseUrl });
  const A = await createTenantWithUsers(`Flooding Plumbing${variant && ` ${variant}`}`);
  const B = await createTenantWithUsers(`Quiet Heating${variant && ` ${variant}`}`);
  await rows(
    `INSERT INTO customers (tenant_id, name, email, company, city)
     SELECT $1, 'Name ' || substr(md5(i::text), 1, 8), 'c' || i || '@example.com', 'Company ' || (i % 500), 'Springfield'
       FROM generate_series(1, 50000) i`,
    [A.id],
  );
  await rows(`INSERT INTO customers (tenant_id, name) SELECT $1, 'Quiet ' || i FROM generate_series(1, 30) i`, [B.id]);
  await rows(`ANALYZE customers`);
  const opts = { production: true };
  const a = await Promise.all([A.users.owner, A.users.admin, A.users.office].map((u) => clientFor(u, baseUrl, opts)));
  const b = await clientFor(B.users.office, baseUrl, opts);
  await closeDb();
  const csv = [
    "name,email,company,phone,city",
    ...Array.from({ length: 40_000 }, (_, i) => `Flood ${i},f${i}@example.net,Co ${i % 50},+1 555 ${i},Town ${i % 90}`),
  ].join("\r\n");

  await bPages(b, baseUrl, 10); // warm-up
  const stall = await previewStall(a[0], baseUrl, csv);
  const aloneLoad = os.loadavg()[0];
  const alone = await bPages(b, baseUrl);

  let flooding = true;
  const counts: Record<string, number> = {};
  const slot = async (what: string, send: () => Promise<Response>) => {
    while (flooding) {
      const res = await send();
      await res.arrayBuffer().catch(() => {});
      counts[`${what} ${res.status}`] = (counts[`${what} ${res.status}`] ?? 0) + 1;
      if (res.status === 429) await new Promise((r) => setTimeout(r, 50));
    }
  };
  const slots = [
    ...Array.from({ length: 6 }, (_, i) => slot("preview", () => upload(a[i % 3], "customers", csv))),
    ...Array.from({ length: 6 }, (_, i) => slot("report", () => a[i % 2].get("/reports"))),
    ...Array.from({ length: 6 }, (_, i) =>
      slot("search", () => a[i % 3].get(`/customers?q=${["nam", "co", "c4"][i % 3]}`)),
    ),
  ];
  await new Promise((r) => setTimeout(r, 2_000)); // the flood is under way
  const flooded = await bPages(b, baseUrl);
  const floodLoad = os.loadavg()[0];
  flooding = false;
  await Promise.all(slots);
  console.log(`A's answers during the flood${variant && ` (${variant})`}:`, counts);
  const ratio = median(flooded.customers) / median(alone.customers);
  const named = (figures: Figure[]) =>
    variant ? figures.map((f) => ({ ...f, name: f.name.replace(/^fairness/, `fairness [${variant}]`) })) : figures;
  return named([
    figure("fairness: load average (1 min), unloaded", aloneLoad, "", "measured", null),
    figure("fairness: load average (1 min), A floods", floodLoad, "", "measured", null),
    figure("fairness: B's /customers p50, unloaded", median(alone.customers), "ms", "measured", null),
    figure("fairness: B's /customers p50 while A floods", median(flooded.customers), "ms", "measured", null),
    figure("fairness: a static file p50, unloaded", median(alone.asset), "ms", "measured", null),
    figure("fairness: a static file p50 while A floods", median(flooded.asset), "ms", "measured", null),
    figure("fairness: /healthz (one query) p50, unloaded", median(alone.health), "ms", "measured", null),
    figure("fairness: /healthz (one query) p50 while A floods", median(flooded.health), "ms", "measured", null),
    figure("fairness: flooded / unloaded", round(ratio), "ratio", "<= 3", ratio <= 3),
    figure(
      "fairness: a static file's longest wait during one 40,000-row preview",
      round(stall),
      "ms",
      "measured",
      null,
    ),
  ]);
}

/**
 * The same figures on a second server started with BENCH_FAIR_BEFORE's variables (none: no
 * figures), for a before/after in one run.
 */
export async function benchFairnessBefore(databaseUrl: string): Promise<Figure[]> {
  const variant = (process.env.BENCH_FAIR_BEFORE ?? "").trim();
  if (!variant) return [];
  const vars = Object.fromEntries(
    variant.split(/\s+/).map((pair) => {
      const eq = pair.indexOf("=");
      return [pair.slice(0, eq), pair.slice(eq + 1)];
    }),
  );
  const server = await productionServer({ DATABASE_URL: databaseUrl, ...vars });
  try {
    return await benchFairness(server.url, databaseUrl, variant);
  } finally {
    await closeDb();
    await server.stop();
  }
}

async function main() {
  const started = Date.now();
  buildApp();
  const database = await benchDatabase();
  const before = await benchFairnessBefore(database.url);
  const server = await productionServer({ DATABASE_URL: database.url });
  try {
    const figures = [...before, ...(await benchFairness(server.url, database.url))];
    printTable(figures);
    writeResults("fairness.json", figures, { postgres: database.version, started });
  } finally {
    await server.stop();
    await database.stop();
  }
}

if (import.meta.filename === process.argv[1]) await main();
