import type { Permission } from "~/utils/permissions";
import type { SessionUser } from "./sessions.server";

// The signed-in user as the services see them. The HTTP guard (app/http/auth.server.ts) finds
// them from the request; every service takes an Actor, so no query can forget its tenant.

export type CurrentUser = SessionUser & { permissions: Permission[] };
/** Who is acting: what every service takes, so no query can forget its tenant. */
export type Actor = { tenantId: string; userId: string; role: CurrentUser["role"] };

export const actorOf = (u: CurrentUser): Actor => ({ tenantId: u.tenantId, userId: u.id, role: u.role });
