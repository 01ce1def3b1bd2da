// The preview's checks against the database, as two halves that need no database: the
// questions a checked file asks (the distinct keys and references of its rows) and its rows
// marked from the answers. checks.server.ts asks PostgreSQL in between, one query per table
// whatever the number of rows. Pure, so the CPU pool's threads run both halves: the request
// thread holds only the questions and the answers, never the file's rows.
import type { ImportType } from "./columns";
import { keyValue, reject, type AnyRow } from "./keys";
import type { InvoiceDocument, QuoteDocument, ValidationResult } from "./row-types";

type Doc = QuoteDocument | InvoiceDocument;

/** Values asked for by what they are: a team member's e-mail, a job's external id, a document number. */
export type ExistingKind = "user-email" | "job-external-id" | "quote-number" | "invoice-number";

export interface DatabaseQuestions {
  /** Customers looked up by e-mail or external id. */
  customers?: { emails: string[]; externalIds: string[] };
  /** Which of these values exist in the tenant's records. */
  existing?: Partial<Record<ExistingKind, string[]>>;
}

export interface DatabaseAnswers {
  /** The customers found: [e-mail, id] and [external id, id]. */
  customers?: { byEmail: [string, string][]; byExternalId: [string, string][] };
  /** The values that exist, by kind. */
  existing?: Partial<Record<ExistingKind, string[]>>;
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

const valueOf = (r: AnyRow, f: string) => r.values![f] as string | null;
const documentsOf = (result: ValidationResult): Doc[] => ("documents" in result ? result.documents : []);

/** What a checked file asks the database: references that must exist, keys that must not. */
export function databaseQuestions(result: ValidationResult): DatabaseQuestions {
  const all = result.rows as unknown as AnyRow[];
  switch (result.type) {
    case "customers":
      return {
        customers: {
          emails: distinct(keys("customers", all, "email", "email").values()),
          externalIds: distinct(keys("customers", all, "external_id", "externalId").values()),
        },
      };
    case "team":
      return { existing: { "user-email": distinct(keys("team", all, "email", "email").values()) } };
    case "jobs": {
      const valued = all.filter((r) => r.values);
      return {
        existing: {
          "job-external-id": distinct(keys("jobs", all, "external_id", "externalId").values()),
          "user-email": distinct(valued.map((r) => valueOf(r, "assigneeEmail"))),
        },
        customers: {
          emails: distinct(valued.map((r) => valueOf(r, "customerEmail"))),
          externalIds: distinct(valued.map((r) => valueOf(r, "customerExternalId"))),
        },
      };
    }
    default: {
      const documents = documentsOf(result);
      return {
        existing: {
          [`${result.type === "quotes" ? "quote" : "invoice"}-number`]: distinct(
            keys(result.type, all, "number", "number").values(),
          ),
        },
        customers: {
          emails: distinct(documents.map((d) => d.customerEmail)),
          externalIds: distinct(documents.map((d) => d.customerExternalId)),
        },
      };
    }
  }
}

interface CustomerIndex {
  byEmail: Map<string, string>;
  byExternalId: Map<string, string>;
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

/** Marks the file's rows from the database's answers (in place), errors sorted by row. */
export function applyDatabaseAnswers(result: ValidationResult, answers: DatabaseAnswers): void {
  const all = result.rows as unknown as AnyRow[];
  const errors = result.errors;
  const before = errors.length;
  const customers: CustomerIndex = {
    byEmail: new Map(answers.customers?.byEmail ?? []),
    byExternalId: new Map(answers.customers?.byExternalId ?? []),
  };
  const found = (kind: ExistingKind) => new Set(answers.existing?.[kind] ?? []);
  if (result.type === "customers") {
    const emails = keys("customers", all, "email", "email");
    const ids = keys("customers", all, "external_id", "externalId");
    for (const row of all) {
      const id = ids.get(row);
      if (id && customers.byExternalId.has(id))
        reject(row, errors, "external_id", "A customer with this external_id already exists");
      const email = emails.get(row);
      if (email && customers.byEmail.has(email))
        reject(row, errors, "email", "A customer with this email already exists");
    }
  } else if (result.type === "team") {
    // An e-mail is unique within a business only: an address known in
    // another business imports like any new one, and nothing here may tell of it.
    const emails = keys("team", all, "email", "email");
    const taken = found("user-email");
    for (const row of all) {
      const email = emails.get(row);
      if (email !== undefined && taken.has(email)) reject(row, errors, "email", "Already a member of your team");
    }
  } else if (result.type === "jobs") {
    const ids = keys("jobs", all, "external_id", "externalId");
    const takenIds = found("job-external-id");
    const members = found("user-email");
    for (const row of all) {
      const id = ids.get(row);
      if (id && takenIds.has(id)) reject(row, errors, "external_id", "A job with this external_id already exists");
      if (!row.values) continue;
      const problem = customerProblem(row.values as never, customers);
      if (problem) reject(row, errors, ...problem);
      const assignee = valueOf(row, "assigneeEmail");
      if (assignee && !members.has(assignee))
        reject(row, errors, "assignee_email", "No team member has this email. Import or add the team member first.");
    }
  } else {
    const label = result.type === "quotes" ? "Quote" : "Invoice";
    const taken = found(result.type === "quotes" ? "quote-number" : "invoice-number");
    const rowsOf = new Map<number, AnyRow>(all.map((r) => [r.rowNumber, r]));
    for (const [row, number] of keys(result.type, all, "number", "number")) {
      if (taken.has(number)) reject(row, errors, "number", `${label} ${number} already exists`);
    }
    // A document's customer is checked once; the error goes on each of its rows (each holds the cell).
    for (const doc of documentsOf(result)) {
      const problem = customerProblem(doc, customers);
      if (taken.has(doc.number) || problem) doc.ok = false;
      if (!problem) continue;
      for (const n of doc.rowNumbers) {
        const row = rowsOf.get(n)!;
        if (row.values) reject(row, errors, ...problem);
      }
    }
  }
  if (errors.length !== before) errors.sort((a, b) => a.row - b.row);
}

/**
 * The types the database only checks for clashes with existing records, and the answers that
 * find none: under those answers no row of such a file is marked, which is known without the
 * rows. Jobs, quotes and invoices refer to records that must exist (and to one customer by two
 * keys), so they are not here.
 */
const CLASHES_ONLY: Partial<Record<ImportType, DatabaseAnswers>> = {
  customers: { customers: { byEmail: [], byExternalId: [] } },
  team: { existing: { "user-email": [] } },
};

/** The answers under which the database marks no row of a file of this type, or null where that needs the rows. */
export function answersThatMarkNothing(type: ImportType): DatabaseAnswers | null {
  return CLASHES_ONLY[type] ?? null;
}

/** Whether these answers mark no row of a file of this type (false where that needs the rows). */
export function answersMarkNothing(type: ImportType, answers: DatabaseAnswers): boolean {
  if (!CLASHES_ONLY[type]) return false;
  const { customers, existing } = answers;
  const lists = [customers?.byEmail, customers?.byExternalId, ...Object.values(existing ?? {})];
  return lists.every((list) => !list?.length);
}
