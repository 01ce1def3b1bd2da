import type { Permission, Role } from "~/utils/permissions";

/** The roles that run the office (a technician sees their own day instead). */
const OFFICE: Role[] = ["owner", "admin", "office"];

export type NavItem = { to: string; label: string; permission: Permission; roles?: Role[] };
export type NavSection = { title: string; items: NavItem[] };

/** The app's navigation; each entry shows only to roles with its permission. */
export const NAV: NavSection[] = [
  {
    title: "Work",
    items: [
      { to: "/", label: "Dashboard", permission: "view_dashboard" },
      { to: "/field", label: "My day", permission: "use_offline_workflow", roles: ["technician"] },
      { to: "/schedule", label: "Schedule", permission: "view_records" },
      { to: "/customers", label: "Customers", permission: "view_records", roles: OFFICE },
      { to: "/jobs", label: "Jobs", permission: "view_records" },
      { to: "/quotes", label: "Quotes", permission: "view_records", roles: OFFICE },
      { to: "/invoices", label: "Invoices", permission: "view_records", roles: OFFICE },
      { to: "/requests", label: "Booking requests", permission: "view_records", roles: OFFICE },
      { to: "/timesheets", label: "Timesheets", permission: "manage_timesheets" },
      { to: "/timesheets", label: "My timesheet", permission: "use_offline_workflow", roles: ["technician"] },
    ],
  },
  {
    title: "Tools",
    items: [
      { to: "/reports", label: "Reports", permission: "view_reports" },
      { to: "/ai-assistant", label: "Assistant", permission: "use_ai_assistant" },
      { to: "/import-data", label: "Import CSV", permission: "import_csv" },
      { to: "/field", label: "Field app", permission: "use_offline_workflow", roles: OFFICE },
    ],
  },
  {
    title: "Settings",
    items: [
      { to: "/settings/company", label: "Company", permission: "manage_team" },
      { to: "/team", label: "Team", permission: "manage_team" },
      { to: "/settings/messages", label: "Messages", permission: "manage_team" },
      { to: "/settings/accounting", label: "Accounting", permission: "view_accounting_integrations" },
      { to: "/settings/price-book", label: "Price book", permission: "manage_records" },
      { to: "/settings/taxes", label: "Taxes", permission: "manage_taxes" },
      { to: "/settings/calendar", label: "Calendar", permission: "view_calendar_integrations" },
      { to: "/settings/calendar", label: "Calendar feed", permission: "use_offline_workflow", roles: ["technician"] },
      { to: "/settings/llm", label: "Language model", permission: "view_llm_settings" },
      { to: "/settings/export", label: "Export your data", permission: "export_account" },
      { to: "/settings/billing", label: "Billing", permission: "manage_team", roles: ["owner"] },
    ],
  },
];

export function navFor(role: Role, permissions: readonly Permission[]): NavSection[] {
  return NAV.map((s) => ({
    ...s,
    items: s.items.filter((i) => permissions.includes(i.permission) && (!i.roles || i.roles.includes(role))),
  })).filter((s) => s.items.length > 0);
}
