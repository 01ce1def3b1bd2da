// The files of the account export (docs/decisions/360-account-export.md): what each CSV holds,
// as one SQL query per file, in a stable order (by creation, then id) and with no time of the
// export inside a row. Where an import type exists the file has the import's own columns, from
// the record's field list, so the export imports back; the other files name their parent by
// the key the import files carry (a customer's or job's external id, a document's number).
// Pure: the queries are run by ./export.server.ts. Every query takes the tenant as $1.
import { CUSTOMER_FIELDS } from "~/services/customers/fields";
import { JOB_FIELDS } from "~/services/jobs/fields";
import { QUOTE_FIELDS } from "~/services/quotes/fields";
import { INVOICE_FIELDS } from "~/services/invoices/fields";
import { TEAM_FIELDS } from "~/services/team/fields";
import { centsSql, exportColumnsOf, exportSql, type FieldList } from "~/services/import/field-list";
import type { ImportType } from "~/services/import/columns";

export interface ExportFile {
  /** The file's name in the ZIP. */
  name: string;
  /** The record type the manifest counts. */
  records: string;
  /** The CSV header. */
  headers: string[];
  /** One row per CSV line, the cells as text in header order. $1 = tenant. */
  sql: string;
  /** How the manifest counts the records (a document has one row per line item). $1 = tenant. */
  countSql: string;
  /** The import type whose columns the file has, if any. */
  importType?: ImportType;
}

/** A record's key as the files write it: its external id, or its Fieldwork id when it has none. */
export const keyOf = (alias: string) => `coalesce(${alias}.external_id, ${alias}.id::text)`;
const ts = (sql: string) => exportSql(sql, "timestamptz");

/** The SELECT of a field list's export columns, aliased by CSV name. */
function selectOf(fields: FieldList): { headers: string[]; select: string } {
  const columns = exportColumnsOf(fields);
  return {
    headers: columns.map((c) => c.csv),
    select: columns.map((c, i) => `${c.sql} AS c${i}`).join(", "),
  };
}

const customerJoin = "JOIN customers c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id";

function importFile(
  type: ImportType,
  fields: FieldList,
  from: string,
  order: string,
  count: string,
  records: string = type,
): ExportFile {
  const { headers, select } = selectOf(fields);
  return {
    name: `${type}.csv`,
    records,
    headers,
    sql: `SELECT ${select} ${from} ORDER BY ${order}`,
    countSql: count,
    importType: type,
  };
}

function otherFile(
  name: string,
  records: string,
  columns: [string, string][],
  from: string,
  order: string,
): ExportFile {
  return {
    name,
    records,
    headers: columns.map(([h]) => h),
    sql: `SELECT ${columns.map(([, sql], i) => `${sql} AS c${i}`).join(", ")} ${from} ORDER BY ${order}`,
    countSql: `SELECT count(*)::int AS n ${from}`,
  };
}

