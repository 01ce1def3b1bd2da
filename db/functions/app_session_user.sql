-- The signed-in user of a session cookie, with the tenant's name and zone (runs as the owner).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.app_session_user(p_tenant uuid, p_session text)
 RETURNS TABLE("sessionId" text, "tenantId" uuid, "tenantName" text, "timeZone" text, id uuid, email text, name text, role text, flash jsonb)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public'
AS $function$
      BEGIN
        RETURN QUERY SELECT s.id, s.tenant_id, t.name, t.time_zone, u.id, u.email, u.name, u.role, s.flash
          FROM sessions s
          JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.user_id
          JOIN tenants t ON t.id = s.tenant_id
         WHERE s.tenant_id = p_tenant AND t.id = p_tenant AND s.id = p_session AND s.expires_at > now();
      END $function$;
REVOKE ALL ON FUNCTION app_session_user(uuid, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_session_user(uuid, text) TO fieldservice_app;
