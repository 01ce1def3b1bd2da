-- Row trigger on a tenant's change of time zone: its months and weeks move, so its summaries
-- are made again from its records.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_time_zone() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
BEGIN
  PERFORM summaries_rebuild(NEW.id);
  RETURN NULL;
END
$fn$;
