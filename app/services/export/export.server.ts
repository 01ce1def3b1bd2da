// The account export (docs/decisions/360-account-export.md): "Export everything" writes one ZIP
// in the background, file by file from database cursors into a ZIP stream on disk, so the
// account is never held in memory (the CPU pool writes and deflates each slice of rows, so the
// request thread only moves bytes); the row of account_exports carries its progress, then its
// manifest's counts, and the file is offered for 24 hours. Every file is read in one
// REPEATABLE READ transaction: the counts and the files are one snapshot of the account.
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { inTenant, one, rows, type Tx } from "../../../db/index";
import { isUuid } from "../../../db/ids";
import type { Actor } from "~/services/accounts/actor";
import type { CsvCell } from "~/services/import/csv-write";
import { runCpu } from "~/services/work/pool.server";
import type { ExportSlice, ExportSliceTask } from "~/services/work/tasks";
import { env } from "~/utils/env.server";
import { notFound } from "~/utils/app-error";
import { log } from "~/utils/log.server";
import { exportFiles, PHOTO_EXTENSIONS, PHOTOS, SIGNATURES, type ExportFile } from "./files";
import { ZipStream } from "./zip-stream.server";

/** How long a finished export's file is offered. */
export const EXPORT_KEEP_HOURS = 24;
/** A running export whose progress has not moved for this long died with its server. */
const STALE_MINUTES = 15;
/** Rows fetched from a cursor at a time (a photo is fetched alone: up to 5 MiB each). */
const BATCH = 2000;

export type ExportState = "running" | "ready" | "failed" | "expired";

export interface ExportRow {
  id: string;
  state: ExportState;
  requestedByName: string;
  step: string | null;
  stepsDone: number;
  stepsTotal: number;
  /** The manifest's counts, in the order of the ZIP's files. */
  counts: [what: string, count: number][] | null;
  byteSize: number | null;
  createdAt: string;
  finishedAt: string | null;
  expiresAt: string | null;
}

/** The steps of an export: each CSV file, the photos, the signatures and the manifest. */
export const exportSteps = () => exportFiles().length + 3;

const SELECT_EXPORT = `SELECT id, state, requested_by_name AS "requestedByName", step, steps_done AS "stepsDone",
  steps_total AS "stepsTotal", counts, byte_size::float8 AS "byteSize", created_at AS "createdAt",
  finished_at AS "finishedAt", expires_at AS "expiresAt" FROM account_exports`;

const exportDir = (tenantId: string) => path.resolve(env().DATA_DIR, "exports", tenantId);
const exportPath = (tenantId: string, id: string) => path.join(exportDir(tenantId), `${id}.zip`);

/**
 * Starts "Export everything" for the actor's business, or answers the export already under way
 * (one at a time per business: the partial unique index decides, so a double click or two
 * servers never start a second one). The work runs in the background of this server.
 */
export async function startExport(actor: Actor & { name: string }): Promise<{ id: string; started: boolean }> {
  const created = await inTenant(actor.tenantId, (t) =>
    one<{ id: string }>(
      `INSERT INTO account_exports (tenant_id, requested_by, requested_by_name, steps_total)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id) WHERE state = 'running' DO NOTHING RETURNING id`,
      [actor.tenantId, actor.userId, actor.name.slice(0, 200) || "Unknown", exportSteps()],
      t,
    ),
  );
  if (!created) {
    const running = await inTenant(actor.tenantId, (t) =>
      one<{ id: string }>(
        `SELECT id FROM account_exports WHERE tenant_id = $1 AND state = 'running'`,
        [actor.tenantId],
        t,
      ),
    );
    if (running) return { id: running.id, started: false };
    return startExport(actor);
  }
  void runExport(actor.tenantId, created.id);
  return { id: created.id, started: true };
}

/** Marks exports past their 24 hours expired (deleting their files) and dead runs failed. */
async function tidy(tenantId: string): Promise<void> {
  const expired = await inTenant(tenantId, async (t) => {
    await rows(
      `UPDATE account_exports SET state = 'failed', error = 'The server stopped while writing it.', updated_at = now()
        WHERE tenant_id = $1 AND state = 'running' AND updated_at < now() - make_interval(mins => $2)`,
      [tenantId, STALE_MINUTES],
      t,
    );
    return rows<{ id: string }>(
      `UPDATE account_exports SET state = 'expired', updated_at = now()
        WHERE tenant_id = $1 AND state = 'ready' AND expires_at <= now() RETURNING id`,
      [tenantId],
      t,
    );
  });
  for (const { id } of expired) await rm(exportPath(tenantId, id), { force: true });
}

