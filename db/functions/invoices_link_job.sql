-- Trigger: an invoice made from a job fills the job link the dashboard counts by; a visit's
-- invoice (visit_id set, migration 0200) is not the job's own. visit_id is read through
-- to_jsonb so the function also runs on a database migrated only up to before that column.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.invoices_link_job()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.job_id IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.job_id IS DISTINCT FROM OLD.job_id) THEN
        UPDATE jobs SET invoice_id = NULL WHERE tenant_id = OLD.tenant_id AND id = OLD.job_id AND invoice_id = OLD.id;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.job_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.job_id IS DISTINCT FROM OLD.job_id)
         AND to_jsonb(NEW) ->> 'visit_id' IS NULL THEN
        UPDATE jobs SET invoice_id = NEW.id WHERE tenant_id = NEW.tenant_id AND id = NEW.job_id;
      END IF;
      RETURN NULL;
    END
    $function$;
