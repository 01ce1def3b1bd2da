// The preview's checks against the database: references must exist and keys must not. The
// questions and the marking of the rows are pure (database-checks.ts, run in the CPU pool);
// here PostgreSQL answers them, one query per table whatever the number of rows: the distinct
// values go in as arrays (`= ANY($2)`), never one query per row.
import { rows, type Tx } from "../../../db/index";
import type { DatabaseAnswers, DatabaseQuestions, ExistingKind } from "./database-checks";

const EXISTING: Record<ExistingKind, string> = {
  "user-email": `SELECT email AS v FROM users WHERE tenant_id = $1 AND email = ANY($2::text[])`,
  "job-external-id": `SELECT external_id AS v FROM jobs WHERE tenant_id = $1 AND external_id = ANY($2::text[])`,
  "quote-number": `SELECT number AS v FROM quotes WHERE tenant_id = $1 AND number = ANY($2::text[])`,
  "invoice-number": `SELECT number AS v FROM invoices WHERE tenant_id = $1 AND number = ANY($2::text[])`,
};

/** The database's answers to a checked file's questions (one transaction is one connection: one query after the other). */
export async function askDatabase(tenantId: string, q: DatabaseQuestions, t: Tx): Promise<DatabaseAnswers> {
  const existing: NonNullable<DatabaseAnswers["existing"]> = {};
  for (const [kind, values] of Object.entries(q.existing ?? {}) as [ExistingKind, string[]][]) {
    existing[kind] = values.length
      ? (await rows<{ v: string }>(EXISTING[kind], [tenantId, values], t)).map((r) => r.v)
      : [];
  }
  const answers: DatabaseAnswers = { existing };
  const { emails = [], externalIds = [] } = q.customers ?? {};
  if (emails.length || externalIds.length) {
    const found = await rows<{ id: string; email: string | null; external_id: string | null }>(
      `SELECT id, email, external_id FROM customers
        WHERE tenant_id = $1 AND (email = ANY($2::text[]) OR external_id = ANY($3::text[]))`,
      [tenantId, emails, externalIds],
      t,
    );
    answers.customers = {
      byEmail: found.filter((c) => c.email).map((c) => [c.email!, c.id]),
      byExternalId: found.filter((c) => c.external_id).map((c) => [c.external_id!, c.id]),
    };
  }
  return answers;
}
