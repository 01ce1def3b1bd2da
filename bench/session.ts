/** A signed-in owner for the benchmarks: cookie header and CSRF token, as a browser would hold. */
import { createTenantWithUsers } from "../scripts/seeds/factories";
import { closeDb, configureDb } from "../db/index";
import { clientFor } from "../tests/helpers/client";

export type BenchUser = { tenantId: string; userId: string; technicianId: string; cookie: string; csrf: string };

export async function benchUser(baseUrl: string, databaseUrl: string): Promise<BenchUser> {
  process.env.DATABASE_URL = databaseUrl;
  configureDb({ url: databaseUrl });
  const t = await createTenantWithUsers("Bench Plumbing");
  const client = await clientFor(t.users.owner, baseUrl, { production: true });
  // A signed-out answer would be a redirect to /login: make sure the bench measures the real page.
  const check = await client.get("/import-data?type=customers");
  if (check.status !== 200)
    throw new Error(`the bench user is not signed in (GET /import-data answered ${check.status})`);
  const csrf = await client.csrf();
  await closeDb();
  return {
    tenantId: t.id,
    userId: t.users.owner.id,
    technicianId: t.users.technician.id,
    cookie: client.cookieHeader(),
    csrf,
  };
}

/** Runs `count` jobs with at most `concurrency` at once (a bounded request loop). */
export async function pool<T>(count: number, concurrency: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await job(i);
      }
    }),
  );
  return out;
}
