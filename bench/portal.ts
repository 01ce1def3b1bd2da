/** A customer with a sent quote and an open invoice, and the path of their portal link. */
import { closeDb, configureDb, one } from "../db/index";
import { createCustomer, createInvoice, createQuote } from "../scripts/seeds/factories";
import { signPortalToken } from "../app/services/portal/links.server";
import type { BenchUser } from "./session";

export async function portalTarget(databaseUrl: string, user: BenchUser): Promise<string> {
  process.env.DATABASE_URL = databaseUrl;
  configureDb({ url: databaseUrl });
  const customer = await createCustomer(user.tenantId, { name: "Ana García" });
  await createQuote(user.tenantId, { customerId: customer.id });
  await createInvoice(user.tenantId, { customerId: customer.id });
  const link = await one<{ id: string }>(
    `INSERT INTO portal_links (tenant_id, customer_id, created_by, expires_at) VALUES ($1, $2, $3, now() + interval '30 days') RETURNING id`,
    [user.tenantId, customer.id, user.userId],
  );
  await closeDb();
  return `/portal/${signPortalToken(user.tenantId, link!.id)}`;
}
