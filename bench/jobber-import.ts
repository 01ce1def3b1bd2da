/**
 * BENCHMARKS.md part two, issue 19's figures: another product's export through HTTP against
 * the built server (a benchmark, not a test: nothing here passes or fails).
 *
 *   Jobber preview   a generated Jobber client export of 50,000 rows (40,000 clients, 10,000 of
 *                    them with a second property), its 36 columns, about 20 MB: POST
 *                    /import-data/preview until the 303 to the preview (recognised, no step)
 *   Jobber commit    POST /import-data/commit until the 303, beside its COPY floor: the rows
 *                    the commit wrote (customers and customer_properties), COPY'd into scratch
 *                    copies of both tables (indexes and checks included) in the same run
 *   mapping step     the same 20 MB file with its `J-ID` header renamed, so it is not
 *                    recognised and stops at the mapping step: the upload until the 303 to the
 *                    step, and the step's page (which reads the headers and first rows only)
 *
 * `BENCH_ONLY=JOBBER npm run bench` runs this part alone (writes bench/results/jobber.json).
 * The 1-minute load average is recorded beside the figures: the machine is shared.
 */
import os from "node:os";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { figure, round, type Figure } from "./lib";
import { benchUser } from "./session";
import { jobberClients } from "../tests/helpers/product-exports";

const CLIENTS = 40_000;
const SECOND_PROPERTY = 10_000;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, (performance.now() - started) / 1000];
}

