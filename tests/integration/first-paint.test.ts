import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { test } from "node:test";
import { Client, clientFor } from "../helpers/client";
import { createCustomer, createJob, createQuote, createTenantWithUsers } from "../helpers/fixtures";
import { portalSetup } from "../helpers/portal";

// The first paint on a phone (Lighthouse's mobile preset: slow 4G, a slow CPU): what the six main
// pages make the browser fetch before and around their first paint, in bytes, with no timing.
// The stylesheets come inline in the page (no round trip before the first paint), the scripts
// at low priority (the page is whole without them), and the JavaScript stays within budget: the
// code every page loads holds no form library or schema library, so pages without forms do not
// download them. The measured figures (Lighthouse's scores): `BENCH_ONLY=LIGHTHOUSE npm run bench`.

const KiB = 1024;
/**
 * Gzipped JavaScript each page preloads, at most: what each page reached, plus about 2 KiB
 * (docs/decisions/485-less-script-on-a-phone.md; React and Remix alone are about 86 KiB, the
 * route manifest 4 KiB). The schedule and the field app carry no schema or form library (their
 * forms are checked on the server), the customers list not its field list, the dashboard no d3 (app/components/chart-scales.ts).
 */
const PAGE_BUDGETS: Record<string, number> = {
  dashboard: 104 * KiB,
  customers: 99 * KiB,
  "a quote": 132 * KiB,
  schedule: 106 * KiB,
  portal: 135 * KiB,
  "field app": 113 * KiB,
};
/** Pages whose scripts hold no zod and no conform. */
const WITHOUT_FORM_LIBRARY = new Set(["dashboard", "customers", "schedule", "field app"]);
/** The scripts every page preloads (the entry, the root route and what they share). */
const SHARED_BUDGET = 100 * KiB;
/** The CSS a page carries inline. */
const INLINE_CSS_BUDGET = 48 * KiB;

type PageCheck = { name: string; path: string; client: Client };

async function pages(): Promise<PageCheck[]> {
  const t = await createTenantWithUsers("First Paint Plumbing");
  const customer = await createCustomer(t.id, { name: "Ana García" });
  const quote = await createQuote(t.id, { customerId: customer.id });
  await createJob(t.id, { customerId: customer.id, assigneeId: t.users.technician.id });
  const portal = await portalSetup({ tenant: t });
  const owner = await clientFor(t.users.owner);
  return [
    { name: "dashboard", path: "/", client: owner },
    { name: "customers", path: "/customers", client: owner },
    { name: "a quote", path: `/quotes/${quote.id}`, client: owner },
    { name: "schedule", path: "/schedule", client: owner },
    { name: "portal", path: portal.url, client: new Client() },
    { name: "field app", path: "/field", client: await clientFor(t.users.technician) },
  ];
}

const gzipped = new Map<string, number>();
async function gzipSize(href: string): Promise<number> {
  let size = gzipped.get(href);
  if (size === undefined) {
    const res = await new Client().get(href);
    assert.equal(res.status, 200, href);
    assert.match(res.headers.get("cache-control") ?? "", /immutable/, `${href} is cached for good`);
    size = gzipSync(Buffer.from(await res.arrayBuffer())).length;
    gzipped.set(href, size);
  }
  return size;
}

const kib = (n: number) => `${(n / KiB).toFixed(1)} KiB`;

test("the six main pages: CSS inline (nothing render-blocking), scripts at low priority, JavaScript within budget", async () => {
  const preloadsOf = new Map<string, string[]>();
  for (const page of await pages()) {
    const res = await page.client.get(page.path);
    assert.equal(res.status, 200, `${page.name}: ${page.path}`);
    const html = await res.text();
    const head = html.slice(0, html.indexOf("</head>"));

    // Nothing in the head makes the first paint wait: no stylesheet link, no classic script.
    assert.deepEqual(
      head.match(/<link[^>]*rel="stylesheet"[^>]*>/g) ?? [],
      [],
      `${page.name}: a render-blocking stylesheet`,
    );
    assert.deepEqual(head.match(/<script[^>]*src=[^>]*>/g) ?? [], [], `${page.name}: a blocking script in the head`);
    const styles = [...html.matchAll(/<style[^>]*data-href="([^"]+)"[^>]*>([\s\S]*?)<\/style>/g)];
    assert.ok(styles.length >= 1, `${page.name}: the stylesheets are inline`);
    const css = styles.reduce((sum, s) => sum + Buffer.byteLength(s[2]!), 0);
    assert.ok(css <= INLINE_CSS_BUDGET, `${page.name}: ${kib(css)} of inline CSS`);
    // The inline styles carry the page's CSP nonce, which allows them.
    const nonce = (res.headers.get("content-security-policy") ?? "").match(/style-src 'self' 'nonce-([^']+)'/)?.[1];
    assert.ok(nonce, `${page.name}: the CSP allows the page's inline styles by nonce`);
    for (const s of html.match(/<style[^>]*>/g) ?? []) assert.ok(s.includes(`nonce="${nonce}"`), s);

    const preloads = [...html.matchAll(/<link rel="modulepreload"([^>]*)\/?>/g)].map((m) => m[1]!);
    assert.ok(preloads.length > 0, `${page.name}: hydrates`);
    for (const p of preloads)
      assert.match(p, /fetchpriority="low"/, `${page.name}: a script preloaded at high priority`);
    const hrefs = preloads.map((p) => p.match(/href="([^"]+)"/)![1]!);
    preloadsOf.set(page.name, hrefs);
    let total = 0;
    for (const href of hrefs) total += await gzipSize(href);
    const budget = PAGE_BUDGETS[page.name]!;
    console.log(`  ${page.name}: ${kib(total)} of gzipped JavaScript preloaded (budget ${kib(budget)})`);
    assert.ok(total <= budget, `${page.name}: ${kib(total)} of gzipped JavaScript (budget ${kib(budget)})`);
    if (WITHOUT_FORM_LIBRARY.has(page.name))
      for (const href of hrefs) {
        const text = await (await new Client().get(href)).text();
        assert.doesNotMatch(
          text,
          /ZodObject|useFormMetadata/,
          `${page.name}: ${href} holds the form or schema library`,
        );
      }
  }

  const [first, ...rest] = [...preloadsOf.values()];
  const shared = first!.filter((href) => rest.every((hrefs) => hrefs.includes(href)));
  let sharedTotal = 0;
  for (const href of shared) sharedTotal += await gzipSize(href);
  assert.ok(sharedTotal <= SHARED_BUDGET, `every page preloads ${kib(sharedTotal)} (budget ${kib(SHARED_BUDGET)})`);
  for (const href of shared) {
    const text = await (await new Client().get(href)).text();
    assert.doesNotMatch(
      text,
      /ZodObject|useFormMetadata/,
      `${href}, which every page loads, holds the form or schema library`,
    );
  }
});
