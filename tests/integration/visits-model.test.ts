import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import pg from "pg";
import { Sequelize } from "sequelize";
import { migrateUp, migrator } from "../../db/migrate";
import { MIGRATIONS } from "../../db/migrations/index";
import { inTenant, rows } from "../../db/index";
import { createCustomer, createJob, createTenant, createUser } from "../helpers/fixtures";

// Visits as a model (docs/decisions/276-visits.md): the migration turns every job's time and
// technician into one visit and rolls back; afterwards a job with at most one visit and its
// visit stay equal whichever side is written.

const VISITS = "0130-visits";
const BEFORE = MIGRATIONS[MIGRATIONS.findIndex(([name]) => name === VISITS) - 1]![0];

let scratch: { name: string; sequelize: Sequelize } | undefined;
let admin: pg.Client;
before(async () => {
  admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
});
after(async () => {
  await scratch?.sequelize.close();
  if (scratch) await admin.query(`DROP DATABASE IF EXISTS ${scratch.name} WITH (FORCE)`);
  await admin.end();
});

test("the migration makes one visit per job with a time (its status and technician), its time entries name it, and it rolls back", async () => {
  const name = `visits_migration_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  scratch = { name, sequelize: new Sequelize(url.toString(), { dialect: "postgres", logging: false }) };
  const sql = scratch.sequelize;
  const q = async <T = Record<string, unknown>>(text: string, bind: unknown[] = []) =>
    (await sql.query(text, { bind }))[0] as T[];
  await migrator(sql).up({ to: BEFORE });

  const [tenant] = await q<{ id: string }>(`INSERT INTO tenants (name) VALUES ('Before visits') RETURNING id`);
  const [tech] = await q<{ id: string }>(
    `INSERT INTO users (tenant_id, email, name, role, password_hash) VALUES ($1, 'tech@example.com', 'Tina Tech', 'technician', 'x') RETURNING id`,
    [tenant!.id],
  );
  const [customer] = await q<{ id: string }>(
    `INSERT INTO customers (tenant_id, name) VALUES ($1, 'Ada') RETURNING id`,
    [tenant!.id],
  );
  const jobs = await q<{ id: string; title: string }>(
    `INSERT INTO jobs (tenant_id, customer_id, title, status, scheduled_start, scheduled_end, assignee_id, completed_at) VALUES
       ($1, $2, 'Booked', 'scheduled', '2026-03-02 15:00Z', '2026-03-02 17:00Z', $3, NULL),
       ($1, $2, 'Done', 'completed', '2026-02-02 15:00Z', '2026-02-02 16:00Z', $3, '2026-02-02 16:05Z'),
       ($1, $2, 'No end', 'scheduled', '2026-03-03 15:00Z', NULL, NULL, NULL),
       ($1, $2, 'Not booked', 'unscheduled', NULL, NULL, $3, NULL)
     RETURNING id, title`,
    [tenant!.id, customer!.id, tech!.id],
  );
  const id = (title: string) => jobs.find((j) => j.title === title)!.id;
  await q(
    `INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at) VALUES ($1, $2, $3, '2026-02-02 15:00Z', '2026-02-02 16:00Z')`,
    [tenant!.id, id("Done"), tech!.id],
  );

  await migrator(sql).up({ to: VISITS });
  const visits = await q<{ job_id: string; starts_at: Date; ends_at: Date | null; status: string; crew: string[] }>(
    `SELECT v.job_id, v.starts_at, v.ends_at, v.status,
            coalesce(array_agg(a.user_id::text) FILTER (WHERE a.user_id IS NOT NULL), '{}') AS crew
       FROM visits v LEFT JOIN visit_assignees a ON a.tenant_id = v.tenant_id AND a.visit_id = v.id
      GROUP BY v.tenant_id, v.id ORDER BY v.starts_at`,
  );
  assert.deepEqual(
    visits.map((v) => [v.job_id, v.starts_at.toISOString(), v.ends_at?.toISOString() ?? null, v.status, v.crew]),
    [
      [id("Done"), "2026-02-02T15:00:00.000Z", "2026-02-02T16:00:00.000Z", "completed", [tech!.id]],
      [id("Booked"), "2026-03-02T15:00:00.000Z", "2026-03-02T17:00:00.000Z", "scheduled", [tech!.id]],
      [id("No end"), "2026-03-03T15:00:00.000Z", null, "scheduled", []],
    ],
  );
  const [entry] = await q<{ same: boolean }>(
    `SELECT e.visit_id = v.id AS same FROM time_entries e JOIN visits v ON v.job_id = e.job_id`,
  );
  assert.equal(entry!.same, true);

  await migrator(sql).down({ to: VISITS });
  const [gone] = await q<{ t: string | null }>(`SELECT to_regclass('visits')::text AS t`);
  assert.equal(gone!.t, null);
  const kept = await q<{ title: string; scheduled_start: Date | null; assignee_id: string | null }>(
    `SELECT title, scheduled_start, assignee_id FROM jobs ORDER BY title`,
  );
  assert.deepEqual(
    kept.map((j) => [j.title, j.scheduled_start?.toISOString() ?? null, j.assignee_id]),
    [
      ["Booked", "2026-03-02T15:00:00.000Z", tech!.id],
      ["Done", "2026-02-02T15:00:00.000Z", tech!.id],
      ["No end", "2026-03-03T15:00:00.000Z", null],
      ["Not booked", null, tech!.id],
    ],
  );

  // Forward again, as `npm start` does (the migrations and the function files): three visits again.
  await migrateUp(sql);
  const [count] = await q<{ n: string }>(`SELECT count(*) AS n FROM visits`);
  assert.equal(Number(count!.n), 3);
});

test("a job with one visit and its visit stay equal both ways; a second visit leaves the job row to follow the visits", async () => {
  const tenant = await createTenant();
  const tech = await createUser(tenant.id, { role: "technician" });
  const other = await createUser(tenant.id, { role: "technician" });
  const customer = await createCustomer(tenant.id);
  const start = new Date("2026-05-04T14:00:00Z");
  const job = await createJob(tenant.id, { customerId: customer.id, assigneeId: tech.id, scheduledStart: start });
  const visitsOf = () =>
    inTenant(tenant.id, (t) =>
      rows<{ id: string; starts_at: Date; status: string; crew: string[] }>(
        `SELECT v.id, v.starts_at, v.status,
                coalesce(array_agg(a.user_id::text ORDER BY a.created_at) FILTER (WHERE a.user_id IS NOT NULL), '{}') AS crew
           FROM visits v LEFT JOIN visit_assignees a ON a.tenant_id = v.tenant_id AND a.visit_id = v.id
          WHERE v.job_id = $1 GROUP BY v.tenant_id, v.id ORDER BY v.starts_at`,
        [job.id],
        t,
      ),
    );
  const jobRow = async () =>
    (
      await rows<{ scheduled_start: Date | null; assignee_id: string | null; status: string }>(
        `SELECT scheduled_start, assignee_id, status FROM jobs WHERE id = $1`,
        [job.id],
      )
    )[0]!;

  let visits = await visitsOf();
  assert.equal(visits.length, 1, "a job made with a time has its visit");
  assert.deepEqual(visits[0]!.crew, [tech.id]);

  // The job's row moved and given to another technician: its visit follows.
  await rows(`UPDATE jobs SET scheduled_start = $2, scheduled_end = $3, assignee_id = $4 WHERE id = $1`, [
    job.id,
    new Date("2026-05-05T14:00:00Z"),
    new Date("2026-05-05T16:00:00Z"),
    other.id,
  ]);
  visits = await visitsOf();
  assert.equal(visits[0]!.starts_at.toISOString(), "2026-05-05T14:00:00.000Z");
  assert.deepEqual(visits[0]!.crew, [other.id]);

  // The job's status (the field app's "On my way") reaches its visit.
  await rows(`UPDATE jobs SET status = 'en_route' WHERE id = $1`, [job.id]);
  assert.equal((await visitsOf())[0]!.status, "en_route");

  // The visit written directly: the job's row follows.
  await inTenant(tenant.id, (t) =>
    rows(
      `UPDATE visits SET starts_at = '2026-05-06 14:00Z', ends_at = '2026-05-06 15:00Z' WHERE job_id = $1`,
      [job.id],
      t,
    ),
  );
  assert.equal((await jobRow()).scheduled_start!.toISOString(), "2026-05-06T14:00:00.000Z");

  // A second visit: the job is under way on the first, so it stays in progress; the row shows the one under way.
  await inTenant(tenant.id, (t) =>
    rows(
      `INSERT INTO visits (tenant_id, job_id, starts_at, ends_at) VALUES ($1, $2, '2026-05-20 14:00Z', '2026-05-20 15:00Z')`,
      [tenant.id, job.id],
      t,
    ),
  );
  let row = await jobRow();
  assert.equal(row.scheduled_start!.toISOString(), "2026-05-06T14:00:00.000Z");
  assert.equal(row.status, "in_progress");

  // The first completes: the job is scheduled (its next visit) and its row shows the next visit, with no crew.
  await inTenant(tenant.id, (t) =>
    rows(
      `UPDATE visits SET status = 'completed', completed_at = now() WHERE job_id = $1 AND starts_at = '2026-05-06 14:00Z'`,
      [job.id],
      t,
    ),
  );
  row = await jobRow();
  assert.equal(row.status, "scheduled");
  assert.equal(row.scheduled_start!.toISOString(), "2026-05-20T14:00:00.000Z");
  assert.equal(row.assignee_id, null);

  // The job's row written on a job with two visits changes no visit.
  await rows(
    `UPDATE jobs SET scheduled_start = '2026-07-01 14:00Z', scheduled_end = '2026-07-01 15:00Z' WHERE id = $1`,
    [job.id],
  );
  assert.deepEqual(
    (await visitsOf()).map((v) => v.starts_at.toISOString()),
    ["2026-05-06T14:00:00.000Z", "2026-05-20T14:00:00.000Z"],
  );

  // Every visit done: the job is completed.
  await inTenant(tenant.id, (t) =>
    rows(`UPDATE visits SET status = 'completed', completed_at = now() WHERE job_id = $1`, [job.id], t),
  );
  assert.equal((await jobRow()).status, "completed");
});

test("taking a one-visit job off the schedule removes its visit; a job inserted in bulk gets its visits in one statement", async () => {
  const tenant = await createTenant();
  const tech = await createUser(tenant.id, { role: "technician" });
  const customer = await createCustomer(tenant.id);
  const job = await createJob(tenant.id, { customerId: customer.id, assigneeId: tech.id });
  await rows(`UPDATE jobs SET scheduled_start = NULL, scheduled_end = NULL, status = 'unscheduled' WHERE id = $1`, [
    job.id,
  ]);
  assert.equal((await rows(`SELECT 1 FROM visits WHERE job_id = $1`, [job.id])).length, 0);

  const made = await rows<{ id: string }>(
    `INSERT INTO jobs (tenant_id, customer_id, title, status, scheduled_start, scheduled_end, assignee_id)
     SELECT $1, $2, 'Bulk ' || g, 'scheduled', now() + g * interval '1 day', now() + g * interval '1 day' + interval '1 hour', $3
       FROM generate_series(1, 25) g RETURNING id`,
    [tenant.id, customer.id, tech.id],
  );
  const [counted] = await rows<{ visits: string; crew: string }>(
    `SELECT count(DISTINCT v.id) AS visits, count(a.user_id) AS crew FROM visits v
       JOIN visit_assignees a ON a.tenant_id = v.tenant_id AND a.visit_id = v.id WHERE v.job_id = ANY ($1::uuid[])`,
    [made.map((m) => m.id)],
  );
  assert.deepEqual([Number(counted!.visits), Number(counted!.crew)], [25, 25]);
});
