/**
 * `npm run seed:demo`: a demo tenant with one user per role and realistic records: the sample
 * imports, and a day of work made through the services the forms call (scripts/seeds/demo-day.ts).
 * Uses DATABASE_URL, else the embedded database of a running `npm start` (the address it wrote to
 * DATA_DIR), else starts the embedded database in DATA_DIR like `npm start`.
 * DEMO_EMAIL_DOMAIN (default demo.fieldwork.test) names the logins; the tests use their own.
 */
import path from "node:path";
import { closeDb, configureDb, db, one } from "../../db/index";
import { runningEmbedded, startEmbedded } from "../../db/embedded";
import { ROLES } from "../../db/enums";
import { migrateUp } from "../../db/migrate";
import { databaseOptions, parseEnv } from "../../app/utils/env.server";
import { createCustomer, createInvoice, createJob, createQuote, createUser, DEFAULT_PASSWORD } from "./factories";
import { DEMO_TIME_ZONE, seedBusinessDay } from "./demo-day";
import { IMPORT_ORDER } from "../../app/services/import/columns";
import { IMPORT_NOUNS } from "../../app/services/import/records.server";
import { commitPreview, previewImport } from "../../app/services/import/runs.server";
import { sampleCsv, sampleFilename } from "../../app/services/import/samples";

async function main() {
  const env = parseEnv();
  // While `npm start` runs, its embedded database holds DATA_DIR's lock: use that one.
  const running = env.DATABASE_URL ? null : await runningEmbedded(env.DATA_DIR);
  if (running) console.log(`Using the embedded PostgreSQL of the running npm start: ${running}`);
  const embedded = env.DATABASE_URL || running ? undefined : await startEmbedded(path.join(env.DATA_DIR, "pg"));
  configureDb(databaseOptions({ ...env, DATABASE_URL: running ?? embedded?.url ?? env.DATABASE_URL })!);
  try {
    await migrateUp(db());
    const domain = (process.env.DEMO_EMAIL_DOMAIN || "demo.fieldwork.test").toLowerCase();
    const businessName = "Summit Plumbing & Heating";
    const existing = await one<{ id: string }>(`SELECT tenant_id AS id FROM users WHERE email = $1`, [
      `owner@${domain}`,
    ]);
    if (existing) {
      console.log("The demo tenant exists already. Logins (password: %s):", DEFAULT_PASSWORD);
    } else {
      const tenant = await one<{ id: string }>(`INSERT INTO tenants (name, time_zone) VALUES ($1, $2) RETURNING id`, [
        businessName,
        DEMO_TIME_ZONE,
      ]);
      const tenantId = tenant!.id;
      const people = [
        { role: "owner", name: "Morgan Ellis" },
        { role: "admin", name: "Priya Shah" },
        { role: "office", name: "Sam Okafor" },
        { role: "technician", name: "Luis Romero" },
      ] as const;
      const users: Awaited<ReturnType<typeof createUser>>[] = [];
      for (const p of people)
        users.push(await createUser(tenantId, { role: p.role, name: p.name, email: `${p.role}@${domain}` }));
      const tech = users[3];
      const customers = [];
      for (const [name, email] of [
        ["Ana García", "ana.garcia@example.com"],
        ["Bob Nguyen", "bob.nguyen@example.com"],
        ["Chloé Martin", "chloe.martin@example.com"],
      ])
        customers.push(await createCustomer(tenantId, { name, email }));
      await createJob(tenantId, {
        customerId: customers[0].id,
        title: "Replace 50 gal water heater",
        assigneeId: tech.id,
      });
      await createJob(tenantId, {
        customerId: customers[1].id,
        title: "Kitchen drain clog",
        assigneeId: tech.id,
        scheduledStart: new Date(Date.now() + 86400_000),
      });
      await createJob(tenantId, { customerId: customers[2].id, title: "AC tune-up", scheduledStart: null });
      await createQuote(tenantId, { customerId: customers[0].id, number: "Q-0950" });
      await createInvoice(tenantId, { customerId: customers[1].id, number: "INV-1001" });
      // The five sample files, through the import itself (preview, then commit), in the order
      // that works on a fresh account: customers, team, jobs, quotes, invoices.
      const owner = { tenantId, userId: users[0].id, role: users[0].role };
      for (const type of IMPORT_ORDER) {
        const preview = await previewImport(owner, type, sampleCsv(type), { fileName: sampleFilename(type) });
        if (!preview.ok) throw new Error(`The ${type} sample did not parse: ${preview.message}`);
        if (!preview.run.valid) throw new Error(`The ${type} sample has ${preview.run.errorCount} errors`);
        const run = await commitPreview(owner, preview.run.id);
        console.log(`Imported ${run.importedCount} ${IMPORT_NOUNS[type]} from ${sampleFilename(type)}.`);
      }
      // Today's work, by hand: through the same services as the pages.
      const actor = (i: number) => ({ tenantId, userId: users[i].id, role: users[i].role });
      await seedBusinessDay(
        { owner: actor(0), office: actor(2), technician: actor(3), technicianName: tech.name },
        businessName,
      );
      console.log(
        "Made a day of work: quotes sent and approved in the portal, jobs scheduled today, one done in the field and invoiced, $500 of it paid in the portal.",
      );
      console.log("Demo tenant '%s' created. Logins (password: %s):", businessName, DEFAULT_PASSWORD);
    }
    for (const role of ROLES) console.log(`  ${role.padEnd(10)} ${role}@${domain}`);
  } finally {
    await closeDb();
    await embedded?.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
