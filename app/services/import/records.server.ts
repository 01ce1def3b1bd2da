// What a valid preview stores for its commit, and the set-based SQL that commits it
// (docs/decisions/071). Each record is a JSON array in the column order below (arrays, not
// objects: half the bytes, and jsonb reads an array element by position), so the commit is one
// `INSERT ... SELECT ... FROM jsonb_array_elements(...)` per table, never a loop.
import { randomUUID } from "node:crypto";
import { insertSelect, rows, type Tx } from "../../../db/index";
import { addLoginEmailsOfImportRun } from "../../../db/login-emails";
import { conflict } from "~/utils/app-error";
import { CUSTOMER_FIELDS } from "~/services/customers/fields";
import { JOB_FIELDS } from "~/services/jobs/fields";
import { QUOTE_FIELDS } from "~/services/quotes/fields";
import { INVOICE_FIELDS } from "~/services/invoices/fields";
import { TEAM_FIELDS } from "~/services/team/fields";
import { documentFieldsOf, storedColumnsOf, type StoredColumn } from "./field-list";
import type { ImportType } from "./columns";
import type { PropertyDraft } from "./mapping/apply.server";
import type {
  CustomerRow,
  InvoiceDocument,
  JobRow,
  LineItem,
  QuoteDocument,
  TeamMemberRow,
  ValidationResult,
} from "./row-types";

/** A stored record column: name in the SQL, PostgreSQL type, and how to read it. */
type Column<R> = StoredColumn<R>;

/** Integer thousandths as a decimal string: 2500 -> "2.500" (numeric columns, no float). */
function thousandths(n: number): string {
  return `${Math.floor(n / 1000)}.${String(n % 1000).padStart(3, "0")}`;
}

const ITEM_COLUMNS: Column<LineItem>[] = [
  ["position", "integer", (i) => i.position],
  ["description", "text", (i) => i.description],
  ["quantity", "numeric", (i) => thousandths(i.quantityMilli)],
  ["unit_price_cents", "bigint", (i) => i.unitPriceCents],
  ["tax_rate", "numeric", (i) => thousandths(i.taxRatePpm / 10)], // ppm of the amount -> percent, 3 decimals
  ["line_total_cents", "bigint", (i) => i.lineSubtotalCents],
  ["tax_cents", "bigint", (i) => i.lineTaxCents],
  ["discount_type", "text", (i) => i.discountType],
  ["discount_percent", "numeric", (i) => i.discountPercent],
  ["discount_amount_cents", "bigint", (i) => i.discountAmountCents],
  ["discount_cents", "bigint", (i) => i.lineDiscountCents],
];

/** A quote's line also keeps its option group, optional flag and the customer's choice. */
const QUOTE_ITEM_COLUMNS: Column<LineItem>[] = [
  ...ITEM_COLUMNS,
  ["option_name", "text", (i) => i.option ?? null],
  ["optional", "boolean", (i) => !!i.optional],
  ["selected", "boolean", (i) => i.selected ?? null],
];
const ITEM_COLUMNS_OF = { quote: QUOTE_ITEM_COLUMNS, invoice: ITEM_COLUMNS };

const PROPERTY_COLUMNS: Column<PropertyDraft>[] = [
  ["label", "text", (p) => p.label],
  ["address_line1", "text", (p) => p.addressLine1],
  ["address_line2", "text", (p) => p.addressLine2],
  ["city", "text", (p) => p.city],
  ["region", "text", (p) => p.region],
  ["postal_code", "text", (p) => p.postalCode],
  ["country", "text", (p) => p.country],
];

const toArray = <R>(columns: readonly Column<R>[], r: R) => columns.map((c) => c[2](r));

/** A quote's or invoice's computed columns, after its document-level fields. */
const documentTotals = (kind: "quote" | "invoice"): Column<QuoteDocument | InvoiceDocument>[] => [
  ["subtotal_cents", "bigint", (d) => d.subtotalCents],
  ["tax_cents", "bigint", (d) => d.taxCents],
  ["total_cents", "bigint", (d) => d.totalCents],
  ["discount_percent", "numeric", (d) => d.discountPercent],
  ["discount_amount_cents", "bigint", (d) => d.discountAmountCents],
  ["discount_cents", "bigint", (d) => d.discountCents],
  // Each line's columns, then the name of its tax rate (the commit finds or makes the rate).
  ["items", "jsonb", (d) => d.items.map((i) => [...toArray(ITEM_COLUMNS_OF[kind], i), i.taxRateName])],
];

