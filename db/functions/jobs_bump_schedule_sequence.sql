-- Trigger: a job's calendar SEQUENCE grows with each move (RFC 5545).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.jobs_bump_schedule_sequence()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      IF NEW.scheduled_start IS DISTINCT FROM OLD.scheduled_start
         OR NEW.scheduled_end IS DISTINCT FROM OLD.scheduled_end
         OR NEW.assignee_id IS DISTINCT FROM OLD.assignee_id
         OR ((NEW.status = 'cancelled') IS DISTINCT FROM (OLD.status = 'cancelled')) THEN
        NEW.schedule_sequence := OLD.schedule_sequence + 1;
      END IF;
      RETURN NEW;
    END
    $function$;
