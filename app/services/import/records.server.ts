// What a valid preview stores for its commit, and the set-based SQL that commits it
// (docs/decisions/071). The records are plain objects keyed by database column, so the commit
// is one `INSERT ... SELECT ... FROM json_to_recordset(...)` per table, never a loop.
import { rows, type Tx } from "../../../db/index";
import { conflict } from "~/utils/app-error";
import type { ImportType } from "./columns";
import type { InvoiceDocument, LineItem, QuoteDocument, ValidationResult } from "./validate.server";

type Json = Record<string, unknown>;

/** Integer thousandths as a decimal string: 2500 -> "2.500" (numeric columns, no float). */
function thousandths(n: number): string {
  return `${Math.floor(n / 1000)}.${String(n % 1000).padStart(3, "0")}`;
}

function items(list: LineItem[]): Json[] {
  return list.map((i) => ({
    position: i.position,
    description: i.description,
    quantity: thousandths(i.quantityMilli),
    unit_price_cents: i.unitPriceCents,
    tax_rate: thousandths(i.taxRatePpm / 10), // ppm of the amount -> percent with 3 decimals
    line_total_cents: i.lineSubtotalCents,
    tax_cents: i.lineTaxCents,
  }));
}

const docBase = (d: QuoteDocument | InvoiceDocument) => ({
  number: d.number,
  customer_email: d.customerEmail,
  customer_external_id: d.customerExternalId,
  status: d.status,
  issue_date: d.issueDate,
  currency: d.currency,
  subtotal_cents: d.subtotalCents,
  tax_cents: d.taxCents,
  total_cents: d.totalCents,
  items: items(d.items),
});

/** The records of a valid preview, in file order. */
export function recordsOf(result: ValidationResult): Json[] {
  switch (result.type) {
    case "customers":
      return result.rows.map(({ values: v }) => ({
        name: v!.name,
        company: v!.company,
        email: v!.email,
        phone: v!.phone,
        address_line1: v!.addressLine1,
        address_line2: v!.addressLine2,
        city: v!.city,
        region: v!.region,
        postal_code: v!.postalCode,
        country: v!.country,
        notes: v!.notes,
        external_id: v!.externalId,
      }));
    case "team":
      return result.rows.map(({ values: v }) => ({
        name: v!.name,
        email: v!.email,
        role: v!.role,
        phone: v!.phone,
        hourly_rate_cents: v!.hourlyRateCents,
      }));
    case "jobs":
      return result.rows.map(({ values: v }) => ({
        title: v!.title,
        customer_email: v!.customerEmail,
        customer_external_id: v!.customerExternalId,
        description: v!.description,
        status: v!.status,
        scheduled_start: v!.scheduledStart,
        scheduled_end: v!.scheduledEnd,
        assignee_email: v!.assigneeEmail,
        address: v!.address,
        external_id: v!.externalId,
      }));
    case "quotes":
      return result.documents.map((d) => ({ ...docBase(d), title: d.title, valid_until: d.validUntil, notes: d.notes }));
    case "invoices":
      return result.documents.map((d) => ({ ...docBase(d), due_date: d.dueDate, amount_paid_cents: d.amountPaidCents }));
  }
}

// The stored records of the run, as a relation. $1 = tenant, $2 = run.
const source = (columns: string) => `
  FROM import_run_data d
  CROSS JOIN LATERAL json_to_recordset(d.data::json) AS r(${columns})`;
const ofRun = `d.tenant_id = $1 AND d.run_id = $2 AND d.kind = 'records'`;

// References are resolved again at commit, inside the commit's transaction: a row whose
// customer or assignee is gone (or now names two customers) is not inserted, and the count
// check below turns that into a refusal.
const customerJoin = `
  LEFT JOIN customers ce ON ce.tenant_id = $1 AND ce.email = r.customer_email
  LEFT JOIN customers cx ON cx.tenant_id = $1 AND cx.external_id = r.customer_external_id`;
const customerResolved = `
  (r.customer_email IS NULL OR ce.id IS NOT NULL) AND (r.customer_external_id IS NULL OR cx.id IS NOT NULL)
  AND (ce.id IS NULL OR cx.id IS NULL OR ce.id = cx.id)`;
const docColumns = `number text, customer_email text, customer_external_id text, status text, issue_date date, currency text,
  subtotal_cents bigint, tax_cents bigint, total_cents bigint`;
const itemColumns = `position integer, description text, quantity numeric, unit_price_cents bigint, tax_rate numeric,
  line_total_cents bigint, tax_cents bigint`;
const issuedAt = `coalesce(r.issue_date::timestamp AT TIME ZONE 'UTC', now())`;

const itemsSql = (kind: "quote" | "invoice") => `
  INSERT INTO ${kind}_items (tenant_id, ${kind}_id, position, description, quantity, unit_price_cents, tax_rate, line_total_cents, tax_cents)
  SELECT $1, doc.id, i.position, i.description, i.quantity, i.unit_price_cents, i.tax_rate, i.line_total_cents, i.tax_cents
  ${source("number text, items json")}
  JOIN ${kind}s doc ON doc.tenant_id = $1 AND doc.number = r.number AND doc.import_run_id = $2
  CROSS JOIN LATERAL json_to_recordset(r.items) AS i(${itemColumns})
  WHERE ${ofRun}`;

