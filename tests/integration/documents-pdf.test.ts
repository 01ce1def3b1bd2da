import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { extractText, getDocumentProxy } from "unpdf";
import { one, rows } from "../../db/index";
import { BASE_URL, clientFor } from "../helpers/client";
import { createCustomer, createInvoice, createJob, createQuote, createTenantWithUsers } from "../helpers/fixtures";
import { textOf } from "../helpers/html";
import { portalSetup } from "../helpers/portal";
import { quoteWithOptions } from "../helpers/quote-options";
import { signPortalToken } from "../../app/services/portal/links.server";

// CONTRACT section 16, issue 20: quotes, invoices and receipts as PDFs, for staff and from the
// portal. Each PDF is read back with a different library (unpdf, PDF.js) than the one that
// wrote it (pdfkit): the text a customer could search and copy.

async function pdfOf(res: Response) {
  assert.equal(res.status, 200, `status ${res.status}: ${res.status === 200 ? "" : await res.clone().text()}`);
  assert.equal(res.headers.get("content-type"), "application/pdf");
  assert.match(res.headers.get("content-disposition") ?? "", /^inline; filename="[\w .-]+\.pdf"$/);
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.equal(Buffer.from(bytes.slice(0, 5)).toString(), "%PDF-");
  const doc = await getDocumentProxy(bytes.slice());
  const { text } = await extractText(doc, { mergePages: true });
  const page = await doc.getPage(1);
  const [, , width, height] = page.view;
  return { text: text.replace(/\s+/g, " "), pages: doc.numPages, size: [Math.round(width), Math.round(height)] };
}

/** The PDF's own objects (pdfkit writes its dictionaries uncompressed), by object number. */
function pdfObjects(bytes: Uint8Array): Map<number, string> {
  const raw = Buffer.from(bytes).toString("latin1");
  const objects = new Map<number, string>();
  for (const m of raw.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = m[2]!;
    const stream = body.indexOf("stream");
    objects.set(Number(m[1]), stream >= 0 ? body.slice(0, stream) : body);
  }
  return objects;
}

/** The object a dictionary's `/Key n 0 R` points at. */
function follow(objects: Map<number, string>, dict: string, key: string): string {
  const ref = new RegExp(`/${key} (\\d+) 0 R`).exec(dict);
  assert.ok(ref, `${key} is in ${dict.slice(0, 200)}`);
  return objects.get(Number(ref[1]))!;
}

const LETTER = [612, 792];
const A4 = [595, 842];

