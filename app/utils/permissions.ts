/** Roles and the permission matrix: the one place that says who may do what. */
import { ROLES, type Role } from "../../db/enums";

export { ROLES, type Role };

/** True when `actor` may give someone `role`: never a role above one's own (ROLES is ordered, owner first). */
export const mayGrant = (actor: Role, role: Role) => ROLES.indexOf(role) >= ROLES.indexOf(actor);

/**
 * True when `actor` may act on a member who holds `memberRole` (change their role, invite them,
 * show their invite page): the same bound as granting, so only an owner acts on an owner and
 * nobody reaches a member above their own role.
 */
export const mayManageMember = (actor: Role, memberRole: Role) => mayGrant(actor, memberRole);

export const PERMISSIONS = [
  "use_ai_assistant",
  "import_csv",
  "view_accounting_integrations",
  "view_calendar_integrations",
  "view_llm_settings",
  "manage_integrations",
  "use_offline_workflow",
  "view_records",
  "manage_portal_links",
  "view_dashboard",
  "view_reports",
  "manage_team",
  "access_api",
  // Part two: create and change customers, quotes, jobs, invoices, payments and requests.
  "manage_records",
  // The whole account as one file (/settings/export): the business's owner and admins.
  "export_account",
  // Named tax rates and groups (/settings/taxes): the business's owner and admins.
  "manage_taxes",
  // Everyone's timesheets: see, correct, approve and reopen weeks (a technician sees their own).
  "manage_timesheets",
  // The hours for payroll as a file (/timesheets/export.csv).
  "export_payroll",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ALL: readonly Permission[] = PERMISSIONS;

export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(ALL),
  admin: new Set(ALL),
  office: new Set<Permission>([
    "use_ai_assistant",
    "import_csv",
    "view_calendar_integrations",
    "use_offline_workflow",
    "view_records",
    "manage_portal_links",
    "view_dashboard",
    "manage_records",
    "manage_timesheets",
  ]),
  // view_records for a technician means their own assigned jobs only (services enforce it).
  technician: new Set<Permission>(["use_ai_assistant", "use_offline_workflow", "view_records"]),
};

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role]?.has(permission) ?? false;
}

export const ROLE_LABELS: Record<Role, string> = {
  owner: "Owner",
  admin: "Admin",
  office: "Office",
  technician: "Technician",
};

/**
 * What `view_records` covers for a role: everything in the tenant, or (a technician) only
 * the jobs assigned to them. The one place that says so; services and routes ask here.
 */
export function recordScope(role: Role): "all" | "own_jobs" | "none" {
  if (!can(role, "view_records")) return "none";
  return role === "technician" ? "own_jobs" : "all";
}
