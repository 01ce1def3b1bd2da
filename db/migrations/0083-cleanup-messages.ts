import type { Migration } from "../migrate";
import { CLEANUP_BATCH_FUNCTION } from "./0011-cleanup";

// The cleanup (docs/decisions/102) also removes finished outbox rows ("finished outbox
// rows"; the outbox is migration 0050's): sent, failed or locally kept messages older
// than 30 days. A reminder's row is kept with its bodies emptied, since its unique dedupe key is
// what keeps the reminder from being sent twice. The record's history keeps "Sent to ...".
const MESSAGES_KIND = `
      ELSIF p_kind = 'messages' THEN
        -- Finished outbox rows older than 30 days go. A reminder's row stays, its bodies emptied:
        -- it is the memory that the reminder was sent once (its unique dedupe key).
        DELETE FROM messages m USING (
          SELECT tenant_id, id FROM messages
           WHERE status IN ('sent', 'failed', 'local') AND dedupe_key IS NULL AND created_at < now() - interval '30 days'
           LIMIT p_batch
        ) old WHERE m.tenant_id = old.tenant_id AND m.id = old.id;
        GET DIAGNOSTICS n = ROW_COUNT;
        UPDATE messages m SET text_body = '', html_body = '' FROM (
          SELECT tenant_id, id FROM messages
           WHERE status IN ('sent', 'failed', 'local') AND dedupe_key IS NOT NULL AND html_body <> '' AND created_at < now() - interval '30 days'
           LIMIT p_batch
        ) old WHERE m.tenant_id = old.tenant_id AND m.id = old.id;
        RETURN n;
`;

const replaced = (fn: string) =>
  fn.replace("CREATE FUNCTION app_cleanup_batch", "CREATE OR REPLACE FUNCTION app_cleanup_batch");

const LAST_BRANCH = "      ELSE\n        RAISE EXCEPTION";
if (!CLEANUP_BATCH_FUNCTION.includes(LAST_BRANCH)) throw new Error("0083: the cleanup function's last branch moved");

export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE INDEX messages_finished ON messages (created_at) WHERE status IN ('sent', 'failed', 'local');
    ${replaced(CLEANUP_BATCH_FUNCTION).replace(LAST_BRANCH, `${MESSAGES_KIND}${LAST_BRANCH}`)}
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP INDEX messages_finished;
    ${replaced(CLEANUP_BATCH_FUNCTION)}
  `);
};