describe("documents as PDF", () => {
  test("a quote PDF holds the business, the customer, the number, every line and the total (US Letter for a US business)", async () => {
    const t = await createTenantWithUsers("Summit Plumbing & Drain");
    const customer = await createCustomer(t.id, { name: "Rosa Marquez", country: "US" });
    const quote = await createQuote(t.id, {
      customerId: customer.id,
      number: "Q-0042",
      items: [
        { description: "50 gal gas water heater", unitPriceCents: 145_000, taxRate: "8.25" },
        { description: "Expansion tank", unitPriceCents: 8_900 },
        { description: "Labour (hours)", quantity: "3", unitPriceCents: 12_500 },
      ],
    });
    const office = await clientFor(t.users.office);
    assert.ok(
      (await (await office.get(`/quotes/${quote.id}`)).text()).includes(`href="/quotes/${quote.id}.pdf"`),
      "the quote page links its PDF",
    );
    const { text, size } = await pdfOf(await office.get(`/quotes/${quote.id}.pdf`));
    for (const s of [
      "Summit Plumbing & Drain",
      "QUOTE",
      "Q-0042",
      "Rosa Marquez",
      "50 gal gas water heater",
      "Expansion tank",
      "Labour (hours)",
      "$1,450.00",
      "$119.63",
      "Total",
    ]) {
      assert.ok(text.includes(s), `the quote PDF says ${JSON.stringify(s)}:\n${text}`);
    }
    assert.ok(text.includes("$2,033.63"), `the total ($1,450.00 + $89.00 + $375.00 + $119.63 tax): ${text}`);
    assert.deepEqual(size, LETTER);
  });

  test("names in any script read back exactly from quote and invoice PDFs; their fonts are embedded subsets and the PDFs are tagged", async () => {
    const t = await createTenantWithUsers("Summit Plumbing & Drain");
    const customer = await createCustomer(t.id, { name: "Łukasz Dvořák 王小明", company: "Nguyễn Thị Mai" });
    const items = [{ description: "Visit for Nguyễn Thị Mai (王小明)", unitPriceCents: 12_500 }];
    const quote = await createQuote(t.id, { customerId: customer.id, number: "Q-0901", items });
    const invoice = await createInvoice(t.id, { customerId: customer.id, number: "INV-0901", status: "sent", items });
    const office = await clientFor(t.users.office);
    for (const url of [`/quotes/${quote.id}.pdf`, `/invoices/${invoice.id}.pdf`]) {
      const res = await office.get(url);
      const bytes = new Uint8Array(await res.clone().arrayBuffer());
      const { text } = await pdfOf(res);
      for (const name of ["Łukasz Dvořák 王小明", "Nguyễn Thị Mai", "Visit for Nguyễn Thị Mai (王小明)"])
        assert.ok(text.includes(name), `${url} reads back ${JSON.stringify(name)}:\n${text}`);

      const objects = pdfObjects(bytes);
      // Fonts: every one a Type 0 font over an embedded TrueType subset; no unembedded standard font.
      const fonts = [...objects.values()].filter((o) => /\/Type \/Font\b/.test(o));
      assert.ok(fonts.length >= 2, `fonts: ${fonts.length}`);
      for (const f of fonts) {
        assert.match(f, /\/Subtype \/(Type0|CIDFontType2)\b/, f);
        assert.match(f, /\/BaseFont \/[A-Z]{6}\+NotoSans(SC)?-/, f);
      }
      const descriptors = [...objects.values()].filter((o) => /\/Type \/FontDescriptor\b/.test(o));
      assert.ok(descriptors.length >= 2);
      for (const d of descriptors) assert.match(d, /\/FontFile2 \d+ 0 R/, d);
      assert.ok(
        fonts.some((f) => /NotoSansSC-/.test(f)),
        "the CJK fallback is embedded for 王小明",
      );
      // Tagged: the catalog marks the content, has a structure tree and a language.
      const catalog = [...objects.values()].find((o) => /\/Type \/Catalog\b/.test(o))!;
      assert.match(follow(objects, catalog, "MarkInfo"), /\/Marked true/);
      const tree = follow(objects, catalog, "StructTreeRoot");
      assert.match(tree, /\/Type \/StructTreeRoot/);
      assert.match(catalog, /\/Lang \(en\)/);
      const roles = new Set([...objects.values()].flatMap((o) => /\/S \/(\w+)/.exec(o)?.[1] ?? []));
      for (const role of ["Document", "H1", "P", "Table", "TR", "TH", "TD"])
        assert.ok(roles.has(role), `a ${role} element`);
      // The reader of another library agrees: PDF.js reads the marked structure of the page.
      const doc = await getDocumentProxy(bytes.slice());
      assert.equal((await doc.getMarkInfo())?.Marked, true);
      const structure = JSON.stringify(await (await doc.getPage(1)).getStructTree());
      assert.match(structure, /"role":"Table"/);
    }
  });

  test("an invoice PDF holds its payments and the balance; a receipt the payment and the balance after it; A4 outside North America", async () => {
    const t = await createTenantWithUsers("Dublin Heating Ltd");
    const customer = await createCustomer(t.id, { name: "Aoife Byrne", country: "IE" });
    const invoice = await createInvoice(t.id, {
      customerId: customer.id,
      number: "INV-0107",
      status: "partial",
      amountPaidCents: 30_000,
      currency: "EUR",
      items: [{ description: "Boiler service", unitPriceCents: 50_000 }],
    });
    await rows(
      `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference) VALUES ($1, $2, 30000, 'EUR', 'check', 'Check #1042')`,
      [t.id, invoice.id],
    );
    const office = await clientFor(t.users.office);
    const page = await (await office.get(`/invoices/${invoice.id}`)).text();
    assert.ok(page.includes(`href="/invoices/${invoice.id}.pdf"`), "the invoice page links its PDF");
    const inv = await pdfOf(await office.get(`/invoices/${invoice.id}.pdf`));
    for (const s of [
      "Dublin Heating Ltd",
      "INVOICE",
      "INV-0107",
      "Aoife Byrne",
      "Boiler service",
      "€500.00",
      "Payments",
      "Check",
      "Check #1042",
      "€300.00",
      "Balance due",
      "€200.00",
    ]) {
      assert.ok(inv.text.includes(s), `the invoice PDF says ${JSON.stringify(s)}:\n${inv.text}`);
    }
    assert.deepEqual(inv.size, A4);

    const payment = await one<{ id: string }>(`SELECT id FROM payments WHERE tenant_id = $1 AND invoice_id = $2`, [
      t.id,
      invoice.id,
    ]);
    assert.ok(
      page.includes(`href="/invoices/${invoice.id}/receipts/${payment!.id}.pdf"`),
      "each payment links its receipt",
    );
    const receipt = await pdfOf(await office.get(`/invoices/${invoice.id}/receipts/${payment!.id}.pdf`));
    for (const s of [
      "RECEIPT",
      "INV-0107-R1",
      "Aoife Byrne",
      "Check #1042",
      "Amount paid",
      "€300.00",
      "Balance after this payment",
      "€200.00",
    ]) {
      assert.ok(receipt.text.includes(s), `the receipt says ${JSON.stringify(s)}:\n${receipt.text}`);
    }
  });

  test("a 50-line invoice runs over pages with every line, numbered pages and one total", async () => {
    const t = await createTenantWithUsers("Big Job Builders");
    const customer = await createCustomer(t.id);
    const items = Array.from({ length: 50 }, (_, i) => ({
      description: `Fixture ${String(i + 1).padStart(2, "0")} installed and tested`,
      unitPriceCents: 1_000 + i,
    }));
    const invoice = await createInvoice(t.id, { customerId: customer.id, items });
    const { text, pages } = await pdfOf(await (await clientFor(t.users.owner)).get(`/invoices/${invoice.id}.pdf`));
    assert.ok(pages >= 2, `pages: ${pages}`);
    for (let i = 1; i <= 50; i++)
      assert.ok(text.includes(`Fixture ${String(i).padStart(2, "0")} installed`), `line ${i}`);
    assert.ok(text.includes(`Page 1 of ${pages}`) && text.includes(`Page ${pages} of ${pages}`));
    assert.equal(text.split("Balance due").length - 1, 1, "one balance");
  });

  test("a void invoice shows no balance due", async () => {
    const t = await createTenantWithUsers();
    const customer = await createCustomer(t.id);
    const invoice = await createInvoice(t.id, { customerId: customer.id, status: "void" });
    const { text } = await pdfOf(await (await clientFor(t.users.owner)).get(`/invoices/${invoice.id}.pdf`));
    assert.ok(text.includes("Void") && !text.includes("Balance due"), text);
  });

  test("the portal serves only the token's customer's documents, never a draft, with the portal's headers", async () => {
    const p = await portalSetup({ businessName: "Harbor Heating", customerName: "Ann Customer" });
    const sent = await createQuote(p.tenant.id, { customerId: p.customer.id, number: "Q-1001" });
    const draft = await createQuote(p.tenant.id, { customerId: p.customer.id, number: "Q-1002", status: "draft" });
    const invoice = await createInvoice(p.tenant.id, { customerId: p.customer.id, number: "INV-2001" });
    const other = await createCustomer(p.tenant.id, { name: "Someone Else" });
    const theirs = await createQuote(p.tenant.id, { customerId: other.id, number: "Q-1003" });
    const get = (path: string) => fetch(new URL(path, BASE_URL), { redirect: "manual" });

    const q = await get(`/portal/${p.token}/quotes/${sent.id}.pdf`);
    assert.equal(q.headers.get("referrer-policy"), "no-referrer");
    assert.match(q.headers.get("cache-control") ?? "", /no-store/);
    assert.equal(q.headers.get("x-robots-tag"), "noindex");
    assert.ok((await pdfOf(q)).text.includes("Q-1001"));
    assert.ok((await pdfOf(await get(`/portal/${p.token}/invoices/${invoice.id}.pdf`))).text.includes("INV-2001"));

    for (const id of [draft.id, theirs.id]) {
      const res = await get(`/portal/${p.token}/quotes/${id}.pdf`);
      assert.equal(res.status, 404);
      assert.doesNotMatch(await res.text(), /Q-100[23]|Someone Else/);
    }
    assert.equal((await get(`/portal/${p.token}/invoices/${sent.id}.pdf`)).status, 404, "a quote id is no invoice");
    assert.equal((await get(`/portal/forged.token/quotes/${sent.id}.pdf`)).status, 404);
    await rows(`UPDATE portal_links SET revoked_at = now() WHERE tenant_id = $1 AND id = $2`, [p.tenant.id, p.linkId]);
    assert.equal((await get(`/portal/${p.token}/quotes/${sent.id}.pdf`)).status, 410);
  });

  test("staff PDFs need view_records over the whole tenant: a technician gets 403, a visitor the sign-in page", async () => {
    const t = await createTenantWithUsers();
    const customer = await createCustomer(t.id);
    const quote = await createQuote(t.id, { customerId: customer.id });
    const invoice = await createInvoice(t.id, { customerId: customer.id });
    const tech = await clientFor(t.users.technician);
    assert.equal((await tech.get(`/quotes/${quote.id}.pdf`)).status, 403);
    assert.equal((await tech.get(`/invoices/${invoice.id}.pdf`)).status, 403);
    const anonymous = await fetch(new URL(`/quotes/${quote.id}.pdf`, BASE_URL), { redirect: "manual" });
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.headers.get("location") ?? "", /^\/login\?redirectTo=/);
  });
});

