// Issue 20 (CONTRACT section 16): options and optional items in the portal. Approval records
// exactly the chosen option and items (selected on every line, in the approving transaction);
// a wrong option or another quote's item is 422 and changes nothing; two approvals at once
// with different options: one wins, the other is 409. Also the deposit paid with approval, the
// change request, and the "Update total" page without JavaScript.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { extractText, getDocumentProxy } from "unpdf";
import { inTenant, one, rows } from "../../db/index";
import { chosenQuoteItems, convertQuote } from "../../app/services/quotes/quotes.server";
import { applyQuoteDeposit } from "../../app/services/invoices/deposits.server";
import { createInvoiceFromJob, sendInvoice } from "../../app/services/invoices/invoices.server";
import { clientFor } from "../helpers/client";
import { createInvoice, createQuote, tenantCounts } from "../helpers/fixtures";
import { fieldError, pageText, portalRequest, portalSetup, raceOnRow, randomLoopback } from "../helpers/portal";
import { BETTER_WITH_WARRANTY, quoteWithOptions, recordedChoice } from "../helpers/quote-options";

const TABLES = [
  "quotes",
  "quote_items",
  "quote_deposits",
  "quote_change_requests",
  "record_history",
  "jobs",
  "payments",
];

/** A portal form post with repeated fields (optionalItems). */
function post(s: { token: string }, fields: Array<[string, string]>, o: { ip?: string; base?: string } = {}) {
  const body = new URLSearchParams([["token", s.token], ...fields]).toString();
  return portalRequest("POST", "/api/portal/quote", { body, ip: o.ip ?? randomLoopback(), base: o.base });
}
const approve = (
  quoteId: string,
  option: string | null,
  items: string[],
  name = "Jamie Rivera",
): Array<[string, string]> => [
  ["quoteId", quoteId],
  ["decision", "approve"],
  ["signatureName", name],
  ["acceptTerms", "on"],
  ...(option ? ([["option", option]] as Array<[string, string]>) : []),
  ...items.map((id): [string, string] => ["optionalItems", id]),
];

test("approving 'Better' with one optional item records exactly that choice, the signer, and the chosen total; the job made from it carries only those lines", async () => {
  const s = await portalSetup();
  const q = await quoteWithOptions(s.tenant.id, s.customer.id);
  const hub = pageText((await portalRequest("GET", s.url, { ip: randomLoopback() })).text);
  assert.match(hub, /Choose one option/);
  assert.match(hub, /Optional items/);
  assert.match(hub, /Total \$289\.00/, "the default choice: the first option, nothing optional");

  const ip = randomLoopback();
  const res = await post(s, approve(q.id, "Better", [q.ids.warranty]), { ip });
  assert.equal(res.status, 303, res.text.slice(0, 500));
  const r = await recordedChoice(s.tenant.id, q.id);
  assert.equal(r.status, "approved");
  assert.equal(r.chosen_option, "Better");
  assert.deepEqual(r.selected, BETTER_WITH_WARRANTY);
  assert.deepEqual([r.subtotal_cents, r.tax_cents, r.total_cents], [143_900, 9_900, 153_800]);
  assert.equal(r.approved_name, "Jamie Rivera");
  assert.equal(r.approved_ip, ip);
  assert.equal(r.approved_user_agent, "PortalTest/1.0");
  assert.ok(r.approved_at);
  const history = await one<{ summary: string; source: string; actor_name: string }>(
    `SELECT summary, source, actor_name FROM record_history WHERE tenant_id = $1 AND record_id = $2 AND action = 'approved'`,
    [s.tenant.id, q.id],
  );
  assert.match(
    history!.summary,
    /Approved in the portal for \$1,538\.00 \(option “Better”, “Extended 5-year warranty”\)/,
  );
  assert.equal(history!.source, "portal");

  // The one rule, and the job Convert makes, carry only the chosen lines.
  const chosen = await inTenant(s.tenant.id, (t) => chosenQuoteItems(t, s.tenant.id, q.id));
  assert.deepEqual(
    chosen.map((l) => l.description),
    ["Service call", "New 50 gal standard water heater", "Extended 5-year warranty"],
  );
  const actor = { tenantId: s.tenant.id, userId: s.tenant.users.office.id, role: "office" as const };
  const { jobId } = await convertQuote(actor, q.id);
  const job = await one<{ description: string }>(`SELECT description FROM jobs WHERE tenant_id = $1 AND id = $2`, [
    s.tenant.id,
    jobId,
  ]);
  assert.equal(
    job!.description,
    "From quote " + q.number + ":\nService call\nNew 50 gal standard water heater\nExtended 5-year warranty",
  );
  // And the invoice made from the job (no time logged): exactly those lines, at the chosen total.
  const invoice = await createInvoiceFromJob(actor, jobId);
  const lines = await rows<{ description: string }>(
    `SELECT description FROM invoice_items WHERE tenant_id = $1 AND invoice_id = $2 ORDER BY position`,
    [s.tenant.id, invoice.id],
  );
  assert.deepEqual(
    lines.map((l) => l.description),
    ["Service call", "New 50 gal standard water heater", "Extended 5-year warranty"],
  );
  const inv = await one<{ total_cents: string }>(`SELECT total_cents FROM invoices WHERE tenant_id = $1 AND id = $2`, [
    s.tenant.id,
    invoice.id,
  ]);
  assert.equal(Number(inv!.total_cents), 153_800);

  // The office's quote page shows the choice.
  const office = await clientFor(s.tenant.users.office);
  const page = pageText(await (await office.get(`/quotes/${q.id}`)).text());
  assert.match(page, /Chosen option Better/);
  assert.match(page, /Optional items Extended 5-year warranty/);
  assert.match(page, /Approved in the portal for \$1,538\.00/);
});

