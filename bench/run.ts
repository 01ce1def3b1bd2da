/**
 * `npm run bench`: every figure of BENCHMARKS.md in one run against the production build and
 * a fresh PostgreSQL on loopback; prints one table and writes bench/results/latest.json.
 * Bounded: each load runs a fixed time or count. Run alone on a quiet machine.
 * The parts, their order and what each measures: bench/parts.ts; each runs alone with
 * `BENCH_ONLY=<key>` (writes bench/results/<key>.json), e.g. B1, B3, B4, B5, VISITS too.
 * The big tenant (bench/big-tenant.ts) is seeded once per run, for the first part that needs it
 * (P2, TIMESHEETS, EXPORT).
 * `BENCH_ONLY=B2 npm run bench` runs B2 alone (writes bench/results/b2.json);
 * `BENCH_ONLY=P2 npm run bench` runs part two alone (bench/part-two.ts, writes p2.json).
 * `BENCH_ONLY=MAIL npm run bench` runs the e-mail delivery figure alone (bench/email.ts, writes mail.json).
 * `BENCH_ONLY=JOBBER npm run bench` runs issue 19's figures alone (bench/jobber-import.ts, writes jobber.json).
 * `BENCH_ONLY=PHOTOS npm run bench` runs the job photo uploads alone (bench/photos.ts, writes photos.json).
 * `BENCH_ONLY=ACCT npm run bench` runs a year of files for the accountant alone (bench/accountant-files.ts, writes acct.json).
 * `BENCH_ONLY=EXPORT npm run bench` runs the big tenant's account export alone (bench/account-export.ts, writes export.json).
 * `BENCH_ONLY=QUOTES npm run bench` runs quote creation with 10 lines, discounts and two named rates alone (bench/quotes.ts, writes quotes.json).
 * `BENCH_ONLY=LIGHTHOUSE npm run bench` runs Lighthouse's mobile preset on six pages alone, when Lighthouse is
 * installed (LIGHTHOUSE_DIR=<folder with npm i lighthouse@12>; bench/lighthouse.ts, writes lighthouse.json).
 * `BENCH_ONLY=TIMESHEETS npm run bench` runs the team's timesheet week on the big tenant alone (bench/timesheets.ts, writes timesheets.json).
 * `BENCH_ONLY=FAIR npm run bench` runs the fairness figure alone (bench/fairness.ts: tenant B's page while tenant A
 * floods), its figures replacing theirs in latest.json (the whole run has them too).
 */
import {
  benchDatabase,
  buildApp,
  figure,
  measureFloor,
  printTable,
  productionServer,
  round,
  writeResults,
  type Figure,
} from "./lib";
import { b2Pages, benchHttp } from "./http";
import { benchStart } from "./start";
import { benchBilling, BENCH_STRIPE } from "./billing";
import { benchUser } from "./session";
import { portalTarget } from "./portal";
import { runImportBench } from "./import-lib";
import { benchOfflineSync } from "./offline-sync";
import { benchPartTwo } from "./part-two";
import { benchEmail } from "./email";
import { benchJobberImport } from "./jobber-import";
import { benchPhotos } from "./photos";
import { benchAccountantFiles } from "./accountant-files";
import { benchAccountExport } from "./account-export";
import { benchTimesheets } from "./timesheets";
import { benchFairness, benchFairnessBefore } from "./fairness";
import { benchVisitSeries } from "./visit-series";
import { benchQuotes } from "./quotes";
import { benchLighthouse } from "./lighthouse";
import { seedBigTenant, seedFigures, type BigTenant } from "./big-tenant";
import { B3 } from "./offline-sync";
import { partsToRun, type BenchPartKey } from "./parts";
import type { RunningServer } from "../tests/helpers/server";
import { closeDb } from "../db/index";

type Shared = {
  server: RunningServer;
  databaseUrl: string;
  floorRps: number;
  user: () => Promise<Awaited<ReturnType<typeof benchUser>>>;
  big: () => Promise<BigTenant>;
};

const once = <T>(make: () => Promise<T>) => {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
};