test("the portal keeps history: a paid invoice stays under Past with its PDF and a receipt per payment; an answered quote too", async () => {
  const p = await portalSetup({ businessName: "Harbor Heating", customerName: "Ann Customer" });
  const paid = await createInvoice(p.tenant.id, {
    customerId: p.customer.id,
    number: "INV-PAID-1",
    status: "paid",
    amountPaidCents: 10_000,
    items: [{ description: "Tune-up", unitPriceCents: 10_000 }],
  });
  await rows(
    `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference) VALUES ($1, $2, 10000, 'USD', 'check', 'Check #77')`,
    [p.tenant.id, paid.id],
  );
  const approved = await createQuote(p.tenant.id, {
    customerId: p.customer.id,
    number: "Q-DONE-1",
    status: "approved",
  });
  const html = await (await fetch(new URL(`/portal/${p.token}`, BASE_URL))).text();
  const past = html.slice(html.indexOf('id="past"'));
  assert.ok(html.indexOf('id="past"') > 0, "a Past section");
  assert.match(past, /INV-PAID-1/);
  assert.match(past, /Q-DONE-1/);
  assert.match(past, /Check(<!-- -->)? · <span class="portal-ref">Check #77/);
  const payment = await one<{ id: string }>(`SELECT id FROM payments WHERE tenant_id = $1 AND invoice_id = $2`, [
    p.tenant.id,
    paid.id,
  ]);
  const receiptHref = `/portal/${p.token}/invoices/${paid.id}/receipts/${payment!.id}.pdf`;
  assert.ok(past.includes(`href="${receiptHref}"`), "a receipt link per payment");
  assert.ok(
    past.includes(`href="/portal/${p.token}/invoices/${paid.id}.pdf"`) &&
      past.includes(`href="/portal/${p.token}/quotes/${approved.id}.pdf"`),
    "PDF links",
  );
  const receipt = await pdfOf(await fetch(new URL(receiptHref, BASE_URL)));
  assert.ok(receipt.text.includes("Check #77") && receipt.text.includes("$100.00"), receipt.text);
});

describe("documents say what the customer bought, owes and when (issue 32, point 2)", () => {
  test("a quote PDF after the customer's choice lists no option or optional item left out, nor its amount", async () => {
    const t = await createTenantWithUsers("Choice Plumbing");
    const customer = await createCustomer(t.id, { name: "Cy Chooser" });
    const q = await quoteWithOptions(t.id, customer.id, { number: "Q-CH-1" });
    // Chosen: Better and the warranty; left out: Good, Best, the haul-away, the descaling kit.
    await rows(`UPDATE quote_items SET selected = (id = ANY($3::uuid[])) WHERE tenant_id = $1 AND quote_id = $2`, [
      t.id,
      q.id,
      [q.ids.call, q.ids.better, q.ids.warranty],
    ]);
    await rows(
      `UPDATE quotes SET status = 'approved', approved_at = now(), approved_name = 'Cy Chooser', subtotal_cents = 143900, tax_cents = 9900, total_cents = 153800 WHERE tenant_id = $1 AND id = $2`,
      [t.id, q.id],
    );
    const { text } = await pdfOf(await (await clientFor(t.users.office)).get(`/quotes/${q.id}.pdf`));
    for (const s of ["New 50 gal standard water heater", "Extended 5-year warranty", "Service call", "$1,538.00"])
      assert.ok(text.includes(s), `the PDF lists ${JSON.stringify(s)}:\n${text}`);
    for (const s of [
      "Haul away the old unit",
      "$60.00",
      "Tankless",
      "$2,400.00",
      "Repair the burner assembly",
      "$200.00",
    ])
      assert.ok(!text.includes(s), `the PDF leaves out ${JSON.stringify(s)}:\n${text}`);
    assert.doesNotMatch(text, /not chosen/);
  });

  test("labour of a technician without a rate: the job page warns before invoicing, and the documents say no charge rather than × $0.00", async () => {
    const t = await createTenantWithUsers("Rate Less Heating");
    const customer = await createCustomer(t.id, { name: "Ray Rateless" });
    const job = await createJob(t.id, { customerId: customer.id, title: "Boiler repair", status: "completed" });
    await rows(`UPDATE users SET name = 'Tess Tech', hourly_rate_cents = NULL WHERE tenant_id = $1 AND id = $2`, [
      t.id,
      t.users.technician.id,
    ]);
    await rows(
      `INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at) VALUES ($1, $2, $3, '2026-06-16T16:00:00Z', '2026-06-16T19:45:00Z')`,
      [t.id, job.id, t.users.technician.id],
    );
    const office = await clientFor(t.users.office);
    const page = textOf(await (await office.get(`/jobs/${job.id}`)).text());
    assert.match(page, /No hourly rate: Tess Tech \(3 h 45 min\)\. Their time would go on the invoice at no charge/);
    const made = await office.post(`/jobs/${job.id}/invoice`, {});
    assert.equal(made.status, 303);
    const invoiceId = made.headers.get("location")!.split("/").pop()!;
    assert.doesNotMatch(
      textOf(await (await office.get(`/jobs/${job.id}`)).text()),
      /No hourly rate/,
      "gone once invoiced",
    );
    const { text } = await pdfOf(await office.get(`/invoices/${invoiceId}.pdf`));
    assert.match(text, /Labour: Tess Tech.*3\.75 No charge – \$0\.00/);
    // The customer's portal page of the invoice, once sent.
    assert.equal((await office.post(`/invoices/${invoiceId}/send`, {})).status, 303);
    const link = await one<{ id: string }>(`SELECT id FROM portal_links WHERE tenant_id = $1 AND customer_id = $2`, [
      t.id,
      customer.id,
    ]);
    const hub = textOf(await (await fetch(new URL(`/portal/${signPortalToken(t.id, link!.id)}`, BASE_URL))).text());
    assert.match(hub, /3\.75 · no charge/);
    assert.doesNotMatch(hub, /× \$0\.00/);
  });

  test("an overdue invoice's PDF says Overdue as its page does; addresses read Denver, CO 80212; times name their zone", async () => {
    const t = await createTenantWithUsers("Mile High Plumbing");
    await rows(`UPDATE tenants SET time_zone = 'America/Denver' WHERE id = $1`, [t.id]);
    const customer = await createCustomer(t.id, {
      name: "Dee Denver",
      address_line1: "3300 Tejon St",
      city: "Denver",
      region: "CO",
      postal_code: "80212",
    });
    const dueDate = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    const invoice = await createInvoice(t.id, {
      customerId: customer.id,
      number: "INV-LATE",
      status: "partial",
      dueDate,
      amountPaidCents: 10_000,
    });
    await rows(
      `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference, recorded_at)
       VALUES ($1, $2, 10000, 'USD', 'check', 'Check #9', '2026-01-15T17:30:00Z')`,
      [t.id, invoice.id],
    );
    const office = await clientFor(t.users.office);
    assert.match(textOf(await (await office.get(`/invoices/${invoice.id}`)).text()), /Overdue/);
    const { text } = await pdfOf(await office.get(`/invoices/${invoice.id}.pdf`));
    assert.match(text, /Status Overdue/);
    assert.doesNotMatch(text, /Status Partial/);
    assert.ok(text.includes("Denver, CO 80212"), text);
    assert.doesNotMatch(text, /CO, 80212/);
    // 17:30 UTC on Jan 15 is 10:30 AM in Denver (MST).
    assert.match(text, /Jan 15, 2026, 10:30\s?AM MST/);
    const job = await createJob(t.id, { customerId: customer.id });
    assert.match(textOf(await (await office.get(`/jobs/${job.id}`)).text()), /3300 Tejon St, Denver, CO 80212/);
  });
});
