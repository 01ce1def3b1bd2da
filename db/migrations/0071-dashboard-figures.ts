import type { Migration } from "../migrate";

// The dashboard's figures and the reports' "collected" (docs/decisions/181):
// - payments.received_on is the day the money arrived, in the tenant's calendar. The office
//   form asks for it; every other writer (portal, import) gets the day of recorded_at in the
//   tenant's zone, filled by the database when the insert leaves it empty, so the reports and
//   the dashboard count each payment on one calendar day whoever wrote it.
// - jobs.invoice_id names the invoice made from a completed job, kept by a trigger on
//   invoices.job_id (the one link, unique per job), so "completed jobs waiting to be invoiced" is
//   a partial index of a handful of rows instead of an anti-join over every completed job.
// - approved quotes not yet converted to a job: a partial index, for the count and the list.
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    UPDATE payments p SET received_on = (p.recorded_at AT TIME ZONE t.time_zone)::date
      FROM tenants t WHERE t.id = p.tenant_id AND p.received_on IS NULL;

    -- SECURITY DEFINER: reads the payment's own tenant's zone whatever the session's tenant setting.
    CREATE FUNCTION payments_fill_received_on() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
    BEGIN
      NEW.received_on := (coalesce(NEW.recorded_at, now()) AT TIME ZONE
        coalesce((SELECT time_zone FROM tenants WHERE id = NEW.tenant_id), 'UTC'))::date;
      RETURN NEW;
    END
    $fn$;
    CREATE TRIGGER payments_received_on BEFORE INSERT ON payments
      FOR EACH ROW WHEN (NEW.received_on IS NULL) EXECUTE FUNCTION payments_fill_received_on();
    ALTER TABLE payments ALTER COLUMN received_on SET NOT NULL;
    CREATE INDEX payments_received ON payments (tenant_id, received_on) INCLUDE (invoice_id, currency, amount_cents);

    ALTER TABLE jobs ADD COLUMN invoice_id uuid;
    UPDATE jobs j SET invoice_id = i.id FROM invoices i WHERE i.tenant_id = j.tenant_id AND i.job_id = j.id;
    CREATE FUNCTION invoices_link_job() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.job_id IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.job_id IS DISTINCT FROM OLD.job_id) THEN
        UPDATE jobs SET invoice_id = NULL WHERE tenant_id = OLD.tenant_id AND id = OLD.job_id AND invoice_id = OLD.id;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.job_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.job_id IS DISTINCT FROM OLD.job_id) THEN
        UPDATE jobs SET invoice_id = NEW.id WHERE tenant_id = NEW.tenant_id AND id = NEW.job_id;
      END IF;
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER invoices_job_link AFTER INSERT OR UPDATE OF job_id OR DELETE ON invoices
      FOR EACH ROW EXECUTE FUNCTION invoices_link_job();
    CREATE INDEX jobs_to_invoice ON jobs (tenant_id, (coalesce(scheduled_start, 'infinity'::timestamptz)), id)
      WHERE status = 'completed' AND invoice_id IS NULL;

    CREATE INDEX quotes_to_schedule ON quotes (tenant_id, created_at, id) WHERE status = 'approved' AND job_id IS NULL;
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP INDEX quotes_to_schedule, jobs_to_invoice, payments_received;
    DROP TRIGGER invoices_job_link ON invoices;
    DROP FUNCTION invoices_link_job();
    ALTER TABLE jobs DROP COLUMN invoice_id;
    DROP TRIGGER payments_received_on ON payments;
    DROP FUNCTION payments_fill_received_on();
    ALTER TABLE payments ALTER COLUMN received_on DROP NOT NULL;
  `);
};
