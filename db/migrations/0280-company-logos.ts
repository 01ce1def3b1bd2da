import type { Migration } from "../migrate";
import { tenantTableSecurity } from "./0020-history-and-numbering";

/**
 * A business's logo (docs/decisions/420-company-logo.md), stored as job photos are (migration
 * 0087): the bytes in the row (bytea, TOASTed out of line) behind a small store
 * (app/services/company/logo.server.ts), the metadata beside them.
 *
 * - One logo per tenant: the primary key is the tenant (distributed by it, co-located with
 *   `tenants`). Uploading again replaces the row; removing deletes it.
 * - `id` is new at every upload and random: the logo's address names it
 *   (/logos/<tenant>/<id>), so the address of a replaced or removed logo answers 404 and the
 *   bytes under one address never change (cached for a year, immutable).
 * - PNG or JPEG (the two image types a PDF embeds), at most 1 MiB; the CHECKs are the last guard
 *   behind the upload's checks of the magic bytes and the size.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE company_logos (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
      width integer NOT NULL CHECK (width BETWEEN 1 AND 4096),
      height integer NOT NULL CHECK (height BETWEEN 1 AND 4096),
      byte_size integer NOT NULL CHECK (byte_size BETWEEN 1 AND 1048576),
      sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      bytes bytea NOT NULL CHECK (octet_length(bytes) = byte_size),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id)
    );
    ${tenantTableSecurity("company_logos")}
    DO $do$ BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        PERFORM create_distributed_table('company_logos', 'tenant_id', colocate_with => 'tenants');
      END IF;
    END $do$;
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`DROP TABLE company_logos;`);
};