/** Each type's stored record: its field list's columns (a document's: its document-level
 * ones), then what the preview computes. */
export const RECORD_COLUMNS = {
  customers: [
    ...storedColumnsOf<CustomerRow>(CUSTOMER_FIELDS),
    // The id is chosen at the preview, so the service properties can name their customer.
    ["id", "uuid", () => randomUUID()],
    ["properties", "jsonb", (v) => (v.properties ?? []).map((p) => toArray(PROPERTY_COLUMNS, p))],
  ] as Column<CustomerRow>[],
  team: storedColumnsOf<TeamMemberRow>(TEAM_FIELDS),
  jobs: storedColumnsOf<JobRow>(JOB_FIELDS),
  quotes: [
    ...storedColumnsOf<QuoteDocument | InvoiceDocument>(documentFieldsOf(QUOTE_FIELDS)),
    ...documentTotals("quote"),
  ],
  invoices: [
    ...storedColumnsOf<QuoteDocument | InvoiceDocument>(documentFieldsOf(INVOICE_FIELDS)),
    ...documentTotals("invoice"),
  ],
};

/** The records of a valid preview, in file order and in slices of `size`, each record an
 * array in RECORD_COLUMNS order (made slice by slice, so they never all exist at once). */
export function* recordSlices(result: ValidationResult, size: number): Generator<unknown[][]> {
  const list: readonly unknown[] =
    result.type === "quotes" || result.type === "invoices" ? result.documents : result.rows.map((r) => r.values);
  const columns = RECORD_COLUMNS[result.type] as readonly Column<unknown>[];
  for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size).map((r) => toArray(columns, r));
}

/** The stored records' columns (by position in each record's array). $1 = tenant, $2 = run. */
function records(columns: readonly Column<never>[], pick?: string[]): string {
  const select = columns
    .map(([name, type], i) =>
      pick && !pick.includes(name) ? null : type === "jsonb" ? `x->${i} AS ${name}` : `(x->>${i})::${type} AS ${name}`,
    )
    .filter(Boolean)
    .join(", ");
  return `SELECT ${select} FROM import_run_data d CROSS JOIN LATERAL jsonb_array_elements(d.data::jsonb) AS x
    WHERE d.tenant_id = $1 AND d.run_id = $2 AND d.kind = 'records'`;
}

/**
 * Stored columns as a relation `r`. OFFSET 0 keeps it a separate subquery: otherwise the
 * planner joins customers inside the loop over chunks and hashes the tenant's customers once
 * per chunk.
 */
function source(columns: readonly Column<never>[], pick?: string[]): string {
  return `FROM (${records(columns, pick)} OFFSET 0) r`;
}

const customerJoin = `
  LEFT JOIN customers ce ON ce.tenant_id = $1 AND ce.email = r.customer_email
  LEFT JOIN customers cx ON cx.tenant_id = $1 AND cx.external_id = r.customer_external_id`;
const customerResolved = `
  (r.customer_email IS NULL OR ce.id IS NOT NULL) AND (r.customer_external_id IS NULL OR cx.id IS NOT NULL)
  AND (ce.id IS NULL OR cx.id IS NULL OR ce.id = cx.id)`;
/** Letters and digits only, lower case: "12 Elm St., Austin" = "12 elm st austin". */
const squeeze = (sql: string) => `regexp_replace(lower(${sql}), '[^[:alnum:]]+', '', 'g')`;

/**
 * The customer's service property a job's address names (decision 222):
 * the address equals, letters and digits compared, the property's label, its first line, or its
 * first line followed by its other parts. The first such property by position, else null.
 */
export const propertyOfAddress = (customerId: string, address: string) => `(
  SELECT p.id FROM customer_properties p
   WHERE p.tenant_id = $1 AND p.customer_id = ${customerId} AND ${address} IS NOT NULL
     AND ${squeeze(address)} <> ''
     AND ${squeeze(address)} IN (
       ${squeeze("p.label")}, ${squeeze("p.address_line1")},
       ${squeeze("concat_ws(' ', p.address_line1, p.city)")},
       ${squeeze("concat_ws(' ', p.address_line1, p.city, p.region)")},
       ${squeeze("concat_ws(' ', p.address_line1, p.city, p.region, p.postal_code)")},
       ${squeeze("concat_ws(' ', p.address_line1, p.address_line2, p.city, p.region, p.postal_code)")},
       ${squeeze("concat_ws(' ', p.address_line1, p.address_line2, p.city, p.region, p.postal_code, p.country)")},
       ${squeeze("concat_ws(' ', p.address_line1, p.city, p.region, p.postal_code, p.country)")})
   ORDER BY p.position, p.id LIMIT 1)`;

