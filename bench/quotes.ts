/**
 * Quote creation with prices as businesses charge them (BENCHMARKS.md part three): the builder's
 * POST with 10 lines, each line at one of two named rates ("State 6.25%", "City 2%"), a percent
 * or an amount discount on most lines, and a document discount; every answer a 303 to the new
 * quote. Reported as the other pages are: p50 alone, p99 and throughput at 20 connections, and
 * the server's CPU per request (bench/part-two.ts measureTarget). `BENCH_ONLY=QUOTES npm run bench`
 * (writes bench/results/quotes.json).
 */
import os from "node:os";
import { closeDb, configureDb, one } from "../db/index";
import { figure, round, type Figure } from "./lib";
import { measureTarget, type Target } from "./part-two";
import { benchUser } from "./session";
import type { RunningServer } from "../tests/helpers/server";

export const QUOTES_PAGE = "QUOTES quote creation with 10 lines, discounts and two named rates";

/** The form's body: 10 lines over two named rates, line discounts and $25.00 off the quote. */
export function discountedQuoteBody(csrf: string, customerId: string, rates: [string, string]): string {
  const form = new URLSearchParams({
    _csrf: csrf,
    customerId,
    title: "Bathroom remodel (bench, discounts)",
    discountType: "amount",
    discountValue: "25.00",
  });
  for (let i = 0; i < 10; i++) {
    form.set(`items[${i}].description`, `Line ${i + 1}: tile, fixtures and labour`);
    form.set(`items[${i}].quantity`, String(1 + (i % 3)));
    form.set(`items[${i}].unitPrice`, `${(125 + i * 10).toFixed(2)}`);
    form.set(`items[${i}].taxRateId`, rates[i % 2]!);
    if (i % 3 === 0) {
      form.set(`items[${i}].discountType`, "percent");
      form.set(`items[${i}].discountValue`, "10");
    } else if (i % 3 === 1) {
      form.set(`items[${i}].discountType`, "amount");
      form.set(`items[${i}].discountValue`, "5.00");
    }
  }
  return form.toString();
}

/** A form post as the signed-in owner; the answer must be a 303. */
async function post(base: string, cookie: string, path: string, fields: Record<string, string>): Promise<string> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: base, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  if (res.status !== 303) throw new Error(`POST ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res.headers.get("location") ?? "";
}

export async function benchQuotes(server: RunningServer, databaseUrl: string, floorRps: number): Promise<Figure[]> {
  const user = await benchUser(server.url, databaseUrl);
  const base = server.url;
  await post(base, user.cookie, "/settings/taxes", { _csrf: user.csrf, name: "State", rate: "6.25" });
  await post(base, user.cookie, "/settings/taxes", { _csrf: user.csrf, name: "City", rate: "2" });
  const customer = await post(base, user.cookie, "/customers/new", {
    _csrf: user.csrf,
    name: "Bench Discount Customer",
    email: `discounts-${Date.now()}@example.com`,
  });
  const customerId = /\/customers\/([0-9a-f-]{36})/.exec(customer)?.[1];
  if (!customerId) throw new Error(`no customer in ${customer}`);
  configureDb({ url: databaseUrl });
  const rateId = async (name: string) =>
    (await one<{ id: string }>(`SELECT id FROM tax_rates WHERE tenant_id = $1 AND name = $2`, [user.tenantId, name]))!
      .id;
  const rates: [string, string] = [await rateId("State"), await rateId("City")];
  await closeDb();
  const target: Target = {
    name: QUOTES_PAGE,
    path: `/quotes/new?customerId=${customerId}`,
    connections: 20,
    p99: null,
    rps: 200,
    method: "POST",
    body: discountedQuoteBody(user.csrf, customerId, rates),
    contentType: "application/x-www-form-urlencoded",
    ok: 303,
  };
  const loadBefore = os.loadavg()[0];
  const out = await measureTarget(server, { cookie: user.cookie, origin: base }, target, floorRps);
  out.push(figure("QUOTES load average (1 min) before the load", round(loadBefore, 2), "", "measured", null));
  out.push(figure("QUOTES load average (1 min) after the load", round(os.loadavg()[0], 2), "", "measured", null));
  out.push(figure("QUOTES machine cores", os.cpus().length, "", "measured", null));
  return out;
}
