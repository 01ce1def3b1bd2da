// Test fixtures: tenants with a user of each role, and two tenants for isolation tests.
export * from "../../scripts/seeds/factories";
import { createTenantWithUsers } from "../../scripts/seeds/factories";

export async function twoTenants() {
  const [a, b] = await Promise.all([createTenantWithUsers("Tenant A"), createTenantWithUsers("Tenant B")]);
  return { a, b };
}

/** Row counts of the given tables for one tenant: to prove that nothing changed. */
export async function tenantCounts(tenantId: string, tables: string[]) {
  const { rows } = await import("../../db/index");
  const out: Record<string, number> = {};
  for (const t of tables) {
    const [r] = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${t} WHERE tenant_id = $1`, [tenantId]);
    out[t] = r.n;
  }
  return out;
}