/** The rows a run wrote, COPY'd out and back into scratch copies of their tables: the floor. */
async function copyFloor(url: string, tenantId: string, runId: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const copyOut = async (sql: string) => {
    const chunks: Buffer[] = [];
    const stream = client.query(copyTo(sql));
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  try {
    const customerColumns =
      "tenant_id, id, name, company, email, phone, address_line1, address_line2, city, region, postal_code, country, notes, external_id, import_run_id";
    const propertyColumns =
      "tenant_id, customer_id, position, label, address_line1, address_line2, city, region, postal_code, country, import_run_id";
    const customers = await copyOut(
      `COPY (SELECT ${customerColumns} FROM customers WHERE tenant_id = '${tenantId}' AND import_run_id = '${runId}') TO STDOUT`,
    );
    const properties = await copyOut(
      `COPY (SELECT ${propertyColumns} FROM customer_properties WHERE tenant_id = '${tenantId}' AND import_run_id = '${runId}') TO STDOUT`,
    );
    for (const t of ["customers", "customer_properties"]) {
      await client.query(`DROP TABLE IF EXISTS bench_copy_${t}`);
      await client.query(`CREATE TABLE bench_copy_${t} (LIKE ${t} INCLUDING ALL)`);
    }
    const [, seconds] = await timed(async () => {
      await client.query("BEGIN");
      await pipeline(
        Readable.from([customers]),
        client.query(copyFrom(`COPY bench_copy_customers (${customerColumns}) FROM STDIN`)),
      );
      await pipeline(
        Readable.from([properties]),
        client.query(copyFrom(`COPY bench_copy_customer_properties (${propertyColumns}) FROM STDIN`)),
      );
      await client.query("COMMIT");
    });
    for (const t of ["customers", "customer_properties"]) await client.query(`DROP TABLE bench_copy_${t}`);
    return seconds;
  } finally {
    await client.end();
  }
}

export async function benchJobberImport(baseUrl: string, databaseUrl: string): Promise<Figure[]> {
  const user = await benchUser(baseUrl, databaseUrl);
  const headers = { cookie: user.cookie, origin: baseUrl };
  const post = async (path: string, body: FormData | URLSearchParams) => {
    const res = await fetch(`${baseUrl}${path}`, { method: "POST", body, headers, redirect: "manual" });
    if (res.status !== 303) {
      const text = (await res.text())
        .replace(/<script[\s\S]*?<\/script>/g, " ")
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ");
      throw new Error(`${path}: ${res.status} ${text.slice(text.indexOf("Import"), text.indexOf("Import") + 600)}`);
    }
    await res.arrayBuffer();
    return new URL(res.headers.get("location")!, baseUrl).searchParams;
  };
  const upload = (csv: string, name: string) => {
    const form = new FormData();
    form.set("_csrf", user.csrf);
    form.set("type", "customers");
    form.set("file", new Blob([csv], { type: "text/csv" }), name);
    return form;
  };

  const { csv } = jobberClients(CLIENTS, { twoProperties: SECOND_PROPERTY, fullNotes: true, seed: 7 });
  const rows = csv.split("\r\n").length - 2;
  const mib = Buffer.byteLength(csv) / 1024 / 1024;
  // Not recognised (no J-ID): some headers are only close or ambiguous, so the mapping step.
  const unrecognised = csv.replace(/^J-ID,/, "Client Ref,");

  // Warm-up: a small file of each kind, so the figures are not the server's first requests.
  const small = jobberClients(20, { seed: 1 }).csv;
  const warm = await post("/import-data/preview", upload(small, "warm-up.csv"));
  const warmRun = await post(
    "/import-data/commit",
    new URLSearchParams({ _csrf: user.csrf, previewId: warm.get("preview")! }),
  );
  await post("/import-data/undo", new URLSearchParams({ _csrf: user.csrf, runId: warmRun.get("run")! }));
  await post("/import-data/preview", upload(small.replace(/^J-ID,/, "Client Ref,"), "warm-up-2.csv"));

  const load = os.loadavg()[0];
  // The mapping step first (it reads the head of the file, keeps the file, and its page reads
  // only the headers and first rows).
  const [stepAt, stepUpload] = await timed(() => post("/import-data/preview", upload(unrecognised, "clients.csv")));
  const uploadId = stepAt.get("upload");
  if (!uploadId) throw new Error(`the renamed export did not stop at the mapping step: ${stepAt}`);
  const [, stepPage] = await timed(async () => {
    const res = await fetch(`${baseUrl}/import-data?type=customers&upload=${uploadId}`, { headers });
    if (res.status !== 200) throw new Error(`mapping step page: ${res.status}`);
    await res.text();
  });

  const [previewAt, preview] = await timed(() => post("/import-data/preview", upload(csv, "Jobber clients.csv")));
  const previewId = previewAt.get("preview");
  if (!previewId) throw new Error(`the Jobber export did not go straight to the preview: ${previewAt}`);
  // A commit past its statement timeout (60 s, decision 193) is a figure too: reported, not thrown.
  let commit = Number.NaN;
  let copy = Number.NaN;
  let refused = "";
  // BENCH_WATCH=1: what the database is doing during the commit, every 5 s (to profile it).
  const watcher = process.env.BENCH_WATCH ? new pg.Client({ connectionString: databaseUrl }) : null;
  await watcher?.connect();
  const watch = watcher
    ? setInterval(() => {
        void watcher
          .query(
            `SELECT now() - query_start AS age, wait_event_type, wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS q FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid()`,
          )
          .then((r) => console.log(JSON.stringify(r.rows)));
      }, 5_000)
    : null;
  try {
    const [runAt, seconds] = await timed(() =>
      post("/import-data/commit", new URLSearchParams({ _csrf: user.csrf, previewId })),
    );
    commit = seconds;
    copy = await copyFloor(databaseUrl, user.tenantId, runAt.get("run")!);
  } catch (error) {
    refused = String(error).slice(0, 200);
    console.error(`commit refused: ${refused}`);
  } finally {
    if (watch) clearInterval(watch);
    await watcher?.end();
  }
  const loadAfter = os.loadavg()[0];

  const label = `${rows.toLocaleString("en-US")} rows, 36 columns, ${mib.toFixed(1)} MiB`;
  return [
    figure(`Jobber client export preview (${label})`, round(preview, 3), "s", "<= 3", preview <= 3),
    figure(
      `Jobber client export commit (40,000 customers, 50,000 properties)${refused ? ": refused, statement timeout" : ""}`,
      round(commit, 3),
      "s",
      "measured",
      null,
    ),
    figure("copy floor (the rows the commit wrote, COPY into scratch copies)", round(copy, 3), "s", "measured", null),
    figure("Jobber commit / copy floor", round(commit / copy, 2), "x", "<= 2", commit / copy <= 2, {
      name: "copy floor",
      value: round(copy, 3),
      unit: "s",
    }),
    figure(
      `mapping step: upload until the 303 to the step (${mib.toFixed(1)} MiB)`,
      Math.round(stepUpload * 1000),
      "ms",
      "<= 500",
      stepUpload <= 0.5,
    ),
    figure("mapping step: the step's page", Math.round(stepPage * 1000), "ms", "<= 500", stepPage <= 0.5),
    figure("load average (1 min) before / after", round(load, 2), `/ ${round(loadAfter, 2)}`, "recorded", null),
  ];
}
