/**
 * The parts of `npm run bench`, in the order the whole run takes them, each also runnable alone
 * (`BENCH_ONLY=<key>`), and which rows of BENCHMARKS.md parts two and three each one measures
 * (tests/unit/bench-parts.test.ts checks that every row of those tables is named here, so a
 * figure added to BENCHMARKS.md without a part to measure it fails a test, not a run).
 *
 * Kept free of the parts' own modules (a plain list), so the check needs no database or build.
 */

/** A page figure reports these four numbers (bench/http.ts benchPage, bench/part-two.ts). */
export const PAGE_MEASURES = ["p50 alone", "p99", "throughput", "server CPU per request"] as const;

export type BenchPartKey =
  | "B1"
  | "B2"
  | "B3"
  | "B4"
  | "MAIL"
  | "JOBBER"
  | "PHOTOS"
  | "ACCT"
  | "P2"
  | "TIMESHEETS"
  | "FAIR"
  | "EXPORT"
  | "VISITS"
  | "QUOTES"
  | "LIGHTHOUSE"
  | "B5";

export type BenchPart = {
  key: BenchPartKey;
  /** What the part measures, as the run announces it. */
  title: string;
  /**
   * When it runs in the whole run: `own` parts start their own database and server (before the
   * shared one starts, or after it stops for B5); `shared` ones use the run's server.
   */
  phase: "before" | "shared" | "after";
  /** The files that name its figures (the check looks for each covered figure's name there). */
  files: string[];
};

export const BENCH_PARTS: BenchPart[] = [
  { key: "B1", title: "B1 import (its own database and server)", phase: "before", files: ["bench/import-lib.ts"] },
  {
    key: "B2",
    title: "B2 HTTP, served by remix-serve beside the bare floor",
    phase: "shared",
    files: ["bench/http.ts"],
  },
  {
    key: "B3",
    title: "B3 offline sync (plain, then with visit mutations and crews)",
    phase: "shared",
    files: ["bench/offline-sync.ts", "bench/run.ts"],
  },
  { key: "B4", title: "B4 billing webhook", phase: "shared", files: ["bench/billing.ts"] },
  {
    key: "MAIL",
    title: "E-mail delivery (two app servers, a loopback SMTP server)",
    phase: "shared",
    files: ["bench/email.ts"],
  },
  {
    key: "JOBBER",
    title: "A 50,000-row Jobber client export (about 20 MB) and the mapping step",
    phase: "shared",
    files: ["bench/jobber-import.ts"],
  },
  {
    key: "PHOTOS",
    title: "Photos (200 photos of 500 KB by 20 devices at once)",
    phase: "shared",
    files: ["bench/photos.ts"],
  },
  {
    key: "ACCT",
    title: "A year of files for the accountant (QuickBooks Online, Xero, QuickBooks Desktop)",
    phase: "shared",
    files: ["bench/accountant-files.ts"],
  },
  {
    key: "P2",
    title: "P2 the business day (a tenant of 50,000 customers, 100,000 jobs, 100,000 invoices, 150,000 payments)",
    phase: "shared",
    files: ["bench/part-two.ts"],
  },
  {
    key: "TIMESHEETS",
    title: "Timesheets (the team's week of 30 technicians on the big tenant)",
    phase: "shared",
    files: ["bench/timesheets.ts"],
  },
  {
    key: "FAIR",
    title: "Fairness (tenant B's page while tenant A floods)",
    phase: "shared",
    files: ["bench/fairness.ts"],
  },
  {
    key: "EXPORT",
    title: "The big tenant's account export (one ZIP)",
    phase: "shared",
    files: ["bench/account-export.ts"],
  },
  {
    key: "VISITS",
    title: "Recurring visits: a 5-year series created, the horizon worker",
    phase: "shared",
    files: ["bench/visit-series.ts"],
  },
  {
    key: "QUOTES",
    title: "Quote creation with 10 lines, discounts and two named rates",
    phase: "shared",
    files: ["bench/quotes.ts"],
  },
  {
    key: "LIGHTHOUSE",
    title: "Lighthouse mobile performance (dashboard, customers, a quote, schedule, portal, field app)",
    phase: "shared",
    files: ["bench/lighthouse.ts"],
  },
  { key: "B5", title: "B5 start", phase: "after", files: ["bench/start.ts"] },
];

/**
 * A row of BENCHMARKS.md part two or three (its first cell, as written there) and what measures
 * it: the part, and for a page figure the page's name as the part reports it (each page is
 * reported with the four PAGE_MEASURES).
 */
