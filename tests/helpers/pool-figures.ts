import assert from "node:assert/strict";
import { BASE_URL } from "./client";

/** The serving process's count of tasks its CPU pool ran, by kind (the health check, outside production). */
export async function poolRan(): Promise<Record<string, number>> {
  const res = await fetch(`${BASE_URL}/healthz?figures=1`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: { pool: { ran: Record<string, number> } } }).data.pool.ran;
}
