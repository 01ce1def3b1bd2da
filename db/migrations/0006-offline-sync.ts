import type { Migration } from "../migrate";

// Offline sync (CONTRACT section 7): one row per device ("client") with the id of the last
// mutation it had processed. The row is the lock that serialises pushes of one client, and
// its last_mutation_id commits in the same transaction as each mutation's effect.
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE sync_clients (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      client_id uuid NOT NULL,
      -- The user that first pushed with this id; anyone else gets 403.
      user_id uuid NOT NULL,
      last_mutation_id bigint NOT NULL DEFAULT 0 CHECK (last_mutation_id >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, client_id),
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
    );
    CREATE INDEX sync_clients_user ON sync_clients (tenant_id, user_id);
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`DROP TABLE sync_clients;`);
};
