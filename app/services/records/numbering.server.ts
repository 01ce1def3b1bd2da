// Document numbers per tenant: Q-0001, INV-0001... (docs/decisions/121).
import { one, rows, type Tx } from "../../../db/index";
import type { DocumentKind } from "../../../db/models";

const PREFIX: Record<DocumentKind, string> = { quote: "Q-", invoice: "INV-" };
const TABLE: Record<DocumentKind, string> = { quote: "quotes", invoice: "invoices" };
/** Candidates checked against imported numbers per round trip. */
const BATCH = 32;

export const formatDocumentNumber = (kind: DocumentKind, n: number) => `${PREFIX[kind]}${String(n).padStart(4, "0")}`;

/**
 * The next free number of a kind, taken inside the transaction that creates the document.
 * The tenant's counter row is locked (an upsert) until that transaction ends, so concurrent
 * creations queue on it and each gets its own number; a rollback gives the number back
 * unused, a commit moves the counter past it for good (deleting the document later frees
 * nothing). Numbers an import already used (an imported Q-0007) are skipped.
 *
 * Raw SQL: the upsert that creates-or-locks the counter in one statement, and a set lookup of
 * the candidates, have no model-level equivalent.
 */
export async function nextDocumentNumber(t: Tx, tenantId: string, kind: DocumentKind): Promise<string> {
  const counter = await one<{ next_value: number }>(
    `INSERT INTO document_counters (tenant_id, kind, next_value) VALUES ($1, $2, 1)
     ON CONFLICT (tenant_id, kind) DO UPDATE SET next_value = document_counters.next_value
     RETURNING next_value`,
    [tenantId, kind],
    t,
  );
  let from = Number(counter!.next_value);
  for (;;) {
    const candidates = Array.from({ length: BATCH }, (_, i) => formatDocumentNumber(kind, from + i));
    const taken = new Set(
      (
        await rows<{ number: string }>(
          `SELECT number FROM ${TABLE[kind]} WHERE tenant_id = $1 AND number = ANY($2::text[])`,
          [tenantId, candidates],
          t,
        )
      ).map((r) => r.number),
    );
    const free = candidates.findIndex((c) => !taken.has(c));
    if (free >= 0) {
      await rows(
        `UPDATE document_counters SET next_value = $3 WHERE tenant_id = $1 AND kind = $2`,
        [tenantId, kind, from + free + 1],
        t,
      );
      return candidates[free];
    }
    from += BATCH;
  }
}