/** Per type: the statement creating the main records (its row count must equal the records
 * stored), then statements for their parts (line items, payments). */
const COMMIT_SQL: Record<ImportType, { main: string; parts: string[] }> = {
  customers: {
    main: `
      INSERT INTO customers (tenant_id, name, company, email, phone, address_line1, address_line2, city, region,
        postal_code, country, notes, external_id, import_run_id)
      SELECT $1, r.name, r.company, r.email, r.phone, r.address_line1, r.address_line2, r.city, r.region,
        r.postal_code, r.country, r.notes, r.external_id, $2
      ${source(`name text, company text, email text, phone text, address_line1 text, address_line2 text, city text,
        region text, postal_code text, country text, notes text, external_id text`)}
      WHERE ${ofRun}`,
    parts: [],
  },
  team: {
    // No password: imported members sign in through an invite (docs/decisions/003).
    main: `
      INSERT INTO users (tenant_id, email, name, role, password_hash, phone, hourly_rate_cents, import_run_id)
      SELECT $1, r.email, r.name, r.role, NULL, r.phone, r.hourly_rate_cents, $2
      ${source("email text, name text, role text, phone text, hourly_rate_cents bigint")}
      WHERE ${ofRun}`,
    parts: [],
  },
  jobs: {
    main: `
      INSERT INTO jobs (tenant_id, customer_id, title, description, status, scheduled_start, scheduled_end, assignee_id,
        address, external_id, completed_at, import_run_id)
      SELECT $1, coalesce(ce.id, cx.id), r.title, r.description, r.status, r.scheduled_start, r.scheduled_end, u.id,
        r.address, r.external_id, CASE WHEN r.status = 'completed' THEN coalesce(r.scheduled_end, r.scheduled_start) END, $2
      ${source(`title text, customer_email text, customer_external_id text, description text, status text,
        scheduled_start timestamptz, scheduled_end timestamptz, assignee_email text, address text, external_id text`)}
      ${customerJoin}
      LEFT JOIN users u ON u.tenant_id = $1 AND u.email = r.assignee_email
      WHERE ${ofRun} AND ${customerResolved} AND (r.assignee_email IS NULL OR u.id IS NOT NULL)`,
    parts: [],
  },
  quotes: {
    main: `
      INSERT INTO quotes (tenant_id, customer_id, number, title, status, issue_date, valid_until, currency, notes,
        subtotal_cents, tax_cents, total_cents, sent_at, approved_at, declined_at, import_run_id)
      SELECT $1, coalesce(ce.id, cx.id), r.number, r.title, r.status, r.issue_date, r.valid_until, r.currency, r.notes,
        r.subtotal_cents, r.tax_cents, r.total_cents,
        CASE WHEN r.status <> 'draft' THEN ${issuedAt} END,
        CASE WHEN r.status = 'approved' THEN now() END,
        CASE WHEN r.status = 'declined' THEN now() END, $2
      ${source(`${docColumns}, title text, valid_until date, notes text`)}
      ${customerJoin}
      WHERE ${ofRun} AND ${customerResolved}`,
    parts: [itemsSql("quote")],
  },
  invoices: {
    main: `
      INSERT INTO invoices (tenant_id, customer_id, number, status, issue_date, due_date, currency, subtotal_cents,
        tax_cents, total_cents, amount_paid_cents, sent_at, paid_at, import_run_id)
      SELECT $1, coalesce(ce.id, cx.id), r.number, r.status, r.issue_date, r.due_date, r.currency, r.subtotal_cents,
        r.tax_cents, r.total_cents, r.amount_paid_cents,
        CASE WHEN r.status <> 'draft' THEN ${issuedAt} END,
        CASE WHEN r.status = 'paid' THEN now() END, $2
      ${source(`${docColumns}, due_date date, amount_paid_cents bigint`)}
      ${customerJoin}
      WHERE ${ofRun} AND ${customerResolved}`,
    parts: [
      itemsSql("invoice"),
      // Money received before the import becomes one payment (method "import"), so the
      // invoice's payments add up to its amount_paid (docs/decisions/073).
      `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference, recorded_at, import_run_id)
       SELECT $1, i.id, i.amount_paid_cents, i.currency, 'import', 'Paid before the CSV import', now(), $2
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
export async function insertRecords(type: ImportType, tenantId: string, runId: string, expected: number, t: Tx): Promise<number> {
  const { main, parts } = COMMIT_SQL[type];
  try {
    const [{ n }] = await rows<{ n: number }>(`WITH ins AS (${main} RETURNING 1) SELECT count(*)::int AS n FROM ins`, [tenantId, runId], t);
    if (n !== expected) {
      throw conflict(
        `Some ${NOUNS[type]} refer to customers or team members that were deleted or changed since the preview. Preview the file again to see which rows.`,
      );
    }
    for (const sql of parts) await rows(sql, [tenantId, runId], t);
    return n;
  } catch (error) {
    const code = pgCode(error);
    if (code === "23505") {
      throw conflict(`Some of these ${NOUNS[type]} were added since the preview (the same email, external_id or number now exists). Preview the file again to see which rows.`);
    }
    if (code === "23503") throw conflict("Records this file refers to were deleted since the preview. Preview the file again.");
    throw error;
  }
}

export const IMPORT_NOUNS = NOUNS;
