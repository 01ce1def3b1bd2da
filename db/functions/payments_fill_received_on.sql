-- Trigger: a payment's day in the tenant's zone, for the reports.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.payments_fill_received_on()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public'
AS $function$
    BEGIN
      NEW.received_on := (coalesce(NEW.recorded_at, now()) AT TIME ZONE
        coalesce((SELECT time_zone FROM tenants WHERE id = NEW.tenant_id), 'UTC'))::date;
      RETURN NEW;
    END
    $function$;