test("an option not on the quote, a missing option, another quote's item, an item of another option, a line that is not optional: 422 beside the field, nothing changed", async () => {
  const s = await portalSetup();
  const q = await quoteWithOptions(s.tenant.id, s.customer.id);
  const other = await quoteWithOptions(s.tenant.id, s.customer.id);
  const before = await tenantCounts(s.tenant.id, TABLES);
  const cases: Array<[string, Array<[string, string]>, string, RegExp]> = [
    ["an option that is not on the quote", approve(q.id, "Premium", []), "option", /That option is not on this quote/],
    [
      "no option on a quote with options",
      approve(q.id, null, []),
      "option",
      /Choose one of the options: Good, Better, Best/,
    ],
    [
      "an item of another quote",
      approve(q.id, "Better", [other.ids.warranty]),
      "optionalItems",
      /not an optional item of this quote/,
    ],
    [
      "an item that is not an id",
      approve(q.id, "Better", ["not-an-id"]),
      "optionalItems",
      /not an optional item of this quote/,
    ],
    [
      "a line that is not optional",
      approve(q.id, "Better", [q.ids.call]),
      "optionalItems",
      /not an optional item of this quote/,
    ],
    [
      "an optional item of another option",
      approve(q.id, "Better", [q.ids.descale]),
      "optionalItems",
      /belongs to option “Best”/,
    ],
  ];
  for (const [what, fields, field, message] of cases) {
    const res = await post(s, fields);
    assert.equal(res.status, 422, what);
    assert.match(pageText(res.text), message, what);
    assert.ok(
      fieldError(res.text, field === "option" ? `option-${q.id}` : `optional-${q.id}`),
      `${what}: the error is beside the field`,
    );
    const r = await recordedChoice(s.tenant.id, q.id);
    assert.equal(r.status, "sent", what);
    assert.equal(r.chosen_option, null, what);
    assert.ok(
      Object.values(r.selected).every((v) => v === null),
      `${what}: no line marked`,
    );
    assert.equal(r.total_cents, 28_900, what);
  }
  assert.deepEqual(await tenantCounts(s.tenant.id, TABLES), before, "no row written");
  // The form comes back with the choice kept (the radio still on "Premium" is not offered, so the first option is).
  const kept = await post(s, approve(q.id, "Best", [q.ids.haul, other.ids.haul]));
  assert.equal(kept.status, 422);
  assert.match(kept.text, new RegExp(`value="Best" checked=""|checked="" value="Best"|value="Best"[^>]*checked`));
  assert.match(kept.text, new RegExp(`value="${q.ids.haul}"[^>]*checked|checked=""[^>]*value="${q.ids.haul}"`));
});

