/**
 * Sign-in's reference table `login_emails` (e-mail -> business and user; db/distribution.ts),
 * written by the app in the same transaction as the user rows it mirrors. Until migration 0096
 * a trigger on `users` wrote it; on Citus that trigger fires on a worker's shard, where writing
 * a reference table (a change on every node) is refused ("cannot execute a distributed query
 * from a query on a shard", docs/decisions/228-citus-run.md). Users never change their e-mail
 * (no path does); a new path that does must update this table too.
 */
import { rows, type Tx } from "./index";

/** The login rows of one business's new users. */
export async function addLoginEmails(
  tenantId: string,
  users: ReadonlyArray<{ id: string; email: string }>,
  t?: Tx,
): Promise<void> {
  // VALUES lists (1,000 rows each, within the 65,535 parameters of a statement): Citus turns
  // INSERT ... SELECT into a reference table into a COPY, which row-level security refuses.
  for (let at = 0; at < users.length; at += 1000) {
    const chunk = users.slice(at, at + 1000);
    await rows(
      `INSERT INTO login_emails (tenant_id, email, user_id) VALUES ${chunk.map((_, i) => `($1, $${2 * i + 2}, $${2 * i + 3}::uuid)`).join(", ")}`,
      [tenantId, ...chunk.flatMap((u) => [u.email, u.id])],
      t,
    );
  }
}

/** The login rows of one business's users that are being deleted. */
export async function removeLoginEmails(tenantId: string, userIds: readonly string[], t?: Tx): Promise<void> {
  if (!userIds.length) return;
  await rows(`DELETE FROM login_emails WHERE tenant_id = $1 AND user_id = ANY($2::uuid[])`, [tenantId, userIds], t);
}

/** After an import inserted its users (their import run): their login rows, in the same transaction. */
export async function addLoginEmailsOfImportRun(tenantId: string, runId: string, t: Tx): Promise<void> {
  const users = await rows<{ id: string; email: string }>(
    `SELECT id, email FROM users WHERE tenant_id = $1 AND import_run_id = $2`,
    [tenantId, runId],
    t,
  );
  await addLoginEmails(tenantId, users, t);
}
