import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { rows } from "../../db/index";
import { Client, clientFor } from "../helpers/client";
import { createCustomer, createInvoice, createJob, createQuote, createTenantWithUsers } from "../helpers/fixtures";

// Every route that takes a body, and a few pages with query strings. Ids are filled in per tenant.
const POST_ROUTES = [
  "/login",
  "/signup",
  "/logout",
  "/ai-assistant/generate",
  "/api/offline-sync",
  "/api/billing/stripe/webhook",
  "/api/billing/paddle/webhook",
  "/api/portal/quote",
  "/api/portal/invoice-payment",
  "/api/portal/booking-request",
  "/import-data/preview",
  "/import-data/commit",
  "/import-data/undo",
  "/settings/accounting",
  "/settings/calendar",
  "/settings/llm",
  "/customers/:customer/portal-links",
  "/portal-links/:uuid/revoke",
  "/team/:user/invite",
  "/invite/:token",
  "/requests",
  "/team",
  "/field",
];
const GET_ROUTES = [
  "/customers",
  "/jobs",
  "/quotes",
  "/invoices",
  "/requests",
  "/import-data",
  "/import-data/sample",
  "/portal/:token",
  "/jobs/:job",
  "/quotes/:quote",
];

// Tables whose rows a refused request may legitimately touch: the caller's session flash and rate-limit counters.
const IGNORED = new Set(["sessions", "rate_limits", "schema_migrations"]);

async function snapshot(tenantId: string): Promise<string> {
  const tables = await rows<{ name: string }>(
    `SELECT c.table_name AS name FROM information_schema.columns c JOIN information_schema.tables t
       ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND c.column_name = 'tenant_id' AND t.table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    if (IGNORED.has(name)) continue;
    const [r] = await rows<{ d: string }>(
      `SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS d FROM ${name} x WHERE tenant_id = $1`,
      [tenantId],
    );
    parts.push(`${name}:${r.d}`);
  }
  const [t] = await rows<{ d: string }>(`SELECT md5(x::text) AS d FROM tenants x WHERE id = $1`, [tenantId]);
  return parts.join(",") + `,tenant:${t.d}`;
}

const contentTypes = fc.constantFrom(
  "application/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "multipart/form-data",
  "text/plain",
  "text/csv; charset=utf-16",
  "application/json; charset=latin1",
  "",
  "application/octet-stream",
);
const bodies = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString("latin1")),
  fc.json({ maxDepth: 3 }),
  fc
    .dictionary(
      fc.constantFrom(
        "_csrf",
        "type",
        "mode",
        "csv",
        "previewId",
        "runId",
        "token",
        "quoteId",
        "decision",
        "amount",
        "days",
        "role",
        "email",
        "password",
        "status",
        "clientId",
        "mutations",
      ),
      fc.string({ maxLength: 40 }),
    )
    .map((d) => new URLSearchParams(d).toString()),
  fc.constant('{"clientId":"x","mutations":[{"id":"1"}]}'),
  fc.constant(
    '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nname\r\n\u0000\u00ff\r\n--xyz--',
  ),
);
const accepts = fc.constantFrom("text/html", "application/json", "*/*", "", "text/html;q=0.1, application/json");

test("random and malformed bodies, headers and encodings to every form and JSON route: no 500, no change", async () => {
  const t = await createTenantWithUsers();
  const customer = await createCustomer(t.id);
  const job = await createJob(t.id, { customerId: customer.id, assigneeId: t.users.technician.id });
  const quote = await createQuote(t.id, { customerId: customer.id });
  await createInvoice(t.id, { customerId: customer.id });
  const owner = await clientFor(t.users.owner);
  const csrf = await owner.csrf();
  const anon = new Client();
  const fill = (p: string) =>
    p
      .replace(":customer", customer.id)
      .replace(":job", job.id)
      .replace(":quote", quote.id)
      .replace(":user", t.users.technician.id)
      .replace(":uuid", "00000000-0000-4000-8000-000000000000")
      .replace(":token", "not-a-token");
  const before = await snapshot(t.id);
  const failures: string[] = [];

  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...POST_ROUTES),
      contentTypes,
      bodies,
      accepts,
      fc.boolean(),
      fc.boolean(),
      fc.constantFrom("same", "cross", "none"),
      async (route, contentType, body, accept, signedIn, withCsrf, origin) => {
        const client = signedIn ? owner : anon;
        const headers: Record<string, string> = {};
        if (contentType) headers["content-type"] = contentType;
        if (accept) headers.accept = accept;
        if (origin === "cross") headers.origin = "https://evil.example";
        if (origin === "none") headers.origin = "";
        let payload = typeof body === "string" ? body : String(body);
        if (withCsrf && contentType.startsWith("application/x-www-form-urlencoded"))
          payload += `&_csrf=${encodeURIComponent(csrf)}`;
        const res = await client.request("POST", fill(route), { body: payload, headers });
        const text = await res.text();
        if (res.status >= 500 && res.status !== 503) {
          failures.push(
            `${res.status} POST ${route} ${contentType} accept=${accept} origin=${origin} signedIn=${signedIn} ${JSON.stringify(payload).slice(0, 80)} -> ${text.slice(0, 200)}`,
          );
        }
      },
    ),
    { seed: 20261122, numRuns: 400 },
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...GET_ROUTES),
      fc.string({ maxLength: 60 }),
      accepts,
      async (route, query, accept) => {
        const res = await owner.get(
          `${fill(route)}?${encodeURIComponent(query)}=${encodeURIComponent(query)}&type=${encodeURIComponent(query)}&page=${encodeURIComponent(query)}`,
          accept ? { accept } : {},
        );
        await res.arrayBuffer();
        if (res.status >= 500) failures.push(`${res.status} GET ${route} ${query}`);
      },
    ),
    { seed: 20261122, numRuns: 150 },
  );
  assert.deepEqual(failures, []);
  assert.equal(await snapshot(t.id), before, "no business record changed");
});
