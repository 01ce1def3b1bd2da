import type { Migration } from "../migrate";

// The business's colour for its e-mails (templates "in the business's name and
// colours"; docs/decisions/211-brand-colour.md): a hex colour dark enough for white text on it.
export const up: Migration = async ({ context: sql }) => {
  // Two statements, same result: Citus refuses ADD COLUMN with an inline constraint on a
  // distributed table (docs/decisions/228-citus-run.md); the name is PostgreSQL's own.
  await sql.query(`ALTER TABLE tenants ADD COLUMN brand_color text NOT NULL DEFAULT '#1d4ed8'`);
  await sql.query(
    `ALTER TABLE tenants ADD CONSTRAINT tenants_brand_color_check CHECK (brand_color ~ '^#[0-9a-f]{6}$')`,
  );
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`ALTER TABLE tenants DROP COLUMN brand_color;`);
};