/** A document's discount columns, and their values in the stored record `r`. */
const DOCUMENT_DISCOUNT = "discount_type, discount_percent, discount_amount_cents, discount_cents";
const documentDiscount = (r: string) =>
  `${r}.discount_type, ${r}.discount_percent, ${r}.discount_amount_cents, ${r}.discount_cents`;

const issuedAt = `coalesce(r.issue_date::timestamp AT TIME ZONE 'UTC', now())`;

/** A line's tax rate name: the element after its columns. */
const rateNameAt = (kind: "quote" | "invoice") => ITEM_COLUMNS_OF[kind].length;
const taxRateAt = ITEM_COLUMNS.findIndex((c) => c[0] === "tax_rate");
/** The rate a name finds: case ignored, an active one before an archived one (as the preview's). */
const rateOfName = (name: string) => `(SELECT x.id FROM tax_rates x
    WHERE x.tenant_id = $1 AND lower(x.name) = lower(${name})
    ORDER BY x.archived_at IS NULL DESC, x.created_at, x.id LIMIT 1)`;

/**
 * The tax rates the file names that the business does not have, made with the percent of the
 * lines naming them (the preview checked they agree) and marked with the run, so the undo
 * removes them with the documents.
 */
const newRatesSql = (kind: "quote" | "invoice") => `
  INSERT INTO tax_rates (tenant_id, name, rate, import_run_id)
  SELECT DISTINCT ON (lower(n.name)) $1, n.name, n.rate, $2
    FROM (SELECT item->>${rateNameAt(kind)} AS name, (item->>${taxRateAt})::numeric AS rate
          ${source(RECORD_COLUMNS[`${kind}s`], ["items"])}
          CROSS JOIN LATERAL jsonb_array_elements(r.items) AS item) n
   WHERE n.name IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM tax_rates x WHERE x.tenant_id = $1 AND lower(x.name) = lower(n.name))
   ORDER BY lower(n.name), n.name`;

const itemsSql = (kind: "quote" | "invoice") => `
  INSERT INTO ${kind}_items (tenant_id, ${kind}_id, ${ITEM_COLUMNS_OF[kind].map((c) => c[0]).join(", ")}, tax_rate_id)
  SELECT $1, doc.id, ${ITEM_COLUMNS_OF[kind].map(([, type], i) => `(item->>${i})::${type}`).join(", ")},
         ${rateOfName(`item->>${rateNameAt(kind)}`)}
  ${source(RECORD_COLUMNS[`${kind}s`], ["number", "items"])}
  JOIN ${kind}s doc ON doc.tenant_id = $1 AND doc.number = r.number AND doc.import_run_id = $2
  CROSS JOIN LATERAL jsonb_array_elements(r.items) AS item`;

/**
 * Lines whose named rate is not the percent the preview priced them at (a rate of that name
 * was added or changed since): counted after the insert, and the commit is refused for any.
 */
const rateChangedSql = (kind: "quote" | "invoice") => `
  SELECT count(*)::int AS n FROM ${kind}_items i
    JOIN ${kind}s doc ON doc.tenant_id = $1 AND doc.id = i.${kind}_id AND doc.import_run_id = $2
    JOIN tax_rates x ON x.tenant_id = $1 AND x.id = i.tax_rate_id
   WHERE i.tenant_id = $1
     AND i.tax_rate IS DISTINCT FROM coalesce(x.rate, (
       SELECT sum(m.rate) FROM tax_group_rates g JOIN tax_rates m ON m.tenant_id = $1 AND m.id = g.rate_id
        WHERE g.tenant_id = $1 AND g.group_id = x.id))`;

/** Per type: the statement creating the main records (its row count must equal the records
 * stored), with `with` its leading common table expressions, then statements for their parts
 * (line items, payments), then a count of what changed since the preview (must be 0).
 * `after`: common table expressions written after the main one (it is `ins`).
 * `checksOwnRows`: the main statement also writes rows whose keys refer to rows it inserts. */