test("without JavaScript, 'Update total' renders the page with the choice kept and its total", async () => {
  const s = await portalSetup();
  const q = await quoteWithOptions(s.tenant.id, s.customer.id, { depositPercent: "25" });
  const query = new URLSearchParams([
    ["token", s.token],
    ["quoteId", q.id],
    ["decision", "approve"],
    ["option", "Better"],
    ["optionalItems", q.ids.warranty],
    ["signatureName", "Jamie"],
  ]);
  const res = await portalRequest("GET", `${s.url}?${query}`, { ip: randomLoopback() });
  assert.equal(res.status, 200);
  const text = pageText(res.text);
  assert.match(text, /Subtotal \$1,439\.00 Tax 8\.25% \$99\.00 Total \$1,538\.00 Deposit due on approval \$384\.50/);
  assert.match(text, /Approve and pay deposit \(\$384\.50\)/);
  assert.match(res.text, /value="Better"[^>]*checked|checked=""[^>]*value="Better"/);
  assert.match(res.text, /name="signatureName"[^>]*value="Jamie"|value="Jamie"[^>]*name="signatureName"/);
  assert.match(res.text, /formMethod="get"|formmethod="get"/i, "the Update total button");
  // Nothing was recorded by looking.
  assert.equal((await recordedChoice(s.tenant.id, q.id)).status, "sent");
});

