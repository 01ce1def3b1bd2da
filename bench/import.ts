/**
 * `npm run bench:import`: BENCHMARKS B1 (see bench/import-lib.ts). Builds the app (SKIP_BUILD=1
 * reuses build/), prints a table and writes bench/results/import.json. A benchmark, not a
 * test: nothing here passes or fails.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runImportBench, type Figure } from "./import-lib";
import { ROOT } from "../tests/helpers/server";

function printTable(figures: Figure[]) {
  const rows = figures.map((f) => [f.name, `${f.value} ${f.unit}`, f.goal, f.met === null ? "" : f.met ? "met" : "MISSED"]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), ["figure", "value", "goal", ""][i].length));
  const line = (r: string[]) => r.map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ");
  console.log(line(["figure", "value", "goal", ""]));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
}

async function main() {
  if (!process.env.SKIP_BUILD) {
    console.log("Building the app…");
    execFileSync(process.execPath, [path.join(ROOT, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NODE_ENV: "production" },
    });
  }
  console.log("B1 import: 50,000 customers and 50,000 jobs over HTTP…\n");
  const { figures, postgres } = await runImportBench();
  printTable(figures);
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    /* not a git checkout */
  }
  const out = {
    benchmark: "B1 import",
    at: new Date().toISOString(),
    machine: { cores: os.cpus().length, memoryMb: Math.round(os.totalmem() / 1024 / 1024), loadAverage: os.loadavg(), node: process.version, postgres },
    commit,
    figures,
  };
  const dir = path.join(ROOT, "bench/results");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "import.json"), JSON.stringify(out, null, 2) + "\n");
  console.log(`\nWritten to bench/results/import.json (load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(" ")})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