/** The settings page: the exports of the business, newest first (the history keeps 50). */
export async function listExports(actor: Actor): Promise<ExportRow[]> {
  await tidy(actor.tenantId);
  return inTenant(actor.tenantId, (t) =>
    rows<ExportRow>(
      `${SELECT_EXPORT} WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC LIMIT 50`,
      [actor.tenantId],
      t,
    ),
  );
}

/** A ready export's file, for its download. Another business's, an expired or unknown id: not found. */
export async function exportDownload(
  actor: Actor,
  id: string,
): Promise<{ path: string; fileName: string; size: number }> {
  await tidy(actor.tenantId);
  const row = isUuid(id)
    ? await inTenant(actor.tenantId, (t) =>
        one<{ id: string; day: string }>(
          `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM account_exports
            WHERE tenant_id = $1 AND id = $2 AND state = 'ready' AND expires_at > now()`,
          [actor.tenantId, id],
          t,
        ),
      )
    : undefined;
  if (!row) throw notFound("This export does not exist or has expired.");
  const file = exportPath(actor.tenantId, row.id);
  const size = await stat(file).then(
    (s) => s.size,
    () => null,
  );
  if (size === null) throw notFound("This export does not exist or has expired.");
  return { path: file, fileName: `fieldwork-export-${row.day}.zip`, size };
}

