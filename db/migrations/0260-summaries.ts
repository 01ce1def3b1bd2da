import type { Migration } from "../migrate";
import { functionSql } from "../functions";
import { tenantTableSecurity } from "./0020-history-and-numbering";

/**
 * Summaries kept by the writes (docs/decisions/405-summaries-kept-by-the-writes.md), read by
 * the dashboard and the reports instead of aggregating every invoice, payment, quote and visit:
 *
 * - `summary_deltas`: insert-only rows (figure, period, person, currency, amount) written by
 *   triggers in the transaction of each change; a figure is the sum of its rows. Invoiced and
 *   collected by month and currency; quotes sent and approved by the month sent; visits
 *   completed by week and technician. No row is ever updated by a write, so concurrent
 *   payments never queue on a summary row; the maintenance job folds the rows now and then.
 * - `invoice_balances`: one row per open (sent, partly paid) invoice with its due date and
 *   balance: the outstanding-by-age figures are today's buckets over this small table.
 *
 * The triggers' functions are db/functions/summaries_*.sql. The trigger names sort before the
 * visit triggers' (jobs_sync_visit, jobs_add_visits, visits_sync_job), so each runs before a
 * trigger of the same event changes the other table.
 */
const FIGURES_0260 = `'invoiced', 'collected', 'quotes_sent', 'quotes_approved', 'visits_completed'`;

export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE summary_deltas (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      figure text NOT NULL CHECK (figure IN (${FIGURES_0260})),
      period date NOT NULL,
      party_id uuid,
      currency text NOT NULL DEFAULT '',
      amount bigint NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX summary_deltas_figure ON summary_deltas (tenant_id, figure, period) INCLUDE (party_id, currency, amount);
    ${tenantTableSecurity("summary_deltas")}
  `);
  await sql.query(`
    CREATE TABLE invoice_balances (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      invoice_id uuid NOT NULL,
      due_date date,
      currency text NOT NULL,
      cents bigint NOT NULL,
      PRIMARY KEY (tenant_id, invoice_id)
    );
    ${tenantTableSecurity("invoice_balances")}
  `);
  for (const name of [
    "summaries_invoices",
    "summaries_payments",
    "summaries_quotes",
    "summaries_visits",
    "summaries_visit_deleted",
    "summaries_visit_assignees",
    "summaries_jobs",
    "summaries_rebuild",
    "summaries_fold",
    "summaries_time_zone",
  ])
    await sql.query(functionSql(name));
  const statement = (table: string, fn: string) => `
    CREATE TRIGGER figures_${table}_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
    CREATE TRIGGER figures_${table}_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
    CREATE TRIGGER figures_${table}_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`;
  await sql.query(`
    ${statement("invoices", "summaries_invoices")}
    ${statement("payments", "summaries_payments")}
    ${statement("quotes", "summaries_quotes")}
    ${statement("visits", "summaries_visits")}
    ${statement("visit_assignees", "summaries_visit_assignees")}
    CREATE TRIGGER figures_visits_deleted BEFORE DELETE ON visits
      FOR EACH ROW WHEN (OLD.status = 'completed') EXECUTE FUNCTION summaries_visit_deleted();
    CREATE TRIGGER figures_jobs_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION summaries_jobs();
    CREATE TRIGGER figures_jobs_update AFTER UPDATE ON jobs FOR EACH ROW
      WHEN ((OLD.status = 'completed' OR NEW.status = 'completed')
            AND (OLD.status, OLD.completed_at, OLD.assignee_id) IS DISTINCT FROM (NEW.status, NEW.completed_at, NEW.assignee_id))
      EXECUTE FUNCTION summaries_jobs();
    CREATE TRIGGER figures_jobs_delete BEFORE DELETE ON jobs
      FOR EACH ROW WHEN (OLD.status = 'completed') EXECUTE FUNCTION summaries_jobs();
    CREATE TRIGGER figures_time_zone AFTER UPDATE OF time_zone ON tenants
      FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION summaries_time_zone();
  `);
  // The rebuild is the current file's, which may also write figures a later migration adds
  // (0380's customers, counted there): without the check while it runs, those rows are dropped
  // after, and the check comes back as it was.
  await sql.query(`ALTER TABLE summary_deltas DROP CONSTRAINT summary_deltas_figure_check`);
  await sql.query(`SELECT summaries_rebuild(id) FROM tenants`);
  await sql.query(`DELETE FROM summary_deltas WHERE figure NOT IN (${FIGURES_0260})`);
  await sql.query(
    `ALTER TABLE summary_deltas ADD CONSTRAINT summary_deltas_figure_check CHECK (figure IN (${FIGURES_0260}))`,
  );
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP TRIGGER figures_time_zone ON tenants;
    DROP TRIGGER figures_jobs_insert ON jobs;
    DROP TRIGGER figures_jobs_update ON jobs;
    DROP TRIGGER figures_jobs_delete ON jobs;
    DROP TRIGGER figures_visits_deleted ON visits;
    ${["invoices", "payments", "quotes", "visits", "visit_assignees"]
      .map((t) => ["insert", "update", "delete"].map((op) => `DROP TRIGGER figures_${t}_${op} ON ${t};`).join("\n"))
      .join("\n")}
    DROP FUNCTION summaries_time_zone(), summaries_fold(uuid), summaries_rebuild(uuid), summaries_jobs(),
      summaries_visit_assignees(), summaries_visit_deleted(), summaries_visits(), summaries_quotes(),
      summaries_payments(), summaries_invoices();
    DROP TABLE invoice_balances, summary_deltas;
  `);
};
