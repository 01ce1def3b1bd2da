// When an import can be undone (docs/decisions/074), and the delete itself.
//
// "Referenced from outside" is read from the catalogue: every foreign key that points at a
// table the import wrote to is checked, so a table added later (by any feature) that refers to
// a customer, job, quote, invoice or user counts without this file knowing it.
import { rows, type Tx } from "../../../db/index";
import { removeLoginEmails } from "../../../db/login-emails";
import type { BulkTable } from "../../../db/statistics";
import { conflict } from "~/utils/app-error";
import type { ImportType } from "./columns";
import { IMPORT_NOUNS } from "./records.server";
import type { UndoStatusOf } from "./run-types";

export const UNDO_WINDOW_HOURS = 24;

/** The tables a run of each type writes to, in delete order (children first). */
const WRITES: Record<ImportType, { table: BulkTable; counted: boolean; versioned: boolean }[]> = {
  customers: [
    { table: "customer_properties", counted: false, versioned: true },
    { table: "customers", counted: true, versioned: true },
  ],
  team: [{ table: "users", counted: true, versioned: true }],
  jobs: [{ table: "jobs", counted: true, versioned: true }],
  quotes: [{ table: "quotes", counted: true, versioned: true }],
  invoices: [
    { table: "payments", counted: false, versioned: false },
    { table: "invoices", counted: true, versioned: true },
  ],
};

/**
 * The rows that go with a run's records by ON DELETE CASCADE, per type, each table named once:
 * - `part`: part of an imported record (its line items);
 * - `made with`: made by the database together with an imported record, in the same
 *   transaction (a job's one visit, docs/decisions/276-visits.md): the same `created_at` says
 *   so. One made later (a visit the office added) refers to the record from outside;
 * - `under`: made with those (the visit's assignees).
 * The undo deletes them row by row with plans cached per connection, so their statistics are
 * refreshed with the records' (writtenTables).
 */
const CASCADED: Record<ImportType, { table: BulkTable; as: "part" | "made with" | "under" }[]> = {
  customers: [],
  team: [],
  jobs: [
    { table: "visits", as: "made with" },
    { table: "visit_assignees", as: "under" },
  ],
  quotes: [{ table: "quote_items", as: "part" }],
  invoices: [{ table: "invoice_items", as: "part" }],
};

/** Every table a commit of `type` writes rows to, with those its records bring by cascade. */
export function writtenTables(type: ImportType): BulkTable[] {
  return [...WRITES[type].map((w) => w.table), ...CASCADED[type].map((c) => c.table)];
}

const cascadedAs = (as: (typeof CASCADED)[ImportType][number]["as"]): Set<string> =>
  new Set(
    Object.values(CASCADED)
      .flat()
      .filter((c) => c.as === as)
      .map((c) => c.table),
  );
/** Referring rows that are part of an imported record: never "outside". */
const PARTS = cascadedAs("part");
/** Referring rows made with an imported record: outside only when made later. */
const MADE_WITH = cascadedAs("made with");

/** How a referring row is named in the message. */
const REFERRERS: Record<string, string> = {
  jobs: "a job",
  quotes: "a quote",
  invoices: "an invoice",
  payments: "a payment",
  portal_links: "a portal link",
  booking_requests: "a booking request",
  job_notes: "a job note",
  time_entries: "a time entry",
  job_photos: "a job photo",
  job_events: "a job's status history",
  visits: "a visit",
  record_history: "a record's history",
  sessions: "a sign-in session",
  import_runs: "another import",
  customers: "a customer",
  customer_properties: "a service property",
  users: "a team member",
};

const RECORD_NOUN: Record<string, string> = {
  customers: "customers",
  customer_properties: "service properties",
  users: "team members",
  jobs: "jobs",
  quotes: "quotes",
  invoices: "invoices",
  payments: "payments",
};

export interface RunForUndo {
  id: string;
  type: ImportType;
  state: string;
  committedAt: Date | null;
  importedCount: number | null;
}

export type UndoStatus = UndoStatusOf<Date>;

interface Reference {
  tbl: string;
  col: string;
  target: string;
  has_run: boolean;
}

/** Foreign keys (referring table, column) that point at the id of one of `targets`. */
async function referencesTo(targets: string[], t: Tx): Promise<Reference[]> {
  return rows<Reference>(
    `SELECT c.conrelid::regclass::text AS tbl, quote_ident(a.attname) AS col, c.confrelid::regclass::text AS target,
            EXISTS (SELECT 1 FROM pg_attribute x WHERE x.attrelid = c.conrelid AND x.attname = 'import_run_id' AND NOT x.attisdropped) AS has_run
       FROM pg_constraint c
       CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(con, conf)
       JOIN pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = k.conf AND fa.attname = 'id'
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.con
      WHERE c.contype = 'f' AND c.confrelid = ANY($1::regclass[])
      ORDER BY 1, 2`,
    [targets],
    t,
  );
}