export const COMMIT_SQL: Record<
  ImportType,
  { with?: string; main: string; after?: string; parts: string[]; changed?: string; checksOwnRows?: boolean }
> = {
  customers: {
    // One statement over one parse of the stored records: the customers, and in the same
    // statement their service properties (one row per element of a record's list), whose keys
    // PostgreSQL checks at the statement's end, when the customers are in. The properties come
    // after the customers: Citus runs each common table expression that writes as its own step,
    // in the order written, and checks each step's keys at its end.
    with: `r AS MATERIALIZED (${records(RECORD_COLUMNS.customers)})`,
    main: `
      INSERT INTO customers (tenant_id, id, ${CUSTOMER_FIELDS.map((f) => f.column).join(", ")}, import_run_id)
      SELECT $1, r.id, ${CUSTOMER_FIELDS.map((f) => `r.${f.column}`).join(", ")}, $2 FROM r`,
    after: `properties AS (
        INSERT INTO customer_properties (tenant_id, customer_id, position, ${PROPERTY_COLUMNS.map((c) => c[0]).join(", ")}, import_run_id)
        SELECT $1, r.id, p.ord, ${PROPERTY_COLUMNS.map((_, i) => `p.v->>${i}`).join(", ")}, $2
          FROM r CROSS JOIN LATERAL jsonb_array_elements(r.properties) WITH ORDINALITY AS p(v, ord)
        RETURNING 1)`,
    parts: [],
    checksOwnRows: true,
  },
  team: {
    // No password: imported members sign in through an invite (docs/decisions/003).
    main: `
      INSERT INTO users (tenant_id, email, name, role, password_hash, phone, hourly_rate_cents, import_run_id)
      SELECT $1, r.email, r.name, r.role, NULL, r.phone, r.hourly_rate_cents, $2
      ${source(RECORD_COLUMNS.team)}`,
    parts: [],
  },
  jobs: {
    main: `
      INSERT INTO jobs (tenant_id, customer_id, title, description, status, scheduled_start, scheduled_end, assignee_id,
        address, external_id, completed_at, import_run_id, property_id)
      SELECT $1, coalesce(ce.id, cx.id), r.title, r.description, r.status, r.scheduled_start, r.scheduled_end, u.id,
        r.address, r.external_id, CASE WHEN r.status = 'completed' THEN coalesce(r.scheduled_end, r.scheduled_start) END, $2,
        ${propertyOfAddress("coalesce(ce.id, cx.id)", "r.address")}
      ${source(RECORD_COLUMNS.jobs)}
      ${customerJoin}
      LEFT JOIN users u ON u.tenant_id = $1 AND u.email = r.assignee_email
      WHERE ${customerResolved} AND (r.assignee_email IS NULL OR u.id IS NOT NULL)`,
    parts: [],
  },
  quotes: {
    main: `
      INSERT INTO quotes (tenant_id, customer_id, number, title, status, issue_date, valid_until, currency, notes,
        chosen_option, subtotal_cents, tax_cents, total_cents, ${DOCUMENT_DISCOUNT}, sent_at, approved_at, declined_at,
        import_run_id)
      SELECT $1, coalesce(ce.id, cx.id), r.number, r.title, r.status, r.issue_date, r.valid_until, r.currency, r.notes,
        r.chosen_option,
        r.subtotal_cents, r.tax_cents, r.total_cents, ${documentDiscount("r")},
        CASE WHEN r.status <> 'draft' THEN ${issuedAt} END,
        CASE WHEN r.status = 'approved' THEN now() END,
        CASE WHEN r.status = 'declined' THEN now() END, $2
      ${source(RECORD_COLUMNS.quotes)}
      ${customerJoin}
      WHERE ${customerResolved}`,
    parts: [newRatesSql("quote"), itemsSql("quote")],
    changed: rateChangedSql("quote"),
  },
  invoices: {
    main: `
      INSERT INTO invoices (tenant_id, customer_id, number, status, issue_date, due_date, currency, subtotal_cents,
        tax_cents, total_cents, amount_paid_cents, ${DOCUMENT_DISCOUNT}, sent_at, paid_at, import_run_id)
      SELECT $1, coalesce(ce.id, cx.id), r.number, r.status, r.issue_date, r.due_date, r.currency, r.subtotal_cents,
        r.tax_cents, r.total_cents, r.amount_paid_cents, ${documentDiscount("r")},
        CASE WHEN r.status <> 'draft' THEN ${issuedAt} END,
        CASE WHEN r.status = 'paid' THEN now() END, $2
      ${source(RECORD_COLUMNS.invoices)}
      ${customerJoin}
      WHERE ${customerResolved}`,
    changed: rateChangedSql("invoice"),
    parts: [
      newRatesSql("invoice"),
      itemsSql("invoice"),
      // Money received before the import becomes one payment (method "import"), so the
      // invoice's payments add up to its amount_paid (docs/decisions/073).
      // received_on given here (the tenant's today), so the database's fill-in trigger never runs per row.
      `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference, recorded_at, received_on, import_run_id)
       SELECT $1, i.id, i.amount_paid_cents, i.currency, 'import', 'Paid before the CSV import', now(),
              (SELECT (now() AT TIME ZONE time_zone)::date FROM tenants WHERE id = $1), $2
         FROM invoices i WHERE i.tenant_id = $1 AND i.import_run_id = $2 AND i.amount_paid_cents > 0`,
    ],
  },
};

