// A team member's field list for the CSV import and the account export
// (docs/decisions/290-field-lists.md): every column of a team file, once. Derived from it: the
// import's row checks and row (app/services/import/row-schemas.ts), the import page's column
// table and the sample's header (app/services/import/columns.ts), the preview's stored records
// (app/services/import/records.server.ts) and the export's team file. Pure data.
import { email, maxLen, money, oneOf, optional, phone, required } from "~/services/import/cells";
import { centsSql, field, type RowOf } from "~/services/import/field-list";
import { MONEY_FORMAT } from "~/services/import/shared-fields";
import type { Role } from "../../../db/enums";

/** The roles a file may give: an import never makes a second owner. */
export const TEAM_ROLES = ["admin", "office", "technician"] as const satisfies readonly Role[];

export const TEAM_FIELDS = [
  field({
    key: "name",
    column: "name",
    csv: "name",
    check: required(maxLen(200)),
    label: "Name",
    required: true,
    format: "Text, up to 200 characters",
    example: "Tomás Ibáñez",
  }),
  field({
    key: "email",
    column: "email",
    csv: "email",
    check: required(email),
    label: "Email",
    required: true,
    format: "Email address, unique in your team",
    example: "tomas@duartehome.example",
  }),
  field({
    key: "role",
    column: "role",
    csv: "role",
    check: required(oneOf(TEAM_ROLES)),
    label: "Role",
    required: true,
    format: "admin, office or technician",
    example: "technician",
  }),
  field({
    key: "phone",
    column: "phone",
    csv: "phone",
    check: optional(phone),
    label: "Phone",
    format: "Phone number: digits, spaces, + ( ) - . and an optional extension (x12)",
    example: "+1 512 555 0111",
  }),
  field({
    key: "hourlyRateCents",
    column: "hourly_rate_cents",
    csv: "hourly_rate",
    check: optional(money),
    label: "Hourly rate",
    type: "bigint",
    format: MONEY_FORMAT,
    example: "68.50",
    export: centsSql("r.hourly_rate_cents"),
  }),
] as const;

/** A checked team member row, by code names. */
export type TeamMemberRow = RowOf<typeof TEAM_FIELDS>;
