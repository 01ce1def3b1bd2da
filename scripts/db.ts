/** `npm run db:migrate` / `npm run db:rollback`: against DATABASE_URL, or the embedded database in DATA_DIR. */
import path from "node:path";
import { closeDb, configureDb, db } from "../db/index";
import { startEmbedded } from "../db/embedded";
import { migrateUp, migrator } from "../db/migrate";
import { databaseOptions, parseEnv } from "../app/utils/env.server";

const command = process.argv[2];
const env = parseEnv();
const embedded = env.DATABASE_URL ? undefined : await startEmbedded(path.join(env.DATA_DIR, "pg"));
configureDb(databaseOptions({ ...env, DATABASE_URL: embedded?.url ?? env.DATABASE_URL })!);
try {
  if (command === "migrate") {
    const applied = await migrateUp(db());
    console.log(applied.length ? `Applied: ${applied.map((m) => m.name).join(", ")}` : "Nothing to migrate.");
  } else if (command === "rollback") {
    const undone = await migrator(db()).down();
    console.log(undone.length ? `Rolled back: ${undone.map((m) => m.name).join(", ")}` : "Nothing to roll back.");
  } else {
    console.error("usage: tsx scripts/db.ts migrate|rollback");
    process.exitCode = 2;
  }
} finally {
  await closeDb();
  await embedded?.stop();
}
