// Portal test helpers: a link made the way staff make one, and requests from a chosen
// loopback address (the server sees it as the client IP, so each test has its own
// bad-token counter and no test pushes another over the limit).
import http from "node:http";
import { randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { db, one, rows } from "../../db/index";
import { createPortalLink } from "../../app/services/portal/links.server";
import { BASE_URL } from "./client";
import { createCustomer, createTenantWithUsers, type TestTenant } from "./fixtures";

/** A fresh 127.x.y.z address other than 127.0.0.1 (the whole 127/8 is loopback on Linux). */
export const randomLoopback = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

export type PortalSetup = {
  tenant: TestTenant;
  customer: { id: string; name: string };
  token: string;
  url: string;
  linkId: string;
};

/** A tenant, a customer and a 30-day portal link for them, created by an office user. */
export async function portalSetup(
  o: { businessName?: string; customerName?: string; tenant?: TestTenant } = {},
): Promise<PortalSetup> {
  const tenant = o.tenant ?? (await createTenantWithUsers(o.businessName));
  const customer = await createCustomer(tenant.id, { name: o.customerName ?? "Jamie Rivera" });
  const actor = { tenantId: tenant.id, userId: tenant.users.office.id, role: "office" as const };
  const link = await createPortalLink(actor, customer.id, 30);
  const url = new URL(link.url);
  return { tenant, customer, token: url.pathname.split("/").pop()!, url: `${url.pathname}`, linkId: link.id };
}

export type PortalResponse = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** A request to the test server (or `base`) from `ip`; redirects are not followed. */
export function portalRequest(
  method: string,
  path: string,
  o: {
    form?: Record<string, string | undefined>;
    body?: string;
    ip?: string;
    headers?: Record<string, string>;
    base?: string;
  } = {},
): Promise<PortalResponse> {
  const base = new URL(o.base ?? BASE_URL);
  let body: string | undefined = o.body;
  const headers: Record<string, string> = { "user-agent": "PortalTest/1.0", ...o.headers };
  if (o.form) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(o.form)) if (v !== undefined) params.append(k, v);
    body = params.toString();
  }
  if (body !== undefined) {
    headers["content-type"] ??= "application/x-www-form-urlencoded";
    headers["content-length"] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: base.hostname === "localhost" ? "127.0.0.1" : base.hostname,
        port: base.port,
        path,
        method,
        headers,
        localAddress: o.ip ?? "127.0.0.1",
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The text of a field's error list (`<ul id="<fieldId>-error">`), or null. */
export function fieldError(html: string, fieldId: string): string | null {
  const m = new RegExp(`<ul id="${fieldId}-error"[^>]*>(.*?)</ul>`, "s").exec(html);
  return m
    ? m[1]
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim()
    : null;
}

/** The hidden idempotency key of an invoice's payment form on a rendered hub. */
export function paymentKeyOf(html: string, invoiceId: string): string {
  const m = new RegExp(
    `name="invoiceId" value="${invoiceId}"/><input type="hidden" name="idempotencyKey" value="([^"]+)"`,
  ).exec(html);
  if (!m) throw new Error(`no payment form for invoice ${invoiceId}`);
  return m[1];
}

/** Text of a page with tags removed and entities of interest decoded (for plain-text assertions). */
export const pageText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");

/**
 * Makes a race certain rather than likely: holds a row lock on the record while the requests
 * start, waits until `waiters` server transactions are queued behind it (or 5 s pass), then
 * lets them all go at once. Code that checks state without locking the row reads the old
 * state in every request and lets them all write; code that locks lets one through.
 */
export async function raceOnRow<T>(
  table: "quotes" | "invoices",
  tenantId: string,
  id: string,
  waiters: number,
  start: () => Array<Promise<T>>,
): Promise<T[]> {
  const t = await db().transaction();
  let pending: Promise<T[]> | undefined;
  try {
    await rows(`SELECT 1 FROM ${table} WHERE tenant_id = $1 AND id = $2 FOR UPDATE`, [tenantId, id], t);
    pending = Promise.all(start());
    for (let i = 0; i < 200; i++) {
      const blocked = await one<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0`,
      );
      if (blocked!.n >= waiters) break;
      await sleep(25);
    }
  } finally {
    await t.commit();
  }
  return pending;
}
