/**
 * BENCHMARKS B1, the CSV import over HTTP against the built server and a fresh embedded
 * PostgreSQL (or BENCH_DATABASE_URL). Run by bench/import.ts (`npm run bench:import`).
 *
 *   customers  50,000 generated rows, every column filled (~6 MB): preview, commit, undo
 *   copy floor the same rows COPY'd (pg-copy-streams) into a scratch copy of the customers table
 *   jobs       50,000 rows that look up those customers (and the team): preview + commit
 */
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { closeDb } from "../db/index";
import { BENCH_SECRETS, benchDatabase, type Figure } from "./lib";
import { createTenant, createUser, DEFAULT_PASSWORD } from "../scripts/seeds/factories";
import { toCsv } from "../app/services/import/csv-write";
import { IMPORT_COLUMNS } from "../app/services/import/columns";
import { Client } from "../tests/helpers/client";
import { startServer, type RunningServer } from "../tests/helpers/server";

const ROWS = 50_000;

// --- Input ---------------------------------------------------------------------------------

const FIRST = [
  "Zoë",
  "José",
  "Priya",
  "François",
  "Siobhán",
  "Mai",
  "Greta",
  "Ahmed",
  "Marcus",
  "Olivia",
  "Hannah",
  "Lukáš",
  "Aiko",
  "Björn",
  "Dev",
  "Chloé",
];
const LAST = [
  "Kowalski",
  "Álvarez",
  "Raman",
  "Lefèvre",
  "O'Neill",
  "Nguyễn",
  "Müller",
  "Al-Sayed",
  "Bell",
  "Chen",
  "Kim",
  "Novák",
  "Tanaka",
  "Halvorsen",
  "Patel",
  "Martin",
];
const STREETS = [
  "Barton Springs Rd",
  "Burnet Rd",
  "San Jacinto Blvd",
  "Lakeshore Blvd",
  "Rainey St",
  "N Lamar Blvd",
  "E 6th St",
  "Avenue H",
  "Riverside Dr",
  "W 12th St",
];
const CITIES: [string, string][] = [
  ["Austin", "787"],
  ["Round Rock", "786"],
  ["Cedar Park", "786"],
  ["Pflugerville", "786"],
  ["Georgetown", "786"],
];

/** A deterministic pseudo-random sequence (mulberry32), so every run uploads the same bytes. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function customersCsv(rows = ROWS): string {
  const r = random(1);
  const pick = <T>(list: T[]) => list[Math.floor(r() * list.length)];
  const data = Array.from({ length: rows }, (_, i) => {
    const [city, zip] = pick(CITIES);
    const first = pick(FIRST);
    const last = pick(LAST);
    return [
      `${first} ${last}`,
      `${last} ${pick(["Dental", "Realty", "& Sons", "Bakery", "Law, LLP"])}`,
      `c${i}@example.com`,
      `512-555-${String(i % 10_000).padStart(4, "0")}`,
      `${100 + Math.floor(r() * 9800)} ${pick(STREETS)}`,
      `Ste ${1 + (i % 400)}`,
      city,
      "TX",
      `${zip}${String(Math.floor(r() * 100)).padStart(2, "0")}`,
      "US",
      i % 9 === 0
        ? "Gate code 4412.\nDog in yard."
        : pick(["Mornings only.", "Call first.", "Side door.", "Text ahead."]),
      `CUST-${100_000 + i}`,
      i % 25 === 0 ? "yes" : "no",
      i % 25 === 0 ? "Church: exemption certificate on file" : "",
    ];
  });
  return toCsv(
    IMPORT_COLUMNS.customers.map((c) => c.name),
    data,
  );
}

export function jobsCsv(team: string[], rows = ROWS): string {
  const r = random(2);
  const pick = <T>(list: T[]) => list[Math.floor(r() * list.length)];
  const data = Array.from({ length: rows }, (_, i) => {
    const byEmail = i % 2 === 0;
    const status = pick(["unscheduled", "scheduled", "scheduled", "completed", "cancelled"]);
    const day = 1 + (i % 28);
    const start =
      status === "unscheduled"
        ? ""
        : `2026-07-${String(day).padStart(2, "0")}T${String(7 + (i % 9)).padStart(2, "0")}:00:00-05:00`;
    const end = start ? start.replace(/T(\d\d)/, (_m, h) => `T${String(Number(h) + 2).padStart(2, "0")}`) : "";
    return [
      pick([
        "Replace water heater",
        "AC not cooling",
        "Drain cleaning",
        "Panel upgrade",
        "Annual furnace service",
        "Leak under sink",
      ]),
      byEmail ? `c${i}@example.com` : "",
      byEmail ? "" : `CUST-${100_000 + i}`,
      pick(["Customer reports noise at start-up.", "Bring the long ladder.", "Second visit; parts ordered.", ""]),
      status,
      start,
      end,
      status === "unscheduled" ? "" : pick(team),
      `${100 + (i % 9800)} ${pick(STREETS)}, Austin, TX`,
      `JOB-${200_000 + i}`,
    ];
  });
  return toCsv(
    IMPORT_COLUMNS.jobs.map((c) => c.name),
    data,
  );
}

// --- Harness -------------------------------------------------------------------------------

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, (performance.now() - started) / 1000];
}

let csrf = "";

/** The upload form as a browser sends it: token and type first, then the file. */
function upload(type: string, csv: string, name: string): FormData {
  const form = new FormData();
  form.set("_csrf", csrf);
  form.set("type", type);
  form.set("file", new Blob([csv], { type: "text/csv" }), name);
  return form;
}