export type Coverage = { part: BenchPartKey; pages?: string[]; figures?: string[] };
type Covered = Coverage | Coverage[];

export const PART_TWO: Record<string, Covered> = {
  "B2 again, served by `remix-serve`, beside the bare floor": {
    part: "B2",
    pages: ["POST /ai-assistant/generate", "GET /import-data?type=customers", "GET /portal/<token>"],
  },
  "quote builder page, `/customers/<id>` p99": {
    part: "P2",
    pages: ["P2 quote builder page GET /quotes/new?customerId=<id>", "P2 GET /customers/<id>"],
  },
  "quote creation with 10 lines": { part: "P2", pages: ["P2 quote creation with 10 lines"] },
  "`/schedule?view=week` (30 technicians, 600 jobs that week) p99": {
    part: "P2",
    pages: ["P2 GET /schedule?view=week (30 technicians, 600 visits, 100 crews)"],
  },
  "a technician's `.ics` feed with 500 jobs in range": {
    part: "P2",
    pages: ["P2 technician's .ics feed (500 jobs in range)"],
  },
  "50,000-row Jobber client export (36 columns) preview": {
    part: "JOBBER",
    figures: ["Jobber client export preview", "Jobber commit / copy floor"],
  },
  "mapping step for a 20 MB file": { part: "JOBBER", figures: ["mapping step"] },
  "2,000 queued e-mails to the loopback SMTP server, two app servers": {
    part: "MAIL",
    figures: ["e-mails lost", "e-mails doubled"],
  },
  "invoice PDF of 50 lines, p99 at 10 connections": { part: "P2", pages: ["P2 invoice PDF of 50 lines"] },
  "200 photos of 500 KB from 20 devices": { part: "PHOTOS", figures: ["photos: lost", "photos: doubled"] },
  "`/reports` p99 at 10 connections": { part: "P2", pages: ["P2 GET /reports", "P2 dashboard GET /"] },
  "B3 with the new mutation types": { part: "B3", figures: ["B3 sync mutations applied per second"] },
};

export const PART_THREE: Record<string, Covered> = {
  "`/schedule?view=week`, 30 technicians, 600 visits that week (100 crew visits, 50 recurring series), in a tenant with 100,000 jobs":
    { part: "P2", pages: ["P2 GET /schedule?view=week (30 technicians, 600 visits, 100 crews)"] },
  "dashboard, `/reports`, `/customers/<id>`, quote builder, `/timesheets` on the big tenant": [
    {
      part: "P2",
      pages: [
        "P2 dashboard GET /",
        "P2 GET /reports",
        "P2 GET /customers/<id>",
        "P2 quote builder page GET /quotes/new?customerId=<id>",
      ],
    },
    { part: "TIMESHEETS", pages: ["TS GET /timesheets?week= (team week, 30 technicians)"] },
  ],
  "a weekly series over 5 years (260 visits) created": { part: "VISITS", figures: ["5-year weekly series created"] },
  "the horizon worker extending 10,000 series by a month": { part: "VISITS", figures: ["horizon worker"] },
  "B3 offline sync with visit mutations and crews": {
    part: "B3",
    figures: ["B3 sync mutations applied per second", "visit mutations, crews of two"],
  },
  "account export of the big tenant (50,000 customers, 100,000 jobs, 100,000 invoices, 150,000 payments)": {
    part: "EXPORT",
    figures: ["EXPORT big tenant account export", "EXPORT server RSS"],
  },
  "accounting files for a year of the big tenant": { part: "ACCT", figures: ["accountant files, a year"] },
  "fairness: tenant B's page median while tenant A floods (6 imports of 40,000 rows, 6 reports, 6 searches at once) over B's unloaded median":
    { part: "FAIR", figures: ["fairness: flooded / unloaded"] },
  "quote creation with 10 lines (discounts, 2 named rates)": {
    part: "QUOTES",
    pages: ["QUOTES quote creation with 10 lines, discounts and two named rates"],
  },
};

/** Every coverage of a table's row, as a list. */
export const coverages = (c: Covered): Coverage[] => (Array.isArray(c) ? c : [c]);

/** The parts one run takes: all of them, or the one BENCH_ONLY names (an unknown key is an error). */
export function partsToRun(only: string | undefined): BenchPart[] {
  if (!only) return BENCH_PARTS;
  const part = BENCH_PARTS.find((p) => p.key === only.toUpperCase());
  if (!part) throw new Error(`BENCH_ONLY=${only}: no such part (${BENCH_PARTS.map((p) => p.key).join(", ")})`);
  return [part];
}
