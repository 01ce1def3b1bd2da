/**
 * The first paint on a phone: Lighthouse's mobile preset (its default: a mid-range phone, slow
 * 4G and a 4x slower CPU, simulated) on the six main pages, signed in: the dashboard, a list
 * (customers), a record (a quote), the schedule, the portal and the field app. Each page is
 * reported with its performance score (goal >= 95; the median of LIGHTHOUSE_RUNS runs), first contentful paint, the JavaScript it
 * transfers, the unused part of it and its render-blocking resources.
 *
 * Lighthouse is not a dependency (too heavy for CI's `npm ci`): the part uses
 * LIGHTHOUSE_DIR (a folder where `npm i lighthouse@12` ran) or `npx --no-install lighthouse`, and
 * with neither says "not measured: lighthouse not installed". Chromium: CHROME_PATH, else
 * /usr/bin/chromium. `BENCH_ONLY=LIGHTHOUSE npm run bench` (writes bench/results/lighthouse.json).
 */
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, configureDb, one } from "../db/index";
import { createCustomer, createJob, createQuote, createTenantWithUsers } from "../scripts/seeds/factories";
import { signPortalToken } from "../app/services/portal/links.server";
import { clientFor } from "../tests/helpers/client";
import { figure, round, type Figure } from "./lib";

export const LIGHTHOUSE_GOAL = 95;

/** The six pages, as the part names them. */
export const LIGHTHOUSE_PAGES = ["dashboard", "customers", "a quote", "schedule", "portal", "field app"] as const;

export const NOT_INSTALLED = "not measured: lighthouse not installed";

/** The command that runs Lighthouse here, or null when it is not installed. */
export function lighthouseCommand(env: NodeJS.ProcessEnv = process.env): string[] | null {
  const dir = env.LIGHTHOUSE_DIR;
  if (dir) {
    const bin = path.join(dir, "node_modules/lighthouse/cli/index.js");
    return fs.existsSync(bin) ? [process.execPath, bin] : null;
  }
  try {
    execFileSync("npx", ["--no-install", "lighthouse", "--version"], { stdio: "ignore", timeout: 60_000 });
    return ["npx", "--no-install", "lighthouse"];
  } catch {
    return null;
  }
}

type Page = { name: (typeof LIGHTHOUSE_PAGES)[number]; path: string; cookie: string | null };

/** A small tenant with something on every page: customers, a sent quote, a week of visits, a portal link. */
export async function lighthousePages(baseUrl: string, databaseUrl: string): Promise<Page[]> {
  process.env.DATABASE_URL = databaseUrl;
  configureDb({ url: databaseUrl });
  const t = await createTenantWithUsers("Lighthouse Plumbing");
  const customers = [];
  for (let i = 0; i < 20; i++) customers.push(await createCustomer(t.id));
  const quote = await createQuote(t.id, { customerId: customers[0]!.id });
  for (let i = 0; i < 12; i++) {
    const start = new Date(Date.now() + ((i % 5) - 1) * 86_400_000);
    start.setUTCHours(14 + (i % 3), 0, 0, 0);
    await createJob(t.id, {
      customerId: customers[i % customers.length]!.id,
      assigneeId: t.users.technician.id,
      scheduledStart: start,
    });
  }
  const link = await one<{ id: string }>(
    `INSERT INTO portal_links (tenant_id, customer_id, created_by, expires_at) VALUES ($1, $2, $3, now() + interval '30 days') RETURNING id`,
    [t.id, customers[0]!.id, t.users.owner.id],
  );
  const owner = (await clientFor(t.users.owner, baseUrl, { production: true })).cookieHeader();
  const technician = (await clientFor(t.users.technician, baseUrl, { production: true })).cookieHeader();
  await closeDb();
  return [
    { name: "dashboard", path: "/", cookie: owner },
    { name: "customers", path: "/customers", cookie: owner },
    { name: "a quote", path: `/quotes/${(quote as { id: string }).id}`, cookie: owner },
    { name: "schedule", path: "/schedule", cookie: owner },
    { name: "portal", path: `/portal/${signPortalToken(t.id, link!.id)}`, cookie: null },
    { name: "field app", path: "/field", cookie: technician },
  ];
}

