import type { Migration } from "../migrate";
import { tenantTableSecurity } from "./0020-history-and-numbering";

/**
 * Job photos from the field (docs/decisions/216-job-photos.md).
 *
 * - The id is chosen by the device when the photo is taken, so an upload retried, or sent from
 *   two tabs at once, lands on the same primary key (tenant_id, id) and is stored once
 *   (INSERT ... ON CONFLICT DO NOTHING; the sha256 tells "the same photo again" from "another
 *   photo under the same id").
 * - The bytes live in the row (bytea, TOASTed out of line) behind a small storage interface
 *   (app/services/field/photo-store.server.ts), so an object store can take them later; the
 *   row keeps the metadata either way.
 * - 5 MiB per photo after the browser resized it (the CHECK is the last guard; the upload
 *   route refuses larger bodies with 413 before reading them whole).
 * - Keys and foreign keys start with tenant_id and are NO ACTION (decision 210): a job or user
 *   with photos is not deleted from under them; a tenant's deletion cascades.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE job_photos (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      job_id uuid NOT NULL,
      taken_by uuid NOT NULL,
      taken_at timestamptz NOT NULL,
      content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp')),
      byte_size integer NOT NULL CHECK (byte_size BETWEEN 1 AND 5242880),
      sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      bytes bytea NOT NULL CHECK (octet_length(bytes) = byte_size),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id),
      FOREIGN KEY (tenant_id, taken_by) REFERENCES users (tenant_id, id)
    );
    -- The job page lists a job's photos in the order they were taken.
    CREATE INDEX job_photos_job ON job_photos (tenant_id, job_id, taken_at, id);
    ${tenantTableSecurity("job_photos")}
    -- On a Citus coordinator (migration 0081 ran before this table existed): distributed by tenant.
    DO $do$ BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        PERFORM create_distributed_table('job_photos', 'tenant_id', colocate_with => 'tenants');
      END IF;
    END $do$;
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`DROP TABLE job_photos;`);
};
