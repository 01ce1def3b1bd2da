/**
 * `npm run bench`: every figure of BENCHMARKS.md in one run against the production build and
 * a fresh PostgreSQL on loopback; prints one table and writes bench/results/latest.json.
 * Bounded: each load runs a fixed time or count. Run alone on a quiet machine.
 * `BENCH_ONLY=B2 npm run bench` runs B2 alone (writes bench/results/b2.json);
 * `BENCH_ONLY=P2 npm run bench` runs part two alone (bench/part-two.ts, writes p2.json).
 * `BENCH_ONLY=MAIL npm run bench` runs the e-mail delivery figure alone (bench/email.ts, writes mail.json).
 * `BENCH_ONLY=JOBBER npm run bench` runs issue 19's figures alone (bench/jobber-import.ts, writes jobber.json).
 * `BENCH_ONLY=PHOTOS npm run bench` runs the job photo uploads alone (bench/photos.ts, writes photos.json).
 * `BENCH_ONLY=ACCT npm run bench` runs a year of files for the accountant alone (bench/accountant-files.ts, writes acct.json).
 * `BENCH_ONLY=EXPORT npm run bench` runs the big tenant's account export alone (bench/account-export.ts, writes export.json).
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
  writeResults,
  type Figure,
} from "./lib";
import { benchHttp } from "./http";
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
import { closeDb } from "../db/index";

async function main() {
  const started = Date.now();
  console.log("Building the production app…");
  buildApp();
  const figures: Figure[] = [];
  const only = process.env.BENCH_ONLY;
  // Every part, alone or in the whole run, is measured beside this machine's bare floor of now.
  const floorRps = await measureFloor();
  console.log(`Bare node:http floor: ${floorRps} req/s`);
  figures.push(figure("bare node:http floor (this run)", floorRps, "req/s", "measured", null));
  if (!only) {
    console.log("B1 import (its own database and server)…");
    figures.push(...(await runImportBench()).figures);
  }
  const database = await benchDatabase();
  const server = await productionServer({
    DATABASE_URL: database.url,
    BILLING_STRIPE_WEBHOOK_SECRET: BENCH_STRIPE.secret,
    BILLING_STRIPE_PRICE_PLANS: BENCH_STRIPE.pricePlans,
  });
  try {
    if (!only || only === "B2") {
      const user = await benchUser(server.url, database.url);
      const session = { cookie: user.cookie, origin: server.url };
      console.log("B2 HTTP…");
      figures.push(
        ...(await benchHttp(server, [
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
            goal: { rps: 1500, p99: 50 },
          },
          {
            name: "GET /import-data?type=customers",
            path: "/import-data?type=customers",
            headers: session,
            goal: { p99: 100 },
          },
          { name: "GET /portal/<token>", path: await portalTarget(database.url, user), goal: { p99: 100 } },
        ])),
      );
      if (!only) {
        console.log("B3 offline sync…");
        figures.push(...(await benchOfflineSync(server.url)).figures);
        await closeDb();
        console.log("B4 billing webhook…");
        figures.push(...(await benchBilling(server.url, database.url, user.tenantId)));
      }
    }
    if (!only || only === "MAIL") {
      console.log("E-mail delivery (issue 18: two app servers, a loopback SMTP server)…");
      figures.push(...(await benchEmail(database.url)));
    }
    if (!only || only === "JOBBER") {
      console.log("Issue 19: a 50,000-row Jobber client export (about 20 MB) and the mapping step…");
      figures.push(
        ...(await benchJobberImport(server.url, database.url).catch((error) => {
          console.error(`server log:\n${server.logs.join("").slice(-4000)}`);
          throw error;
        })),
      );
    }
    if (!only || only === "PHOTOS") {
      console.log("Photos (issue 21: 200 photos of 500 KB by 20 devices at once)…");
      figures.push(...(await benchPhotos(server.url)));
    }
    if (!only || only === "ACCT") {
      console.log("A year of files for the accountant (issue 36: QuickBooks Online, Xero, QuickBooks Desktop)…");
      figures.push(...(await benchAccountantFiles(server.url, database.url)));
    }
    if (!only || only === "P2") {
      console.log(
        "P2 the business day (a tenant of 50,000 customers, 100,000 jobs, 100,000 invoices, 150,000 payments)…",
      );
      figures.push(...(await benchPartTwo(server, database.url, floorRps)));
    }
    if (only === "TIMESHEETS") {
      console.log("Timesheets (issue 37: the team's week of 30 technicians on the big tenant)…");
      figures.push(...(await benchTimesheets(server, database.url, floorRps)));
    }
    if (!only || only === "FAIR") {
      console.log("Fairness (issue 31: tenant B's page while tenant A floods with previews, reports and searches)…");
      figures.push(...(await benchFairnessBefore(database.url)));
      figures.push(...(await benchFairness(server.url, database.url)));
      await closeDb();
    }
    if (only === "EXPORT") {
      console.log("The big tenant's account export (one ZIP of 50,000 customers, 100,000 jobs and invoices)…");
      figures.push(...(await benchAccountExport(server, database.url)));
    }
  } finally {
    await server.stop();
    await database.stop();
  }
  if (!only) {
    console.log("B5 start…");
    figures.push(...(await benchStart()));
  }

  printTable(figures);
  const merged = only === "FAIR";
  writeResults(
    only && !merged ? `${only.toLowerCase()}.json` : "latest.json",
    merged ? figures.filter((f) => f.name.startsWith("fairness")) : figures,
    { postgres: database.version, started },
    { merge: merged },
  );
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