async function progress(tenantId: string, id: string, step: string, done: number) {
  await inTenant(tenantId, (t) =>
    rows(
      `UPDATE account_exports SET step = $3, steps_done = $4, updated_at = now() WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, step, done],
      t,
    ),
  );
}

/**
 * Writes one CSV entry of the ZIP: `write` hands it slices (header, rows, cells), which the CPU
 * pool turns into CSV text and deflates, one slice at a time, in order.
 */
async function csvEntry(
  zip: ZipStream,
  tenantId: string,
  name: string,
  mtime: Date,
  write: (slice: (s: Omit<ExportSliceTask, "kind" | "crc">) => Promise<void>) => Promise<void>,
) {
  const entry = zip.entry(name, mtime);
  let crc = 0;
  await write(async (s) => {
    const out = await runCpu<ExportSlice>(tenantId, { kind: "export-slice", ...s, crc });
    crc = out.crc;
    await entry.deflated(out.data, out.crc, out.size);
  });
  await entry.end();
}

/** Runs `sql` through a cursor, `size` rows at a time. */
async function* cursor<T>(t: Tx, sql: string, size: number): AsyncGenerator<T[]> {
  await rows(`DECLARE export_rows NO SCROLL CURSOR FOR ${sql}`, [], t);
  try {
    for (;;) {
      const batch = await rows<T>(`FETCH ${size} FROM export_rows`, [], t);
      if (batch.length === 0) return;
      yield batch;
    }
  } finally {
    await rows(`CLOSE export_rows`, [], t);
  }
}

/** A query of ./files.ts for one tenant: its $1 is the tenant (a checked uuid, inlined for the cursor). */
function forTenant(sql: string, tenantId: string): string {
  if (!isUuid(tenantId)) throw new Error("export: the tenant id is not a uuid");
  return sql.replaceAll("$1", `'${tenantId}'::uuid`);
}

async function writeCsv(
  t: Tx,
  slice: (s: Omit<ExportSliceTask, "kind" | "crc">) => Promise<void>,
  file: Pick<ExportFile, "headers" | "sql">,
  tenantId: string,
) {
  await slice({ header: file.headers });
  let n = 0;
  for await (const batch of cursor<Record<string, CsvCell>>(t, forTenant(file.sql, tenantId), BATCH)) {
    n += batch.length;
    await slice({ rows: batch, width: file.headers.length });
  }
  return n;
}

/** Builds the ZIP of export `id`; on any failure the row says so and no file is left. */
export async function runExport(tenantId: string, id: string): Promise<void> {
  const dir = exportDir(tenantId);
  const file = exportPath(tenantId, id);
  const part = `${file}.part`;
  let stream: WriteStream | undefined;
  try {
    await mkdir(dir, { recursive: true });
    stream = createWriteStream(part);
    const zip = new ZipStream(stream);
    const counts: Record<string, number> = {};
    const lines: Record<string, number> = {};
    let step = 0;
    const { business, exportedAt, mtime } = await inTenant(tenantId, async (t) => {
      // One snapshot for every file and count.
      await rows(`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`, [], t);
      const head = await one<{ business: string; exportedAt: string; createdAt: Date }>(
        `SELECT tn.name AS business, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "exportedAt",
                e.created_at AS "createdAt"
           FROM tenants tn JOIN account_exports e ON e.tenant_id = tn.id AND e.id = $2 WHERE tn.id = $1`,
        [tenantId, id],
        t,
      );
      if (!head) throw new Error("export: no such export");
      const at = new Date(head.createdAt);
      const count = async (sql: string) => (await one<{ n: number }>(sql, [tenantId], t))?.n ?? 0;
      for (const f of exportFiles()) {
        await progress(tenantId, id, f.name, step);
        counts[f.records] = await count(f.countSql);
        await csvEntry(zip, tenantId, f.name, at, async (slice) => {
          lines[f.name] = await writeCsv(t, slice, f, tenantId);
        });
        step++;
      }

      await progress(tenantId, id, "photos", step);
      counts[PHOTOS.records] = await count(PHOTOS.countSql);
      type Photo = {
        id: string;
        job: string;
        content_type: string;
        taken_at: string;
        email: string | null;
        sha256: string;
        bytes: Buffer;
      };
      const photoName = (p: Pick<Photo, "id" | "content_type">) =>
        `photos/${p.id}.${PHOTO_EXTENSIONS[p.content_type] ?? "bin"}`;
      await csvEntry(zip, tenantId, "photos.csv", at, async (slice) => {
        await slice({ header: PHOTOS.headers });
        const index = PHOTOS.sql.replace(", r.bytes", "");
        for await (const batch of cursor<Omit<Photo, "bytes">>(t, forTenant(index, tenantId), BATCH))
          await slice({
            lines: batch.map((p) => [p.job, photoName(p), p.content_type, p.taken_at, p.email, p.sha256]),
          });
      });
      for await (const [p] of cursor<Photo>(t, forTenant(PHOTOS.sql, tenantId), 1)) {
        // Images are already compressed: stored as they are.
        await zip.stored(photoName(p), at, p.bytes);
      }
      step++;

      await progress(tenantId, id, "signatures", step);
      counts[SIGNATURES.records] = await count(SIGNATURES.countSql);
      type Signature = { id: string; job: string; signer_name: string; signed_at: string; image: Buffer | null };
      const signatureName = (s: Signature) => (s.image ? `signatures/${s.id}.png` : null);
      await csvEntry(zip, tenantId, "signatures.csv", at, async (slice) => {
        await slice({ header: SIGNATURES.headers });
        for await (const batch of cursor<Signature>(t, forTenant(SIGNATURES.sql, tenantId), 50))
          await slice({ lines: batch.map((s) => [s.job, s.signer_name, s.signed_at, signatureName(s)]) });
      });
      for await (const [s] of cursor<Signature>(t, forTenant(SIGNATURES.sql, tenantId), 1)) {
        const name = signatureName(s);
        if (name && s.image) await zip.stored(name, at, s.image);
      }
      step++;
      return { business: head.business, exportedAt: head.exportedAt, mtime: at };
    });

    await progress(tenantId, id, "manifest.json", step);
    const manifest = {
      format: "fieldwork-account-export",
      version: 1,
      business,
      exportedAt,
      counts,
      files: Object.entries(lines).map(([name, rowCount]) => ({ name, rows: rowCount })),
      importOrder: ["customers.csv", "team.csv", "jobs.csv", "quotes.csv", "invoices.csv"],
    };
    await csvEntry(zip, tenantId, "manifest.json", mtime, (slice) =>
      slice({ text: JSON.stringify(manifest, null, 2) + "\n" }),
    );
    await zip.finish();
    await rename(part, file);
    const { size } = await stat(file);
    await inTenant(tenantId, (t) =>
      rows(
        `UPDATE account_exports SET state = 'ready', step = NULL, steps_done = steps_total, counts = $3::jsonb,
                byte_size = $4, file_name = $5, finished_at = now(), updated_at = now(),
                expires_at = now() + make_interval(hours => $6)
          WHERE tenant_id = $1 AND id = $2`,
        [tenantId, id, JSON.stringify(Object.entries(counts)), size, path.basename(file), EXPORT_KEEP_HOURS],
        t,
      ),
    );
  } catch (error) {
    log.error("account export failed", { tenantId, exportId: id, error: String(error) });
    stream?.destroy();
    await rm(part, { force: true }).catch(() => undefined);
    await inTenant(tenantId, (t) =>
      rows(
        `UPDATE account_exports SET state = 'failed', error = 'The export could not be written.', finished_at = now(),
                updated_at = now() WHERE tenant_id = $1 AND id = $2`,
        [tenantId, id],
        t,
      ),
    ).catch(() => undefined);
  }
}
