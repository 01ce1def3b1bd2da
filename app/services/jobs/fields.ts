// The job's field list for the CSV import and the account export (docs/decisions/290-field-lists.md):
// every column of a jobs file, once. Derived from it: the import's row checks and row
// (app/services/import/row-schemas.ts), the import page's column table and the sample's header
// (app/services/import/columns.ts), the preview's stored records
// (app/services/import/records.server.ts) and the export's jobs file. Pure data, safe in the browser.
import { JOB_STATUSES } from "../../../db/enums";
import { email, isoDateTime, maxLen, oneOf, optional, required } from "~/services/import/cells";
import { field, type RowOf } from "~/services/import/field-list";
import { customerRefFields } from "~/services/import/shared-fields";

const dateTime = "Date and time, ISO 8601 with a UTC offset (Z or +hh:mm)";

/** Every job status: an exported file names each (a job on the road, on hold, under way). */
export const IMPORT_JOB_STATUSES = JOB_STATUSES;

export const JOB_FIELDS = [
  field({
    key: "title",
    column: "title",
    csv: "title",
    check: required(maxLen(200)),
    label: "Title",
    required: true,
    format: "Text, up to 200 characters",
    example: "Replace water heater",
  }),
  ...customerRefFields,
  field({
    key: "description",
    column: "description",
    csv: "description",
    check: optional(maxLen(5000), true),
    label: "Description",
    format: "Text, up to 5,000 characters, line breaks allowed",
    example: "50 gal gas unit in garage",
  }),
  field({
    key: "status",
    column: "status",
    csv: "status",
    check: optional(oneOf(IMPORT_JOB_STATUSES)),
    label: "Status",
    format: `${IMPORT_JOB_STATUSES.join(", ")}. Default: scheduled when scheduled_start is given, else unscheduled.`,
    example: "scheduled",
  }),
  field({
    key: "scheduledStart",
    column: "scheduled_start",
    csv: "scheduled_start",
    check: optional(isoDateTime),
    label: "Scheduled start",
    type: "timestamptz",
    format: `${dateTime}. Required when status is scheduled, en_route, in_progress or on_hold.`,
    example: "2026-07-06T08:00:00-05:00",
  }),
  field({
    key: "scheduledEnd",
    column: "scheduled_end",
    csv: "scheduled_end",
    check: optional(isoDateTime),
    label: "Scheduled end",
    type: "timestamptz",
    format: `${dateTime}, not before scheduled_start`,
    example: "2026-07-06T11:00:00-05:00",
  }),
  field({
    key: "assigneeEmail",
    column: "assignee_email",
    csv: "assignee_email",
    check: optional(email),
    label: "Technician",
    format: "Email of an existing team member",
    example: "tomas@duartehome.example",
    export: "u.email",
  }),
  field({
    key: "address",
    column: "address",
    csv: "address",
    check: optional(maxLen(500)),
    label: "Address",
    format: "Job site address, up to 500 characters",
    example: "1208 Barton Springs Rd, Austin, TX 78704",
  }),
  field({
    key: "externalId",
    column: "external_id",
    csv: "external_id",
    check: optional(maxLen(100)),
    label: "External id",
    format: "Your own ID for the job, up to 100 characters, unique",
    example: "JOB-5001",
    // The account export names every job (its visits, notes and photos name it): one without
    // an external id by its Fieldwork id.
    export: "coalesce(r.external_id, r.id::text)",
  }),
] as const;

/** A checked job row, by code names (the status defaulted from the time). */
export type JobFieldsRow = RowOf<typeof JOB_FIELDS>;
