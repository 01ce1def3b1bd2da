import type { Migration } from "../migrate";
import { FIELD_APPLY_MUTATION_0084 } from "./0084-field-clock";

/**
 * `field_apply_mutation`'s signature upsert stamps `updated_at = now()` in ON CONFLICT DO UPDATE
 * SET, which Citus refuses ("functions used in the DO UPDATE SET clause of INSERTs on
 * distributed tables must be marked IMMUTABLE"), so every offline-sync push failed on a cluster
 * (docs/decisions/228-citus-run.md). The time goes among the VALUES and the update takes
 * EXCLUDED.updated_at: the same instant, the same row on one node.
 */
const FROM = [
  "INSERT INTO job_signatures (tenant_id, job_id, signer_name, image, signed_at, collected_by)",
  "VALUES (p_tenant, p_job, v_args ->> 'name', decode(v_args ->> 'image', 'base64'), p_occurred, p_user)",
  "collected_by = EXCLUDED.collected_by, updated_at = now();",
];
const TO = [
  "INSERT INTO job_signatures (tenant_id, job_id, signer_name, image, signed_at, collected_by, updated_at)",
  "VALUES (p_tenant, p_job, v_args ->> 'name', decode(v_args ->> 'image', 'base64'), p_occurred, p_user, now())",
  "collected_by = EXCLUDED.collected_by, updated_at = EXCLUDED.updated_at;",
];
for (const text of FROM)
  if (!FIELD_APPLY_MUTATION_0084.includes(text)) throw new Error(`0098: field_apply_mutation no longer has: ${text}`);
const CITUS_READY = FROM.reduce((fn, text, i) => fn.replace(text, TO[i]!), FIELD_APPLY_MUTATION_0084);

export const up: Migration = async ({ context: sql }) => {
  await sql.query(CITUS_READY);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(FIELD_APPLY_MUTATION_0084);
};