test("a quote asking a deposit: approval and the sandbox deposit in one transaction; the job's invoice receives it as a payment, once", async () => {
  const s = await portalSetup();
  const q = await quoteWithOptions(s.tenant.id, s.customer.id, { depositPercent: "25" });
  const res = await post(s, approve(q.id, "Better", [q.ids.warranty]));
  assert.equal(res.status, 303, res.text.slice(0, 300));
  const deposit = await one<{ amount_cents: string; method: string; reference: string; payment_id: string | null }>(
    `SELECT amount_cents, method, reference, payment_id FROM quote_deposits WHERE tenant_id = $1 AND quote_id = $2`,
    [s.tenant.id, q.id],
  );
  assert.equal(Number(deposit!.amount_cents), 38_450, "25% of $1,538.00");
  assert.equal(deposit!.method, "sandbox");
  assert.match(deposit!.reference, /^SBX-[0-9A-F]{12}$/);
  assert.equal(deposit!.payment_id, null, "waiting for the invoice");

  // Convert, then "Create invoice" on the job: the deposit is the invoice's first payment, and
  // sending it makes it part paid.
  const actor = { tenantId: s.tenant.id, userId: s.tenant.users.office.id, role: "office" as const };
  const { jobId } = await convertQuote(actor, q.id);
  const made = await createInvoiceFromJob(actor, jobId);
  await sendInvoice(actor, made.id);
  const fromJob = await one<{ status: string; amount_paid_cents: string; total_cents: string }>(
    `SELECT status, amount_paid_cents, total_cents FROM invoices WHERE tenant_id = $1 AND id = $2`,
    [s.tenant.id, made.id],
  );
  assert.deepEqual(
    [fromJob!.status, Number(fromJob!.amount_paid_cents), Number(fromJob!.total_cents)],
    ["partial", 38_450, 153_800],
  );
  const madePayments = await rows<{ reference: string; amount_cents: string }>(
    `SELECT reference, amount_cents FROM payments WHERE tenant_id = $1 AND invoice_id = $2`,
    [s.tenant.id, made.id],
  );
  assert.deepEqual(
    madePayments.map((p) => [p.reference, Number(p.amount_cents)]),
    [[deposit!.reference, 38_450]],
  );
  const invoicePage = pageText(
    await (await (await clientFor(s.tenant.users.office)).get(`/invoices/${made.id}`)).text(),
  );
  assert.match(invoicePage, /\$384\.50/);
  assert.match(invoicePage, new RegExp(deposit!.reference));

  // applyQuoteDeposit on its own: once only (the deposit above is already applied, so another
  // quote's deposit is used here).
  const q2 = await quoteWithOptions(s.tenant.id, s.customer.id, { depositCents: 10_000 });
  assert.equal((await post(s, approve(q2.id, "Good", []))).status, 303);
  const invoice = await createInvoice(s.tenant.id, {
    customerId: s.customer.id,
    items: [{ description: "Work as quoted", unitPriceCents: 153_800 }],
  });
  await rows(`UPDATE invoices SET quote_id = $3 WHERE tenant_id = $1 AND id = $2`, [s.tenant.id, invoice.id, q2.id]);
  const by = { tenantId: s.tenant.id, userId: s.tenant.users.office.id };
  assert.equal(await inTenant(s.tenant.id, (t) => applyQuoteDeposit(t, by, invoice.id)), 10_000);
  assert.equal(await inTenant(s.tenant.id, (t) => applyQuoteDeposit(t, by, invoice.id)), 0, "applied once");
  const inv = await one<{ status: string; amount_paid_cents: string }>(
    `SELECT status, amount_paid_cents FROM invoices WHERE tenant_id = $1 AND id = $2`,
    [s.tenant.id, invoice.id],
  );
  assert.deepEqual(
    { ...inv, amount_paid_cents: Number(inv!.amount_paid_cents) },
    { status: "partial", amount_paid_cents: 10_000 },
  );
  const payments = await rows<{ method: string; amount_cents: string }>(
    `SELECT method, amount_cents FROM payments WHERE tenant_id = $1 AND invoice_id = $2`,
    [s.tenant.id, invoice.id],
  );
  assert.deepEqual(
    payments.map((p) => [p.method, Number(p.amount_cents)]),
    [["sandbox", 10_000]],
  );

  // The quote's PDF says what was chosen, and the deposit.
  const pdf = await officePdf(s.tenant.users.office, q.id);
  assert.match(pdf, /New 50 gal standard water heater \(option Better, chosen\)/);
  assert.doesNotMatch(pdf, /Tankless water heater/, "an option not chosen is left out");
  assert.match(pdf, /Extended 5-year warranty \(optional, chosen\)/);
  assert.match(pdf, /Total \$1,538\.00/);
  assert.match(pdf, /Deposit of \$384\.50 paid with the approval \(sandbox, reference SBX-/);

  // The portal shows the deposit paid; the office's page too.
  const hub = pageText((await portalRequest("GET", s.url, { ip: randomLoopback() })).text);
  assert.match(hub, /Deposit paid: \$384\.50 \(sandbox, reference SBX-/);
  const office = await clientFor(s.tenant.users.office);
  const page = pageText(await (await office.get(`/quotes/${q.id}`)).text());
  assert.match(page, /Deposit on approval 25% of the chosen total/);
  assert.match(page, /Deposit paid \$384\.50/);
});

/** The quote's PDF as the office downloads it, as text (read back with PDF.js). */
async function officePdf(user: Parameters<typeof clientFor>[0], quoteId: string) {
  const res = await (await clientFor(user)).get(`/quotes/${quoteId}.pdf`);
  assert.equal(res.headers.get("content-type"), "application/pdf");
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await res.arrayBuffer())), {
    mergePages: true,
  });
  return text.replace(/\s+/g, " ");
}

