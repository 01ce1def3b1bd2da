// The preview's checks against the database: references must exist and
// keys must not. One query per table, whatever the number of rows: the distinct values go in
// as arrays (`= ANY($2)`), never one query per row.
import { rows, type Tx } from "../../../db/index";
import type { ImportType } from "./columns";
import type { RowError } from "./parse.server";
import { keyValue, type AnyRow } from "./keys";
import type { InvoiceDocument, QuoteDocument, ValidationResult } from "./row-types";

type Doc = QuoteDocument | InvoiceDocument;

/** Marks a row invalid with an error on a column. */
function reject(row: AnyRow, errors: RowError[], column: string, message: string) {
  row.ok = false;
  errors.push({ row: row.rowNumber, column, message });
}

function distinct(values: Iterable<string | null | undefined>): string[] {
  const out = new Set<string>();
  for (const v of values) if (v) out.add(v);
  return [...out];
}

/** Key values of every row, also of rows that failed other checks (so a clash shows at once). */
function keys(type: ImportType, all: AnyRow[], column: string, field: string): Map<AnyRow, string> {
  const out = new Map<AnyRow, string>();
  for (const row of all) {
    const v = keyValue(type, row, column, field);
    if (v !== null) out.set(row, v);
  }
  return out;
}

interface CustomerIndex {
  byEmail: Map<string, string>;
  byExternalId: Map<string, string>;
}

async function customersByKey(
  tenantId: string,
  emails: string[],
  externalIds: string[],
  t: Tx,
): Promise<CustomerIndex> {
  const found =
    emails.length || externalIds.length
      ? await rows<{ id: string; email: string | null; external_id: string | null }>(
          `SELECT id, email, external_id FROM customers
            WHERE tenant_id = $1 AND (email = ANY($2::text[]) OR external_id = ANY($3::text[]))`,
          [tenantId, emails, externalIds],
          t,
        )
      : [];
  const index: CustomerIndex = { byEmail: new Map(), byExternalId: new Map() };
  for (const c of found) {
    if (c.email) index.byEmail.set(c.email, c.id);
    if (c.external_id) index.byExternalId.set(c.external_id, c.id);
  }
  return index;
}

/** The customer reference of one row or document: the first problem found, or null. */
function customerProblem(
  ref: { customerEmail: string | null; customerExternalId: string | null },
  index: CustomerIndex,
): [string, string] | null {
  const byEmail = ref.customerEmail ? index.byEmail.get(ref.customerEmail) : undefined;
  const byId = ref.customerExternalId ? index.byExternalId.get(ref.customerExternalId) : undefined;
  if (ref.customerEmail && !byEmail)
    return ["customer_email", "No customer has this email. Import or add the customer first."];
  if (ref.customerExternalId && !byId)
    return ["customer_external_id", "No customer has this external_id. Import or add the customer first."];
  if (byEmail && byId && byEmail !== byId)
    return ["customer_external_id", "Names a different customer than customer_email"];
  return null;
}

async function existing(sql: string, tenantId: string, values: string[], t: Tx): Promise<Set<string>> {
  if (values.length === 0) return new Set();
  const found = await rows<{ v: string }>(sql, [tenantId, values], t);
  return new Set(found.map((r) => r.v));
}

async function checkCustomers(tenantId: string, all: AnyRow[], errors: RowError[], t: Tx) {
  const emails = keys("customers", all, "email", "email");
  const ids = keys("customers", all, "external_id", "externalId");
  const taken = await customersByKey(tenantId, distinct(emails.values()), distinct(ids.values()), t);
  for (const row of all) {
    const id = ids.get(row);
    if (id && taken.byExternalId.has(id))
      reject(row, errors, "external_id", "A customer with this external_id already exists");
    const email = emails.get(row);
    if (email && taken.byEmail.has(email)) reject(row, errors, "email", "A customer with this email already exists");
  }
}