const NOUNS: Record<ImportType, string> = {
  customers: "customers",
  team: "team members",
  jobs: "jobs",
  quotes: "quotes",
  invoices: "invoices",
};

function pgCode(error: unknown): string | undefined {
  const e = error as { parent?: { code?: string }; original?: { code?: string }; code?: string };
  return e?.parent?.code ?? e?.original?.code ?? e?.code;
}

/**
 * Inserts the run's stored records inside the caller's transaction. Anything that changed
 * since the preview (a duplicate added, a referenced record deleted) refuses the whole commit.
 */
export async function insertRecords(
  type: ImportType,
  tenantId: string,
  runId: string,
  expected: number,
  t: Tx,
): Promise<number> {
  const { with: leading, main, after, parts, checksOwnRows } = COMMIT_SQL[type];
  // The joins hash up to 50,000 records and the tenant's customers: room to do it in memory.
  await rows(`SET LOCAL work_mem = '64MB'`, [], t);
  // Keys that point at rows this commit inserts (a property at its customer) are checked by
  // PostgreSQL row by row with a plan it caches per connection. A plan cached while the table
  // was small scans the table for each check (50,000 checks over 40,000 customers: past the
  // 60 s statement timeout). So the connection's cached plans are dropped and, without
  // sequential scans, the check's plan is made again once as one index lookup, and reused
  // for every row (planning it per row cost more than the inserts).
  const freshKeyChecks = async () => {
    await rows(`SET LOCAL enable_seqscan = off`, [], t);
    await rows(`DISCARD PLANS`, [], t);
  };
  try {
    if (checksOwnRows) await freshKeyChecks();
    const [{ n }] = await rows<{ n: number }>(
      `WITH ${leading ? `${leading}, ` : ""}ins AS (${main} RETURNING 1)${after ? `, ${after}` : ""} SELECT count(*)::int AS n FROM ins`,
      [tenantId, runId],
      t,
    );
    if (n !== expected) {
      throw conflict(
        `Some ${NOUNS[type]} refer to customers or team members that were deleted or changed since the preview. Preview the file again to see which rows.`,
      );
    }
    if (parts.length) {
      if (!checksOwnRows) await freshKeyChecks();
      for (const sql of parts) await insertSelect(sql, [tenantId, runId], t);
      if (COMMIT_SQL[type].changed) {
        const [changed] = await rows<{ n: number }>(COMMIT_SQL[type].changed!, [tenantId, runId], t);
        if (changed!.n > 0)
          throw conflict(
            "A tax rate this file names was added or changed since the preview. Preview the file again to see its figures.",
          );
      }
    }
    if (parts.length || checksOwnRows) await rows(`SET LOCAL enable_seqscan = on`, [], t);
    // Imported members' sign-in rows (db/login-emails.ts), in the same transaction.
    if (type === "team") await addLoginEmailsOfImportRun(tenantId, runId, t);
    return n;
  } catch (error) {
    const code = pgCode(error);
    if (code === "23505") {
      throw conflict(
        `Some of these ${NOUNS[type]} were added since the preview (the same email, external_id or number now exists). Preview the file again to see which rows.`,
      );
    }
    if (code === "23503")
      throw conflict("Records this file refers to were deleted since the preview. Preview the file again.");
    throw error;
  }
}

export const IMPORT_NOUNS = NOUNS;