type Audit = { numericValue?: number; details?: { overallSavingsBytes?: number; items?: unknown[] } };
export type LighthouseResult = {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  speedIndexMs: number;
  cls: number;
  totalKiB: number;
  scriptKiB: number;
  unusedJsKiB: number;
  renderBlocking: number;
  requests: number;
};

/** The figures of one Lighthouse report (its JSON). */
export function readReport(report: {
  categories: { performance: { score: number | null } };
  audits: Record<string, Audit | undefined>;
}): LighthouseResult {
  const a = report.audits;
  const items = (key: string) => (a[key]?.details?.items ?? []) as { resourceType?: string; transferSize?: number }[];
  const scriptBytes = items("network-requests")
    .filter((r) => r.resourceType === "Script")
    .reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
  return {
    score: Math.round((report.categories.performance.score ?? 0) * 100),
    fcpMs: Math.round(a["first-contentful-paint"]?.numericValue ?? NaN),
    lcpMs: Math.round(a["largest-contentful-paint"]?.numericValue ?? NaN),
    tbtMs: Math.round(a["total-blocking-time"]?.numericValue ?? NaN),
    speedIndexMs: Math.round(a["speed-index"]?.numericValue ?? NaN),
    cls: round(a["cumulative-layout-shift"]?.numericValue ?? NaN, 3),
    totalKiB: round((a["total-byte-weight"]?.numericValue ?? 0) / 1024, 1),
    scriptKiB: round(scriptBytes / 1024, 1),
    unusedJsKiB: round((a["unused-javascript"]?.details?.overallSavingsBytes ?? 0) / 1024, 1),
    renderBlocking: items("render-blocking-resources").length,
    requests: items("network-requests").length,
  };
}

/**
 * LIGHTHOUSE_KEEP=<folder> keeps each page's whole report there (<page>.json) and its trace
 * (<page>.trace.json), to see where its time goes.
 */
function runLighthouse(command: string[], page: Page, url: string): Promise<LighthouseResult> {
  const cookie = page.cookie;
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fieldservice-lh-")), "report.json");
  const args = [
    ...command.slice(1),
    url,
    "--only-categories=performance",
    "--output=json",
    `--output-path=${out}`,
    "--quiet",
    ...(process.env.LIGHTHOUSE_KEEP ? ["--save-assets"] : []),
    "--chrome-flags=--headless=new --no-sandbox",
    ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
  ];
  return new Promise((resolve, reject) => {
    execFile(
      command[0]!,
      args,
      {
        env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
        timeout: 180_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, _stdout, stderr) => {
        try {
          if (error) throw new Error(`lighthouse ${url}: ${error.message}\n${stderr.slice(-2000)}`);
          const keep = process.env.LIGHTHOUSE_KEEP;
          if (keep) {
            const base = page.name.replace(/\W+/g, "-");
            fs.copyFileSync(out, path.join(keep, `${base}.json`));
            // --save-assets writes the trace beside the report: kept to see when each paint and script came.
            for (const f of fs.readdirSync(path.dirname(out)).filter((n) => n.endsWith(".trace.json")))
              fs.copyFileSync(path.join(path.dirname(out), f), path.join(keep, `${base}.trace.json`));
          }
          resolve(readReport(JSON.parse(fs.readFileSync(out, "utf8"))));
        } catch (e) {
          reject(e as Error);
        } finally {
          fs.rmSync(path.dirname(out), { recursive: true, force: true });
        }
      },
    );
  });
}

/**
 * How many times each page is measured (LIGHTHOUSE_RUNS, default 3): the figures are those of the
 * run with the median score. One run's score moved by 10 points between two runs of the same
 * page and code on this machine (its total blocking time is the page's observed long tasks times
 * four, and a shared machine stretches them); Lighthouse's own guidance on variability is to run
 * it several times and take the median run.
 */
export const LIGHTHOUSE_RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3) || 3);