test("a change request (<= 2,000 characters) is kept, in the quote's history and on the dashboard; the quote stays sent; an approved quote answers 409", async () => {
  const s = await portalSetup();
  const q = await createQuote(s.tenant.id, { customerId: s.customer.id });
  const tooLong = await post(s, [
    ["quoteId", q.id],
    ["decision", "changes"],
    ["message", "x".repeat(2001)],
  ]);
  assert.equal(tooLong.status, 422);
  assert.match(fieldError(tooLong.text, `changes-${q.id}`) ?? "", /under 2,000 characters/);
  const empty = await post(s, [
    ["quoteId", q.id],
    ["decision", "changes"],
    ["message", "  "],
  ]);
  assert.equal(empty.status, 422);
  assert.equal((await tenantCounts(s.tenant.id, ["quote_change_requests"])).quote_change_requests, 0);

  const message = "Could you quote the 75 gallon model instead, and install it on a Saturday?";
  const ok = await post(s, [
    ["quoteId", q.id],
    ["decision", "changes"],
    ["message", message],
  ]);
  assert.equal(ok.status, 303);
  assert.match(String(ok.headers.location), /done=quote-changes-requested/);
  assert.equal(
    (await one<{ status: string }>(`SELECT status FROM quotes WHERE tenant_id = $1 AND id = $2`, [s.tenant.id, q.id]))!
      .status,
    "sent",
  );
  const hub = pageText((await portalRequest("GET", s.url, { ip: randomLoopback() })).text);
  assert.match(hub, /You asked for changes on .*75 gallon model/);

  const office = await clientFor(s.tenant.users.office);
  const quotePage = pageText(await (await office.get(`/quotes/${q.id}`)).text());
  assert.match(quotePage, /Changes requested in the portal: “Could you quote the 75 gallon model instead/);
  assert.match(quotePage, /by Jamie Rivera/);
  const dashboard = pageText(await (await office.get(`/`)).text());
  assert.match(dashboard, /Changes asked on quotes/);
  assert.match(dashboard, new RegExp(`Quote ${q.number} · Jamie Rivera`));
  assert.match(dashboard, /75 gallon model instead/);

  assert.equal((await post(s, approve(q.id, null, []))).status, 303);
  const late = await post(s, [
    ["quoteId", q.id],
    ["decision", "changes"],
    ["message", "One more thing"],
  ]);
  assert.equal(late.status, 409);
  assert.equal((await tenantCounts(s.tenant.id, ["quote_change_requests"])).quote_change_requests, 1);
  assert.doesNotMatch(
    pageText(await (await office.get(`/`)).text()),
    /75 gallon model instead/,
    "an answered request leaves the dashboard",
  );
});

describe("races", () => {
  test("two approvals at once with different options: one wins (303) and its choice is recorded exactly; the other is 409", async () => {
    const s = await portalSetup();
    const q = await quoteWithOptions(s.tenant.id, s.customer.id, { depositCents: 10_000 });
    const ip = randomLoopback();
    const choices: Array<[string, string[]]> = [
      ["Better", [q.ids.warranty]],
      ["Best", [q.ids.descale, q.ids.haul]],
    ];
    const results = await raceOnRow("quotes", s.tenant.id, q.id, 2, () =>
      choices.map(([option, items], i) => post(s, approve(q.id, option, items, `Signer ${i}`), { ip })),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [303, 409]);
    const winner = results.findIndex((r) => r.status === 303);
    assert.match(pageText(results[1 - winner].text), /already approved by Signer/);
    const r = await recordedChoice(s.tenant.id, q.id);
    assert.equal(r.approved_name, `Signer ${winner}`);
    assert.equal(r.chosen_option, choices[winner][0]);
    const expected =
      winner === 0
        ? BETTER_WITH_WARRANTY
        : { call: true, good: false, better: false, best: true, warranty: false, haul: true, descale: true };
    assert.deepEqual(r.selected, expected);
    assert.equal(r.total_cents, winner === 0 ? 153_800 : 8_900 + 240_000 + 8_000 + 6_000);
    const deposits = await rows(`SELECT 1 FROM quote_deposits WHERE tenant_id = $1 AND quote_id = $2`, [
      s.tenant.id,
      q.id,
    ]);
    assert.equal(deposits.length, 1, "one deposit");
  });
});
