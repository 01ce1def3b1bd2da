/**
 * `npm run summaries -- rebuild|check|fold [tenant id]`: the summaries the dashboard and the
 * reports read, against DATABASE_URL or the embedded database in DATA_DIR.
 *   rebuild  make them again from the records (after a restore, a bug fix, a hand edit)
 *   check    compare them with the records; exits 1 when a tenant's differ
 *   fold     fold the delta rows (the maintenance job does this on its own)
 */
import path from "node:path";
import { closeDb, configureDb } from "../db/index";
import { runningEmbedded, startEmbedded } from "../db/embedded";
import { databaseOptions, parseEnv } from "../app/utils/env.server";
import { checkSummaries, foldSummaries, rebuildSummaries } from "../app/services/reports/summaries.server";

const [command, tenantId] = process.argv.slice(2);
const env = parseEnv();
const dataDir = path.join(env.DATA_DIR, "pg");
const running = env.DATABASE_URL ? null : await runningEmbedded(dataDir);
const embedded = env.DATABASE_URL || running ? undefined : await startEmbedded(dataDir);
configureDb(databaseOptions({ ...env, DATABASE_URL: env.DATABASE_URL ?? running ?? embedded!.url })!);
try {
  if (command === "rebuild") {
    console.log(`Summaries rebuilt for ${await rebuildSummaries(tenantId)} tenant(s).`);
  } else if (command === "check") {
    const bad = await checkSummaries(tenantId);
    for (const b of bad) console.log(`${b.tenantId}: ${b.differs.join(", ")} differ from the records`);
    console.log(bad.length ? `${bad.length} tenant(s) differ: run rebuild.` : "Summaries match the records.");
    if (bad.length) process.exitCode = 1;
  } else if (command === "fold") {
    console.log(`Folded: ${await foldSummaries(tenantId)} delta rows removed.`);
  } else {
    console.error("usage: npm run summaries -- rebuild|check|fold [tenant id]");
    process.exitCode = 2;
  }
} finally {
  await closeDb();
  await embedded?.stop();
}