/** What each part runs: every key of bench/parts.ts has one (the type says so). */
const RUN: Record<BenchPartKey, (s: Shared) => Promise<Figure[]>> = {
  B1: async () => (await runImportBench()).figures,
  B2: async ({ server, databaseUrl, user }) => {
    const u = await user();
    return benchHttp(server, b2Pages(server.url, u, await portalTarget(databaseUrl, u)));
  },
  B3: async ({ server }) => {
    // Plain, then with visit mutations and crews of two (part three): both in one part.
    const plain = (await benchOfflineSync(server.url)).figures;
    B3.visits = true;
    const tag = " (visit mutations, crews of two)";
    const visits = (await benchOfflineSync(server.url)).figures.map((f) =>
      f.name.endsWith(tag) ? f : { ...f, name: `${f.name}${tag}` },
    );
    await closeDb();
    return [...plain, ...visits];
  },
  B4: async ({ server, databaseUrl, user }) => {
    const figures = await benchBilling(server.url, databaseUrl, (await user()).tenantId);
    await closeDb();
    return figures;
  },
  MAIL: ({ databaseUrl }) => benchEmail(databaseUrl),
  JOBBER: ({ server, databaseUrl }) =>
    benchJobberImport(server.url, databaseUrl).catch((error) => {
      console.error(`server log:\n${server.logs.join("").slice(-4000)}`);
      throw error;
    }),
  PHOTOS: ({ server }) => benchPhotos(server.url),
  ACCT: ({ server, databaseUrl }) => benchAccountantFiles(server.url, databaseUrl),
  P2: async ({ server, floorRps, big }) => benchPartTwo(server, await big(), floorRps),
  TIMESHEETS: async ({ server, databaseUrl, floorRps, big }) =>
    benchTimesheets(server, databaseUrl, floorRps, await big()),
  FAIR: async ({ server, databaseUrl }) => {
    const figures = [...(await benchFairnessBefore(databaseUrl)), ...(await benchFairness(server.url, databaseUrl))];
    await closeDb();
    return figures;
  },
  EXPORT: async ({ server, databaseUrl, big }) => benchAccountExport(server, databaseUrl, await big()),
  VISITS: async ({ databaseUrl }) => benchVisitSeries(databaseUrl),
  QUOTES: async ({ server, databaseUrl, floorRps }) => benchQuotes(server, databaseUrl, floorRps),
  LIGHTHOUSE: ({ server, databaseUrl }) => benchLighthouse(server.url, databaseUrl),
  B5: () => benchStart(),
};

async function main() {
  const started = Date.now();
  const only = process.env.BENCH_ONLY;
  const parts = partsToRun(only);
  console.log("Building the production app…");
  buildApp();
  const figures: Figure[] = [];
  /** Each part's wall time, printed at the end beside the whole run's. */
  const durations: [string, number][] = [];
  // Every part, alone or in the whole run, is measured beside this machine's bare floor of now.
  const floorRps = await measureFloor();
  console.log(`Bare node:http floor: ${floorRps} req/s`);
  figures.push(figure("bare node:http floor (this run)", floorRps, "req/s", "measured", null));
  const timed = async ({ key, title }: { key: string; title: string }, run: () => Promise<Figure[]>) => {
    console.log(`${title}…`);
    const t0 = Date.now();
    figures.push(...(await run()));
    const seconds = Math.round((Date.now() - t0) / 1000);
    durations.push([key, seconds]);
    console.log(`  (${seconds} s)`);
  };
  for (const part of parts.filter((p) => p.phase === "before")) await timed(part, () => RUN[part.key]({} as Shared));
  let postgres = "unknown";
  const shared = parts.filter((p) => p.phase === "shared");
  if (shared.length) {
    const database = await benchDatabase();
    postgres = database.version;
    const server = await productionServer({
      DATABASE_URL: database.url,
      BILLING_STRIPE_WEBHOOK_SECRET: BENCH_STRIPE.secret,
      BILLING_STRIPE_PRICE_PLANS: BENCH_STRIPE.pricePlans,
    });
    const context: Shared = {
      server,
      databaseUrl: database.url,
      floorRps,
      user: once(() => benchUser(server.url, database.url)),
      big: once(async () => {
        console.log("  seeding the big tenant…");
        const big = await seedBigTenant(server.url, database.url);
        console.log(`  seeded in ${round(big.seedSeconds, 1)} s: ${JSON.stringify(big.counts)}`);
        figures.push(...seedFigures(big));
        return big;
      }),
    };
    try {
      for (const part of shared) await timed(part, () => RUN[part.key](context));
    } finally {
      await server.stop();
      await database.stop();
    }
  }
  for (const part of parts.filter((p) => p.phase === "after")) await timed(part, () => RUN[part.key]({} as Shared));

  printTable(figures);
  const total = Math.round((Date.now() - started) / 1000);
  const longest = [...durations].sort((a, b) => b[1] - a[1]).map(([name, sec]) => `${name} ${sec} s`);
  console.log(`\nWhole run: ${total} s (${(total / 60).toFixed(1)} min); parts, longest first: ${longest.join(", ")}`);
  // The fairness part alone replaces its own figures in latest.json (the whole run has them too).
  const merged = only?.toUpperCase() === "FAIR";
  writeResults(
    only && !merged ? `${only.toLowerCase()}.json` : "latest.json",
    merged ? figures.filter((f) => f.name.startsWith("fairness")) : figures,
    { postgres, started },
    { merge: merged },
  );
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
