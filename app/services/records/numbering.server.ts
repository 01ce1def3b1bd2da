// Document numbers per tenant: Q-0001, INV-0001... (docs/decisions/121).
import { one, type Tx } from "../../../db/index";
import type { DocumentKind } from "../../../db/models";

const PREFIX: Record<DocumentKind, string> = { quote: "Q-", invoice: "INV-" };

export const formatDocumentNumber = (kind: DocumentKind, n: number) => `${PREFIX[kind]}${String(n).padStart(4, "0")}`;

/**
 * The next free number of a kind, taken inside the transaction that creates the document, in
 * one round trip: db/functions/document_next_number.sql locks the tenant's counter row (an
 * upsert) until that transaction ends, so concurrent creations queue on it and each gets its
 * own number; a rollback gives the number back unused, a commit moves the counter past it for
 * good (deleting the document later frees nothing). Numbers an import already used (an
 * imported Q-0007) are skipped.
 */
export async function nextDocumentNumber(t: Tx, tenantId: string, kind: DocumentKind): Promise<string> {
  const row = await one<{ number: string }>(`SELECT document_next_number($1, $2) AS number`, [tenantId, kind], t);
  return row!.number;
}