/** The run with the median score (of an even number, the lower middle); ties by the shorter blocking time. */
export function medianRun(runs: LighthouseResult[]): LighthouseResult {
  const sorted = [...runs].sort((a, b) => a.score - b.score || b.tbtMs - a.tbtMs);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** How many times a page is tried when Lighthouse fails to record its trace. */
export const LIGHTHOUSE_TRIES = 3;

/**
 * Lighthouse now and then fails to record a page load's trace ("Something went wrong with
 * recording the trace", NO_NAVSTART, seen on a quiet machine): such a run is tried again, and a
 * page that fails every time comes back as its last error.
 */
export async function lighthouseWithRetries(
  command: string[],
  page: Page,
  url: string,
): Promise<LighthouseResult | Error> {
  let last = new Error("not run");
  for (let i = 0; i < LIGHTHOUSE_TRIES; i++) {
    try {
      return await runLighthouse(command, page, url);
    } catch (e) {
      last = e as Error;
      console.log(
        `  ${page.name}: Lighthouse failed (try ${i + 1} of ${LIGHTHOUSE_TRIES}): ${last.message.split("\n")[0].slice(0, 200)}`,
      );
    }
  }
  return last;
}

export async function benchLighthouse(baseUrl: string, databaseUrl: string): Promise<Figure[]> {
  const command = lighthouseCommand();
  if (!command) {
    console.log(
      `  Lighthouse mobile performance: ${NOT_INSTALLED} (npm i lighthouse@12 in a folder, LIGHTHOUSE_DIR=it)`,
    );
    return [figure(`Lighthouse mobile performance: ${NOT_INSTALLED}`, NaN, "", `>= ${LIGHTHOUSE_GOAL}`, null)];
  }
  const pages = await lighthousePages(baseUrl, databaseUrl);
  const figures: Figure[] = [];
  for (const page of pages) {
    // One warm-up request, so the first page does not pay for the server's cold start.
    await fetch(`${baseUrl}${page.path}`, { headers: page.cookie ? { cookie: page.cookie } : {} });
    const runs: LighthouseResult[] = [];
    let r: LighthouseResult | Error = new Error("not run");
    for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
      r = await lighthouseWithRetries(command, page, `${baseUrl}${page.path}`);
      if (!(r instanceof Error)) runs.push(r);
    }
    if (runs.length) r = medianRun(runs);
    const name = `LH ${page.name} Lighthouse mobile performance`;
    if (r instanceof Error) {
      // A page Lighthouse could not measure is a figure that failed, not a run that stops.
      console.log(`  ${page.name} (${page.path.slice(0, 40)}): not measured: ${r.message.split("\n")[0]}`);
      figures.push(
        figure(
          `${name}: not measured (Lighthouse failed ${LIGHTHOUSE_TRIES} times)`,
          NaN,
          "score",
          `>= ${LIGHTHOUSE_GOAL}`,
          false,
        ),
      );
      continue;
    }
    const scores = runs.map((x) => x.score);
    console.log(
      `  ${page.name} (${page.path.slice(0, 40)}): scores ${scores.join(", ")}; median run ${JSON.stringify(r)}`,
    );
    figures.push(
      figure(name, r.score, "score", `>= ${LIGHTHOUSE_GOAL}`, r.score >= LIGHTHOUSE_GOAL),
      figure(`LH ${page.name} lowest score of ${runs.length} runs`, Math.min(...scores), "score", "-", null),
      figure(`LH ${page.name} highest score of ${runs.length} runs`, Math.max(...scores), "score", "-", null),
      figure(`LH ${page.name} first contentful paint (simulated slow 4G)`, r.fcpMs, "ms", "-", null),
      figure(`LH ${page.name} largest contentful paint`, r.lcpMs, "ms", "-", null),
      figure(`LH ${page.name} total blocking time`, r.tbtMs, "ms", "-", null),
      figure(`LH ${page.name} JavaScript transferred`, r.scriptKiB, "KiB", "-", null),
      figure(`LH ${page.name} unused JavaScript`, r.unusedJsKiB, "KiB", "-", null),
      figure(`LH ${page.name} render-blocking resources`, r.renderBlocking, "requests", "-", null),
    );
  }
  figures.push(figure("LH load average while measured (1 min)", os.loadavg()[0]!, "", "-", null));
  return figures;
}
