import type { Migration } from "../migrate";

/**
 * A billing event is kept as the provider sent it: the raw body as text (docs/decisions/103).
 * `jsonb` refuses `\u0000`, so a correctly signed event holding one answered 500 and the
 * provider retried it forever; any valid JSON is now stored, once, and answered 200.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`ALTER TABLE billing_events ALTER COLUMN payload TYPE text USING payload::text;`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(
    `ALTER TABLE billing_events ALTER COLUMN payload TYPE jsonb USING replace(payload, '\\u0000', '')::jsonb;`,
  );
};