async function checkTeam(tenantId: string, all: AnyRow[], errors: RowError[], t: Tx) {
  const emails = keys("team", all, "email", "email");
  // An e-mail is unique within a business only: an address known in
  // another business imports like any new one, and nothing here may tell of it.
  const taken = await existing(
    `SELECT email AS v FROM users WHERE tenant_id = $1 AND email = ANY($2::text[])`,
    tenantId,
    distinct(emails.values()),
    t,
  );
  for (const row of all) {
    const email = emails.get(row);
    if (email !== undefined && taken.has(email)) reject(row, errors, "email", "Already a member of your team");
  }
}

async function checkJobs(tenantId: string, all: AnyRow[], errors: RowError[], t: Tx) {
  const ids = keys("jobs", all, "external_id", "externalId");
  const valued = all.filter((r) => r.values);
  const v = (r: AnyRow, f: string) => r.values![f] as string | null;
  // One transaction is one connection: the queries run one after the other.
  const takenIds = await existing(
    `SELECT external_id AS v FROM jobs WHERE tenant_id = $1 AND external_id = ANY($2::text[])`,
    tenantId,
    distinct(ids.values()),
    t,
  );
  const customers = await customersByKey(
    tenantId,
    distinct(valued.map((r) => v(r, "customerEmail"))),
    distinct(valued.map((r) => v(r, "customerExternalId"))),
    t,
  );
  const members = await existing(
    `SELECT email AS v FROM users WHERE tenant_id = $1 AND email = ANY($2::text[])`,
    tenantId,
    distinct(valued.map((r) => v(r, "assigneeEmail"))),
    t,
  );
  for (const row of all) {
    const id = ids.get(row);
    if (id && takenIds.has(id)) reject(row, errors, "external_id", "A job with this external_id already exists");
    if (!row.values) continue;
    const problem = customerProblem(row.values as never, customers);
    if (problem) reject(row, errors, ...problem);
    const assignee = v(row, "assigneeEmail");
    if (assignee && !members.has(assignee))
      reject(row, errors, "assignee_email", "No team member has this email. Import or add the team member first.");
  }
}

async function checkDocuments(
  type: "quotes" | "invoices",
  tenantId: string,
  all: AnyRow[],
  documents: Doc[],
  errors: RowError[],
  t: Tx,
) {
  const label = type === "quotes" ? "Quote" : "Invoice";
  const byNumber = new Map<AnyRow, string>(keys(type, all, "number", "number"));
  const taken = await existing(
    `SELECT number AS v FROM ${type} WHERE tenant_id = $1 AND number = ANY($2::text[])`,
    tenantId,
    distinct(byNumber.values()),
    t,
  );
  const customers = await customersByKey(
    tenantId,
    distinct(documents.map((d) => d.customerEmail)),
    distinct(documents.map((d) => d.customerExternalId)),
    t,
  );
  const rowsOf = new Map<number, AnyRow>(all.map((r) => [r.rowNumber, r]));
  for (const [row, number] of byNumber) {
    if (taken.has(number)) reject(row, errors, "number", `${label} ${number} already exists`);
  }
  // A document's customer is checked once; the error goes on each of its rows (each holds the cell).
  for (const doc of documents) {
    const problem = customerProblem(doc, customers);
    if (taken.has(doc.number) || problem) doc.ok = false;
    if (!problem) continue;
    for (const n of doc.rowNumbers) {
      const row = rowsOf.get(n)!;
      if (row.values) reject(row, errors, ...problem);
    }
  }
}

/** Adds the database's row errors to a validation result (in place), errors sorted by row. */
export async function checkAgainstDatabase(tenantId: string, result: ValidationResult, t: Tx): Promise<void> {
  const all = result.rows as unknown as AnyRow[];
  const errors = result.errors;
  const before = errors.length;
  if (result.type === "customers") await checkCustomers(tenantId, all, errors, t);
  else if (result.type === "team") await checkTeam(tenantId, all, errors, t);
  else if (result.type === "jobs") await checkJobs(tenantId, all, errors, t);
  else await checkDocuments(result.type, tenantId, all, result.documents, errors, t);
  if (errors.length !== before) errors.sort((a, b) => a.row - b.row);
}