/** The first reason the run's records cannot be removed cleanly, or null. */
async function blockingReason(tenantId: string, run: RunForUndo, t: Tx): Promise<string | null> {
  const writes = WRITES[run.type];
  const checks: string[] = [];
  for (const w of writes.filter((x) => x.versioned)) {
    checks.push(`SELECT 'changed:${w.table}' AS why WHERE EXISTS (
      SELECT 1 FROM ${w.table} WHERE tenant_id = $1 AND import_run_id = $2 AND updated_at <> created_at)`);
  }
  for (const ref of await referencesTo(
    writes.map((w) => w.table),
    t,
  )) {
    if (PARTS.has(ref.tbl)) continue;
    // Rows the same run created (the payments of imported invoices) are not "outside".
    const sameRun = ref.has_run
      ? `AND r.import_run_id IS DISTINCT FROM $2`
      : MADE_WITH.has(ref.tbl)
        ? `AND r.created_at IS DISTINCT FROM x.created_at`
        : "";
    checks.push(`SELECT 'ref:${ref.tbl}:${ref.target}' AS why WHERE EXISTS (
      SELECT 1 FROM ${ref.tbl} r JOIN ${ref.target} x ON x.tenant_id = $1 AND x.id = r.${ref.col} AND x.import_run_id = $2
       WHERE r.tenant_id = $1 ${sameRun})`);
  }
  const [hit] = await rows<{ why: string }>(`${checks.join("\nUNION ALL\n")}\nLIMIT 1`, [tenantId, run.id], t);
  if (!hit) return null;
  const [kind, table, target] = hit.why.split(":");
  if (kind === "changed") return `Some of its ${RECORD_NOUN[table]} were changed after the import.`;
  return `${capitalise(REFERRERS[table] ?? `a record in ${table}`)} now refers to one of its ${RECORD_NOUN[target] ?? target}.`;
}

const capitalise = (s: string) => s[0].toUpperCase() + s.slice(1);

/** Whether `run` can be undone now. Call inside the tenant's import lock to act on the answer. */
export async function undoStatus(tenantId: string, run: RunForUndo, t: Tx, now = new Date()): Promise<UndoStatus> {
  if (run.state === "undone") return { available: false, reason: "This import has been undone already." };
  if (run.state !== "committed" || !run.committedAt)
    return { available: false, reason: "This import was never committed." };
  const [latest] = await rows<{ id: string }>(
    `SELECT id FROM import_runs WHERE tenant_id = $1 AND state = 'committed' ORDER BY committed_at DESC, id DESC LIMIT 1`,
    [tenantId],
    t,
  );
  if (latest?.id !== run.id)
    return {
      available: false,
      reason: "Only the most recent import can be undone, and a newer one was committed after this one.",
    };
  const until = new Date(run.committedAt.getTime() + UNDO_WINDOW_HOURS * 3600_000);
  if (now >= until)
    return {
      available: false,
      reason: `Imports can be undone for ${UNDO_WINDOW_HOURS} hours after they are committed, and that time has passed.`,
    };
  const reason = await blockingReason(tenantId, run, t);
  return reason
    ? { available: false, reason: `This import can no longer be undone. ${reason}` }
    : { available: true, until };
}

/**
 * Deletes exactly the run's records. The caller holds the tenant's import lock and has checked
 * undoStatus in the same transaction; the delete re-checks "unchanged" row by row, so a record
 * changed in between is not deleted and the count check refuses the whole undo.
 */
export async function deleteRunRecords(tenantId: string, run: RunForUndo, t: Tx): Promise<void> {
  for (const w of WRITES[run.type]) {
    const unchanged = w.versioned ? "AND updated_at = created_at" : "";
    const [{ n, ids }] = await rows<{ n: number; ids: string[] }>(
      `WITH del AS (DELETE FROM ${w.table} WHERE tenant_id = $1 AND import_run_id = $2 ${unchanged} RETURNING id)
       SELECT count(*)::int AS n, coalesce(array_agg(id), '{}')::text[] AS ids FROM del`,
      [tenantId, run.id],
      t,
    );
    // Deleted members leave sign-in's table with them (db/login-emails.ts).
    if (w.table === "users") await removeLoginEmails(tenantId, ids, t);
    if (w.counted && n !== run.importedCount) {
      throw conflict(
        `Some of the imported ${IMPORT_NOUNS[run.type]} were changed while undoing. Nothing was undone; reload the page to see why.`,
      );
    }
  }
  // The tax rates the import made go with its documents, unless something else has come to use
  // them since (a document, a job, a price book item or a group): then they are the business's.
  if (run.type === "quotes" || run.type === "invoices") {
    await rows(
      `DELETE FROM tax_rates x WHERE x.tenant_id = $1 AND x.import_run_id = $2
          AND NOT EXISTS (SELECT 1 FROM quote_items u WHERE u.tenant_id = $1 AND u.tax_rate_id = x.id)
          AND NOT EXISTS (SELECT 1 FROM invoice_items u WHERE u.tenant_id = $1 AND u.tax_rate_id = x.id)
          AND NOT EXISTS (SELECT 1 FROM job_items u WHERE u.tenant_id = $1 AND u.tax_rate_id = x.id)
          AND NOT EXISTS (SELECT 1 FROM price_book_items u WHERE u.tenant_id = $1 AND u.tax_rate_id = x.id)
          AND NOT EXISTS (SELECT 1 FROM tax_group_rates u WHERE u.tenant_id = $1 AND u.rate_id = x.id)`,
      [tenantId, run.id],
      t,
    );
  }
}
