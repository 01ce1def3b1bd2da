/**
 * Record factories shared by the demo seed and the tests: each makes one realistic,
 * valid row (or a small graph of rows) for a tenant, with overridable fields.
 */
import { randomUUID } from "node:crypto";
import { one, rows } from "../../db/index";
import { addLoginEmails } from "../../db/login-emails";
import { hashPassword } from "../../app/services/accounts/passwords.server";
import { ROLES, type Role } from "../../db/enums";

export const DEFAULT_PASSWORD = "correct horse battery staple";
let defaultHash: Promise<string> | undefined;
const passwordHash = (p?: string) => (p ? hashPassword(p) : (defaultHash ??= hashPassword(DEFAULT_PASSWORD)));

const unique = () => randomUUID().slice(0, 8);

export type TestUser = { tenantId: string; id: string; email: string; name: string; role: Role; password: string };
export type TestTenant = { id: string; name: string; users: Record<Role, TestUser> };

export async function createTenant(name = `Tenant ${unique()}`): Promise<{ id: string; name: string }> {
  const t = await one<{ id: string }>(`INSERT INTO tenants (name) VALUES ($1) RETURNING id`, [name]);
  return { id: t!.id, name };
}

export async function createUser(
  tenantId: string,
  o: { role?: Role; email?: string; name?: string; password?: string | null; phone?: string } = {},
): Promise<TestUser> {
  const role = o.role ?? "office";
  const email = (o.email ?? `${role}-${unique()}@example.test`).toLowerCase();
  const name = o.name ?? `${role[0].toUpperCase()}${role.slice(1)} ${unique()}`;
  const hash = o.password === null ? null : await passwordHash(o.password ?? undefined);
  const u = await one<{ id: string }>(
    `INSERT INTO users (tenant_id, email, name, role, password_hash, phone) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [tenantId, email, name, role, hash, o.phone ?? null],
  );
  await addLoginEmails(tenantId, [{ id: u!.id, email }]);
  return { tenantId, id: u!.id, email, name, role, password: o.password ?? DEFAULT_PASSWORD };
}

/** A tenant with one user of each role (all with DEFAULT_PASSWORD). */
export async function createTenantWithUsers(name?: string): Promise<TestTenant> {
  const tenant = await createTenant(name);
  const users = {} as Record<Role, TestUser>;
  for (const role of ROLES) users[role] = await createUser(tenant.id, { role });
  return { ...tenant, users };
}

export async function createCustomer(tenantId: string, o: Partial<Record<string, string | null>> = {}) {
  const n = unique();
  const c = await one<{ id: string; name: string; email: string | null }>(
    `INSERT INTO customers (tenant_id, name, email, phone, address_line1, city, region, postal_code, country, company, external_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id, name, email`,
    [
      tenantId,
      o.name ?? `Customer ${n}`,
      o.email === undefined ? `customer-${n}@example.test` : o.email,
      o.phone ?? "555-0100",
      o.address_line1 ?? "12 Elm Street",
      o.city ?? "Springfield",
      o.region ?? "IL",
      o.postal_code ?? "62701",
      o.country ?? "US",
      o.company ?? null,
      o.external_id ?? null,
    ],
  );
  return c!;
}

export async function createJob(
  tenantId: string,
  o: {
    customerId: string;
    title?: string;
    status?: string;
    assigneeId?: string | null;
    scheduledStart?: Date | null;
    checklist?: string[];
  },
) {
  const start = o.scheduledStart === undefined ? new Date(Date.now() + 3600_000) : o.scheduledStart;
  const j = await one<{ id: string; title: string; status: string }>(
    `INSERT INTO jobs (tenant_id, customer_id, title, status, assignee_id, scheduled_start, scheduled_end)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, title, status`,
    [
      tenantId,
      o.customerId,
      o.title ?? `Water heater replacement ${unique()}`,
      o.status ?? (start ? "scheduled" : "unscheduled"),
      o.assigneeId ?? null,
      start,
      start ? new Date(start.getTime() + 2 * 3600_000) : null,
    ],
  );
  for (const [position, label] of (o.checklist ?? []).entries()) {
    await one(`INSERT INTO job_checklist_items (tenant_id, job_id, position, label) VALUES ($1, $2, $3, $4)`, [
      tenantId,
      j!.id,
      position,
      label,
    ]);
  }
  return j!;
}

export type ItemInput = { description: string; quantity?: string; unitPriceCents: number; taxRate?: string };

/** Line totals: quantity × unit price, rounded half up to the cent; tax per line likewise. */
export function lineAmounts(item: ItemInput) {
  const qtyThousandths = Math.round(Number(item.quantity ?? "1") * 1000);
  const line = Math.round((qtyThousandths * item.unitPriceCents) / 1000);
  const tax = Math.round((line * Number(item.taxRate ?? "0")) / 100);
  return { line, tax };
}

async function createDocument(
  kind: "quote" | "invoice",
  tenantId: string,
  o: {
    customerId: string;
    number?: string;
    status?: string;
    items?: ItemInput[];
    validUntil?: string | null;
    dueDate?: string | null;
    amountPaidCents?: number;
    currency?: string;
  },
) {
  const items = o.items ?? [
    { description: "50 gal gas water heater", unitPriceCents: 145_000, taxRate: "8.25" },
    { description: "Labour (hours)", quantity: "3", unitPriceCents: 12_500 },
  ];
  const amounts = items.map(lineAmounts);
  const subtotal = amounts.reduce((s, a) => s + a.line, 0);
  const tax = amounts.reduce((s, a) => s + a.tax, 0);
  const table = kind === "quote" ? "quotes" : "invoices";
  const number = o.number ?? `${kind === "quote" ? "Q" : "INV"}-${unique()}`;
  const today = new Date().toISOString().slice(0, 10);
  const plus30 = new Date(Date.now() + 30 * 86400_000).toISOString().slice(0, 10);
  const doc =
    kind === "quote"
      ? await one<{ id: string }>(
          `INSERT INTO quotes (tenant_id, customer_id, number, title, status, issue_date, valid_until, currency, subtotal_cents, tax_cents, total_cents, sent_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $5 <> 'draft' THEN now() END) RETURNING id`,
          [
            tenantId,
            o.customerId,
            number,
            "Water heater replacement",
            o.status ?? "sent",
            today,
            o.validUntil === undefined ? plus30 : o.validUntil,
            o.currency ?? "USD",
            subtotal,
            tax,
            subtotal + tax,
          ],
        )
      : await one<{ id: string }>(
          `INSERT INTO invoices (tenant_id, customer_id, number, status, issue_date, due_date, currency, subtotal_cents, tax_cents, total_cents, amount_paid_cents, sent_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $4 <> 'draft' THEN now() END) RETURNING id`,
          [
            tenantId,
            o.customerId,
            number,
            o.status ?? "sent",
            today,
            o.dueDate === undefined ? plus30 : o.dueDate,
            o.currency ?? "USD",
            subtotal,
            tax,
            subtotal + tax,
            o.amountPaidCents ?? 0,
          ],
        );
  for (const [i, item] of items.entries()) {
    await rows(
      `INSERT INTO ${table === "quotes" ? "quote_items" : "invoice_items"} (tenant_id, ${kind}_id, position, description, quantity, unit_price_cents, tax_rate, line_total_cents, tax_cents)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        tenantId,
        doc!.id,
        i + 1,
        item.description,
        item.quantity ?? "1",
        item.unitPriceCents,
        item.taxRate ?? "0",
        amounts[i].line,
        amounts[i].tax,
      ],
    );
  }
  return { id: doc!.id, number, totalCents: subtotal + tax };
}

export const createQuote = (tenantId: string, o: Parameters<typeof createDocument>[2]) =>
  createDocument("quote", tenantId, o);
export const createInvoice = (tenantId: string, o: Parameters<typeof createDocument>[2]) =>
  createDocument("invoice", tenantId, o);
