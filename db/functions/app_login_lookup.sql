-- Sign-in: which businesses an e-mail signs in to, before any tenant is known (runs as the owner).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.app_login_lookup(p_email text)
 RETURNS TABLE(tenant_id uuid, id uuid, password_hash text, tenant_name text)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public'
AS $function$
      DECLARE
        l record;
      BEGIN
        FOR l IN SELECT e.tenant_id, e.user_id FROM login_emails e WHERE e.email = p_email ORDER BY e.tenant_id LIMIT 20 LOOP
          RETURN QUERY SELECT u.tenant_id, u.id, u.password_hash, t.name
            FROM users u JOIN tenants t ON t.id = u.tenant_id
           WHERE u.tenant_id = l.tenant_id AND u.id = l.user_id AND t.id = l.tenant_id;
        END LOOP;
      END $function$;
REVOKE ALL ON FUNCTION app_login_lookup(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_login_lookup(text) TO fieldservice_app;
