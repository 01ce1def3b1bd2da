// What each import type is, as the import pages name it. Plain data.
import type { ImportType } from "~/services/import/columns";

/** What each type is, in the recommended order (later types refer to earlier ones). */
export const TYPE_INFO: Record<
  ImportType,
  { label: string; noun: string; one: string; text: string; records: string }
> = {
  customers: {
    label: "Customers",
    noun: "customers",
    one: "customer",
    text: "The people and businesses you work for: contact details, address and your own customer ID.",
    records: "/customers",
  },
  team: {
    label: "Team",
    noun: "team members",
    one: "team member",
    text: "Office staff and technicians with their role. They sign in later through an invite.",
    records: "/team",
  },
  jobs: {
    label: "Jobs",
    noun: "jobs",
    one: "job",
    text: "Work for your customers, with status, schedule and the technician assigned.",
    records: "/jobs",
  },
  quotes: {
    label: "Quotes",
    noun: "quotes",
    one: "quote",
    text: "Estimates with their line items: one row per line item, rows sharing a number form one quote.",
    records: "/quotes",
  },
  invoices: {
    label: "Invoices",
    noun: "invoices",
    one: "invoice",
    text: "Invoices with their line items and the amount already paid, one row per line item.",
    records: "/invoices",
  },
};
