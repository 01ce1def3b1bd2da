import type { Migration } from "../migrate";

/**
 * One-click unsubscribe for automatic reminders (RFC 8058, docs/decisions/341): the URL a
 * reminder's `List-Unsubscribe` header names, written with the message (the same signed
 * `/unsubscribe/<token>` link its footer carries). NULL for every other message. The worker's
 * claim (db/functions/app_messages_claim.sql) returns it.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE messages ADD COLUMN list_unsubscribe text
      CONSTRAINT messages_list_unsubscribe_check CHECK (list_unsubscribe ~ '^https?://' AND length(list_unsubscribe) <= 2000);
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`ALTER TABLE messages DROP COLUMN list_unsubscribe;`);
};
