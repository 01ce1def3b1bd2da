/**
 * `npm run bench:import`: BENCHMARKS B1 alone (see bench/import-lib.ts). Builds the app when
 * its sources changed (SKIP_BUILD=1 reuses build/), prints the table and writes
 * bench/results/import.json. A benchmark, not a test: nothing here passes or fails.
 */
import { runImportBench } from "./import-lib";
import { buildApp, printTable, writeResults } from "./lib";

async function main() {
  const started = Date.now();
  buildApp();
  console.log("B1 import: 50,000 customers and 50,000 jobs over HTTP…\n");
  const { figures, postgres } = await runImportBench();
  printTable(figures);
  writeResults("import.json", figures, { postgres, started });
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