/** The files in the order of the ZIP: the five import files in the import's order, then the rest. */
export function exportFiles(): ExportFile[] {
  return [
    importFile(
      "customers",
      CUSTOMER_FIELDS,
      "FROM customers r WHERE r.tenant_id = $1",
      "r.created_at, r.id",
      "SELECT count(*)::int AS n FROM customers WHERE tenant_id = $1",
    ),
    // Owners are not in the team file: an import never makes an owner.
    importFile(
      "team",
      TEAM_FIELDS,
      "FROM users r WHERE r.tenant_id = $1 AND r.role <> 'owner'",
      "r.created_at, r.id",
      "SELECT count(*)::int AS n FROM users WHERE tenant_id = $1 AND role <> 'owner'",
      "team members",
    ),
    importFile(
      "jobs",
      JOB_FIELDS,
      `FROM jobs r ${customerJoin}
       LEFT JOIN users u ON u.tenant_id = r.tenant_id AND u.id = r.assignee_id
       WHERE r.tenant_id = $1`,
      "r.created_at, r.id",
      "SELECT count(*)::int AS n FROM jobs WHERE tenant_id = $1",
    ),
    importFile(
      "quotes",
      QUOTE_FIELDS,
      `FROM quotes r ${customerJoin}
       JOIN quote_items i ON i.tenant_id = r.tenant_id AND i.quote_id = r.id
       WHERE r.tenant_id = $1`,
      "r.created_at, r.id, i.position, i.id",
      "SELECT count(*)::int AS n FROM quotes WHERE tenant_id = $1",
    ),
    importFile(
      "invoices",
      INVOICE_FIELDS,
      `FROM invoices r ${customerJoin}
       JOIN invoice_items i ON i.tenant_id = r.tenant_id AND i.invoice_id = r.id
       WHERE r.tenant_id = $1`,
      "r.created_at, r.id, i.position, i.id",
      "SELECT count(*)::int AS n FROM invoices WHERE tenant_id = $1",
    ),
    otherFile(
      "properties.csv",
      "properties",
      [
        ["customer_external_id", keyOf("c")],
        ["position", "r.position::text"],
        ["label", "r.label"],
        ["address_line1", "r.address_line1"],
        ["address_line2", "r.address_line2"],
        ["city", "r.city"],
        ["region", "r.region"],
        ["postal_code", "r.postal_code"],
        ["country", "r.country"],
      ],
      `FROM customer_properties r ${customerJoin} WHERE r.tenant_id = $1`,
      "c.created_at, c.id, r.position, r.id",
    ),
    otherFile(
      "visits.csv",
      "visits",
      [
        ["job_external_id", keyOf("j")],
        ["starts_at", ts("r.starts_at")],
        ["ends_at", ts("r.ends_at")],
        ["status", "r.status"],
        ["note", "r.note"],
        [
          "crew_emails",
          `(SELECT string_agg(u.email, ' ' ORDER BY u.email) FROM visit_assignees va
             JOIN users u ON u.tenant_id = va.tenant_id AND u.id = va.user_id
            WHERE va.tenant_id = r.tenant_id AND va.visit_id = r.id)`,
        ],
      ],
      "FROM visits r JOIN jobs j ON j.tenant_id = r.tenant_id AND j.id = r.job_id WHERE r.tenant_id = $1",
      "j.created_at, j.id, r.starts_at, r.id",
    ),
    otherFile(
      "payments.csv",
      "payments",
      [
        ["invoice_number", "inv.number"],
        ["amount", centsSql("r.amount_cents")],
        ["currency", "r.currency"],
        ["method", "r.method"],
        ["reference", "r.reference"],
        ["received_on", exportSql("r.received_on", "date")],
        ["recorded_at", ts("r.recorded_at")],
      ],
      "FROM payments r JOIN invoices inv ON inv.tenant_id = r.tenant_id AND inv.id = r.invoice_id WHERE r.tenant_id = $1",
      "r.recorded_at, r.id",
    ),
    otherFile(
      "time_entries.csv",
      "time entries",
      [
        ["job_external_id", keyOf("j")],
        ["technician_email", "u.email"],
        ["started_at", ts("r.started_at")],
        ["ended_at", ts("r.ended_at")],
        ["minutes", "(extract(epoch FROM r.ended_at - r.started_at)::bigint / 60)::text"],
        ["note", "r.note"],
      ],
      `FROM time_entries r JOIN jobs j ON j.tenant_id = r.tenant_id AND j.id = r.job_id
       LEFT JOIN users u ON u.tenant_id = r.tenant_id AND u.id = r.user_id WHERE r.tenant_id = $1`,
      "r.started_at, r.id",
    ),
    otherFile(
      "price_book.csv",
      "price book items",
      [
        ["kind", "r.kind"],
        ["name", "r.name"],
        ["description", "r.description"],
        ["unit_price", centsSql("r.unit_price_cents")],
        ["tax_rate", "r.tax_rate::text"],
      ],
      "FROM price_book_items r WHERE r.tenant_id = $1",
      "lower(r.name), r.id",
    ),
    otherFile(
      "checklists.csv",
      "checklist items",
      [
        ["job_external_id", keyOf("j")],
        ["position", "r.position::text"],
        ["label", "r.label"],
        ["done_at", ts("r.done_at")],
        ["done_by_email", "u.email"],
      ],
      `FROM job_checklist_items r JOIN jobs j ON j.tenant_id = r.tenant_id AND j.id = r.job_id
       LEFT JOIN users u ON u.tenant_id = r.tenant_id AND u.id = r.done_by WHERE r.tenant_id = $1`,
      "j.created_at, j.id, r.position, r.id",
    ),
    otherFile(
      "job_notes.csv",
      "job notes",
      [
        ["job_external_id", keyOf("j")],
        ["author_email", "u.email"],
        ["body", "r.body"],
        ["occurred_at", ts("r.occurred_at")],
      ],
      `FROM job_notes r JOIN jobs j ON j.tenant_id = r.tenant_id AND j.id = r.job_id
       LEFT JOIN users u ON u.tenant_id = r.tenant_id AND u.id = r.author_id WHERE r.tenant_id = $1`,
      "r.occurred_at, r.id",
    ),
    otherFile(
      "booking_requests.csv",
      "booking requests",
      [
        ["customer_external_id", keyOf("c")],
        ["service", "r.service"],
        ["description", "r.description"],
        ["preferred_date", exportSql("r.preferred_date", "date")],
        ["time_window", "r.time_window"],
        ["address", "r.address"],
        ["phone", "r.phone"],
        ["status", "r.status"],
        ["requested_at", ts("r.created_at")],
      ],
      `FROM booking_requests r ${customerJoin} WHERE r.tenant_id = $1`,
      "r.created_at, r.id",
    ),
    otherFile(
      "history.csv",
      "history entries",
      [
        ["record_type", "r.record_type"],
        [
          "record",
          `CASE r.record_type
             WHEN 'customer' THEN (SELECT ${keyOf("x")} FROM customers x WHERE x.tenant_id = r.tenant_id AND x.id = r.record_id)
             WHEN 'job' THEN (SELECT ${keyOf("x")} FROM jobs x WHERE x.tenant_id = r.tenant_id AND x.id = r.record_id)
             WHEN 'quote' THEN (SELECT x.number FROM quotes x WHERE x.tenant_id = r.tenant_id AND x.id = r.record_id)
             WHEN 'invoice' THEN (SELECT x.number FROM invoices x WHERE x.tenant_id = r.tenant_id AND x.id = r.record_id)
             ELSE r.record_id::text END`,
        ],
        ["action", "r.action"],
        ["summary", "r.summary"],
        ["source", "r.source"],
        ["by", "r.actor_name"],
        ["occurred_at", ts("r.occurred_at")],
      ],
      "FROM record_history r WHERE r.tenant_id = $1",
      "r.occurred_at, r.id",
    ),
    otherFile(
      "job_status_changes.csv",
      "job status changes",
      [
        ["job_external_id", keyOf("j")],
        ["from_status", "r.from_status"],
        ["to_status", "r.to_status"],
        ["by_email", "u.email"],
        ["occurred_at", ts("r.occurred_at")],
      ],
      `FROM job_events r JOIN jobs j ON j.tenant_id = r.tenant_id AND j.id = r.job_id
       LEFT JOIN users u ON u.tenant_id = r.tenant_id AND u.id = r.user_id WHERE r.tenant_id = $1`,
      "r.occurred_at, r.id",
    ),
  ];
}