/** A POST that must answer 303; returns the id in the Location (`preview=` or `run=`). */
async function post303(
  c: Client,
  url: string,
  body: FormData | Record<string, string>,
  param: "preview" | "run",
): Promise<string> {
  const res = await c.post(url, body);
  if (res.status !== 303) throw new Error(`${url}: ${res.status} ${(await res.text()).slice(0, 500)}`);
  const id = new URL(res.headers.get("location")!, "http://x").searchParams.get(param);
  if (!id) throw new Error(`${url}: no ${param} in ${res.headers.get("location")}`);
  return id;
}

/** COPY of the same CSV into a scratch table shaped like customers (indexes and checks included). */
async function copyFloor(url: string, tenantId: string, csv: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP TABLE IF EXISTS bench_copy_customers`);
    await client.query(`CREATE TABLE bench_copy_customers (LIKE customers INCLUDING ALL)`);
    await client.query(`ALTER TABLE bench_copy_customers ALTER COLUMN tenant_id SET DEFAULT '${tenantId}'`);
    const columns = IMPORT_COLUMNS.customers.map((c) => c.name).join(", ");
    const [, seconds] = await timed(async () => {
      await client.query("BEGIN");
      await pipeline(
        Readable.from([Buffer.from(csv)]),
        client.query(copyFrom(`COPY bench_copy_customers (${columns}) FROM STDIN (FORMAT csv, HEADER true)`)),
      );
      await client.query("COMMIT");
    });
    await client.query(`DROP TABLE bench_copy_customers`);
    return seconds;
  } finally {
    await client.end();
  }
}

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? "0");
  return kb / 1024;
}

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

export async function runImportBench(): Promise<{ figures: Figure[]; postgres: string }> {
  const dbh = await benchDatabase();
  let server: RunningServer | undefined;
  try {
    const tenant = await createTenant("Bench Plumbing & Air");
    const owner = await createUser(tenant.id, {
      role: "owner",
      email: `bench-owner-${tenant.id.slice(0, 8)}@example.test`,
    });
    const team: string[] = [];
    for (let i = 0; i < 8; i++)
      team.push(
        (await createUser(tenant.id, { role: "technician", email: `tech${i}-${tenant.id.slice(0, 8)}@example.test` }))
          .email,
      );
    await closeDb();

    const customers = customersCsv();
    const jobs = jobsCsv(team);
    server = await startServer({
      NODE_ENV: "production",
      ...BENCH_SECRETS,
      LOG_LEVEL: "error",
      SERVER_EXEC_ARGV: process.env.BENCH_SERVER_EXEC_ARGV,
    });
    const c = new Client(server.url);
    const login = await c.post("/login", { email: owner.email, password: DEFAULT_PASSWORD });
    if (login.status !== 303) throw new Error(`sign-in failed: ${login.status}`);
    csrf = await c.csrf(); // once, so the timed requests are only the import's
    // One small import first, so the figures below are not the server's first requests.
    const warm = await post303(
      c,
      "/import-data/preview",
      upload("customers", customersCsv(50), "warm-up.csv"),
      "preview",
    );
    const warmRun = await post303(c, "/import-data/commit", { _csrf: csrf, previewId: warm }, "run");
    await post303(c, "/import-data/undo", { _csrf: csrf, runId: warmRun }, "run");

    const [previewId, preview] = await timed(() =>
      post303(c, "/import-data/preview", upload("customers", customers, "customers.csv"), "preview"),
    );
    const [runId, commit] = await timed(() => post303(c, "/import-data/commit", { _csrf: csrf, previewId }, "run"));
    const [, undo] = await timed(() => post303(c, "/import-data/undo", { _csrf: csrf, runId }, "run"));
    const copy = await copyFloor(dbh.url, tenant.id, customers);

    // The jobs need the customers: import them again, then the jobs that look them up.
    const again = await post303(c, "/import-data/preview", upload("customers", customers, "customers.csv"), "preview");
    await post303(c, "/import-data/commit", { _csrf: csrf, previewId: again }, "run");
    const [jobsPreviewId, jobsPreview] = await timed(() =>
      post303(c, "/import-data/preview", upload("jobs", jobs, "jobs.csv"), "preview"),
    );
    const [, jobsCommit] = await timed(() =>
      post303(c, "/import-data/commit", { _csrf: csrf, previewId: jobsPreviewId }, "run"),
    );
    const rss = peakRssMb(server.child.pid!);

    const mb = (Buffer.byteLength(customers) / 1024 / 1024).toFixed(1);
    const figures: Figure[] = [
      {
        name: `customers preview (${ROWS.toLocaleString("en-US")} rows, ${mb} MiB)`,
        value: round(preview),
        unit: "s",
        goal: "<= 2.0",
        met: preview <= 2,
      },
      { name: "customers commit", value: round(commit), unit: "s", goal: "<= 2.0", met: commit <= 2 },
      { name: "customers undo", value: round(undo), unit: "s", goal: "<= 1.0", met: undo <= 1 },
      {
        name: "copy floor (same rows, COPY into a scratch customers table)",
        value: round(copy),
        unit: "s",
        goal: "measured",
        met: null,
      },
      {
        name: "commit / copy floor",
        value: round(commit / copy, 2),
        unit: "x",
        goal: "<= 4",
        met: commit / copy <= 4,
        floor: { name: "copy floor", value: round(copy), unit: "s" },
      },
      {
        name: "jobs preview + commit (50,000 rows looking up customers)",
        value: round(jobsPreview + jobsCommit),
        unit: "s",
        goal: "<= 5.0",
        met: jobsPreview + jobsCommit <= 5,
      },
      { name: "  of which jobs preview", value: round(jobsPreview), unit: "s", goal: "", met: null },
      { name: "  of which jobs commit", value: round(jobsCommit), unit: "s", goal: "", met: null },
      { name: "server peak RSS", value: Math.round(rss), unit: "MB", goal: "<= 400", met: rss <= 400 },
    ];
    return { figures, postgres: dbh.version };
  } catch (error) {
    if (server) console.error(`server log:\n${server.logs.join("").slice(-3000)}`);
    throw error;
  } finally {
    await server?.stop();
    await closeDb();
    await dbh.stop();
  }
}