/** The photos, one image file each, listed in photos.csv. $1 = tenant. */
export const PHOTOS = {
  records: "photos",
  headers: ["job_external_id", "file", "content_type", "taken_at", "taken_by_email", "sha256"],
  sql: `SELECT r.id::text AS id, ${keyOf("j")} AS job, r.content_type, ${ts("r.taken_at")} AS taken_at, u.email,
               r.sha256, r.bytes
          FROM job_photos r JOIN jobs j ON j.tenant_id = r.tenant_id AND j.id = r.job_id
          LEFT JOIN users u ON u.tenant_id = r.tenant_id AND u.id = r.taken_by
         WHERE r.tenant_id = $1 ORDER BY r.taken_at, r.id`,
  countSql: "SELECT count(*)::int AS n FROM job_photos WHERE tenant_id = $1",
};

/** The customers' signatures: a drawn one as a PNG file, a typed one by its name only. $1 = tenant. */
export const SIGNATURES = {
  records: "signatures",
  headers: ["job_external_id", "signer_name", "signed_at", "file"],
  sql: `SELECT r.job_id::text AS id, ${keyOf("j")} AS job, r.signer_name, ${ts("r.signed_at")} AS signed_at, r.image
          FROM job_signatures r JOIN jobs j ON j.tenant_id = r.tenant_id AND j.id = r.job_id
         WHERE r.tenant_id = $1 ORDER BY r.signed_at, r.job_id`,
  countSql: "SELECT count(*)::int AS n FROM job_signatures WHERE tenant_id = $1",
};

export const PHOTO_EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
};
