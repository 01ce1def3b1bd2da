import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { one, rows } from "../../db/index";
import { revokePortalLink } from "../../app/services/portal/links.server";
import {
  createCustomer,
  createInvoice,
  createJob,
  createQuote,
  createUser,
  tenantCounts,
  twoTenants,
} from "../helpers/fixtures";
import { clientFor } from "../helpers/client";
import { startServer, type RunningServer } from "../helpers/server";
import {
  fieldError,
  pageText,
  paymentKeyOf,
  portalRequest,
  portalSetup,
  raceOnRow,
  randomLoopback,
  type PortalResponse,
} from "../helpers/portal";

const TABLES = ["quotes", "invoices", "payments", "booking_requests", "portal_links"];
const yesterday = () => new Date(Date.now() - 86400_000).toISOString().slice(0, 10);
const daysFromNow = (n: number) => new Date(Date.now() + n * 86400_000).toISOString().slice(0, 10);
const key = () => `k${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`.padEnd(24, "x");

function assertPortalHeaders(res: PortalResponse, what: string) {
  assert.equal(res.headers["referrer-policy"], "no-referrer", `${what}: Referrer-Policy`);
  assert.equal(res.headers["cache-control"], "no-store", `${what}: Cache-Control`);
  assert.equal(res.headers["x-robots-tag"], "noindex", `${what}: X-Robots-Tag`);
}

function assertHtml(res: PortalResponse, what: string) {
  assert.match(String(res.headers["content-type"]), /text\/html/, `${what}: an HTML page, not the JSON envelope`);
  assert.doesNotMatch(res.text, /"success":\s*false/, `${what}: no envelope`);
}

const quoteStatus = async (tenantId: string, id: string) =>
  (await one<{ status: string }>(`SELECT status FROM quotes WHERE tenant_id = $1 AND id = $2`, [tenantId, id]))!.status;

test("the hub shows the business, the customer's sent quotes with items and totals, open invoices with balance and due date, and the booking form", async () => {
  const s = await portalSetup({ businessName: "Northside Heating and Air", customerName: "Jamie Rivera" });
  const other = await createCustomer(s.tenant.id, { name: "Someone Else" });
  const sent = await createQuote(s.tenant.id, { customerId: s.customer.id, number: `Q-SENT-${key()}` });
  const draft = await createQuote(s.tenant.id, {
    customerId: s.customer.id,
    status: "draft",
    number: `Q-DRAFT-${key()}`,
  });
  const othersQuote = await createQuote(s.tenant.id, { customerId: other.id, number: `Q-OTHER-${key()}` });
  const due = daysFromNow(14);
  const open = await createInvoice(s.tenant.id, {
    customerId: s.customer.id,
    number: `INV-OPEN-${key()}`,
    dueDate: due,
    amountPaidCents: 44_463,
  });
  const draftInvoice = await createInvoice(s.tenant.id, {
    customerId: s.customer.id,
    status: "draft",
    number: `INV-DRAFT-${key()}`,
  });
  const voidInvoice = await createInvoice(s.tenant.id, {
    customerId: s.customer.id,
    status: "void",
    number: `INV-VOID-${key()}`,
  });

  const res = await portalRequest("GET", s.url, { ip: randomLoopback() });
  assert.equal(res.status, 200);
  assertPortalHeaders(res, "hub");
  assertHtml(res, "hub");
  const text = pageText(res.text);
  assert.match(text, /Northside Heating and Air/);
  assert.match(text, /Jamie Rivera/);
  // The sent quote, its line items and its totals ($1,825.00 + $119.63 tax = $1,944.63).
  assert.match(text, new RegExp(`Quote ${sent.number}`));
  assert.match(text, /50 gal gas water heater/);
  assert.match(text, /3 × \$125\.00/);
  assert.match(text, /Subtotal \$1,825\.00 Tax [\d.]+% \$119\.63 Total \$1,944\.63/);
  assert.match(text, /Approve and sign/);
  // The open invoice with its balance and due date; the sandbox is said plainly.
  assert.match(text, new RegExp(`Invoice ${open.number}`));
  assert.match(text, /Balance due \$1,500\.00/);
  const dueLabel = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(`${due}T00:00:00Z`),
  );
  assert.match(text, new RegExp(`Due ${dueLabel}`));
  assert.match(text, /Sandbox payment: no money moves/);
  // The booking form and its fields.
  for (const name of ["service", "description", "preferredDate", "timeWindow", "address", "phone"]) {
    assert.match(res.text, new RegExp(`name="${name}"`), `booking field ${name}`);
  }
  // The form posts to its route; the token in the query and the anchor let a refused post open
  // at the form, and a later GET of that address go back to the portal page.
  assert.match(res.text, /action="\/api\/portal\/booking-request\?token=[^"#]+#booking-answer"/);
  // Drafts and other customers' records are not on this customer's page. A void invoice stays,
  // under "Past" (issue 20), saying nothing is owed.
  for (const hidden of [draft.number, othersQuote.number, draftInvoice.number]) {
    assert.ok(!text.includes(hidden), `${hidden} is not shown`);
  }
  const past = text.slice(text.indexOf("Past "));
  assert.ok(
    text.indexOf("Past ") > text.indexOf(`Invoice ${open.number}`),
    "the Past section comes after the open invoices",
  );
  assert.match(past, new RegExp(`Invoice ${voidInvoice.number} Cancelled`));
  assert.match(past, /This invoice was cancelled. Nothing is owed on it./);
  assert.ok(!text.includes("Someone Else"));
});

test("a quote or invoice id of another customer or another tenant behaves as unknown and changes nothing", async () => {
  const { a, b } = await twoTenants();
  const s = await portalSetup({ tenant: a });
  const sameTenantOther = await createCustomer(a.id);
  const otherTenantCustomer = await createCustomer(b.id);
  const q1 = await createQuote(a.id, { customerId: sameTenantOther.id });
  const q2 = await createQuote(b.id, { customerId: otherTenantCustomer.id });
  const i1 = await createInvoice(a.id, { customerId: sameTenantOther.id });
  const i2 = await createInvoice(b.id, { customerId: otherTenantCustomer.id });
  const before = [await tenantCounts(a.id, TABLES), await tenantCounts(b.id, TABLES)];
  const ip = randomLoopback();

  const approve = (quoteId: string) =>
    portalRequest("POST", "/api/portal/quote", {
      ip,
      form: { token: s.token, quoteId, decision: "approve", signatureName: "Mallory", acceptTerms: "yes" },
    });
  const pay = (invoiceId: string) =>
    portalRequest("POST", "/api/portal/invoice-payment", {
      ip,
      form: { token: s.token, invoiceId, amount: "10.00", idempotencyKey: key() },
    });

  const unknownQuote = await approve("00000000-0000-4000-8000-000000000000");
  assert.equal(unknownQuote.status, 422);
  assertPortalHeaders(unknownQuote, "unknown quote");
  assertHtml(unknownQuote, "unknown quote");
  const unknownQuoteMessage = pageText(unknownQuote.text).match(/This quote is not available on your page[^.]*\./)?.[0];
  assert.ok(unknownQuoteMessage, "the page says the quote is not available");
  for (const id of [q1.id, q2.id, "not-a-uuid"]) {
    const res = await approve(id);
    assert.equal(res.status, 422, `quote ${id}`);
    assert.ok(pageText(res.text).includes(unknownQuoteMessage!), `quote ${id} answers like an unknown one`);
  }
  const unknownInvoice = await pay("00000000-0000-4000-8000-000000000000");
  assert.equal(unknownInvoice.status, 422);
  for (const id of [i1.id, i2.id]) {
    const res = await pay(id);
    assert.equal(res.status, 422, `invoice ${id}`);
    assert.match(pageText(res.text), /This invoice is not available on your page/);
  }
  assert.deepEqual([await tenantCounts(a.id, TABLES), await tenantCounts(b.id, TABLES)], before);
  assert.equal(await quoteStatus(a.id, q1.id), "sent");
  assert.equal(await quoteStatus(b.id, q2.id), "sent");
  const paid = await rows(
    `SELECT amount_paid_cents FROM invoices WHERE id = ANY($1::uuid[]) AND amount_paid_cents > 0`,
    [[i1.id, i2.id]],
  );
  assert.equal(paid.length, 0);
});

test("an approval states the total it accepts: another total than the choice's is 422 beside the box, nothing approved", async () => {
  const s = await portalSetup();
  const q = await createQuote(s.tenant.id, { customerId: s.customer.id });
  const total = Number(
    (await one<{ total_cents: string }>(`SELECT total_cents FROM quotes WHERE id = $1`, [q.id]))!.total_cents,
  );
  const ip = randomLoopback();
  const post = (acceptedTotalCents: string) =>
    portalRequest("POST", "/api/portal/quote", {
      ip,
      form: {
        token: s.token,
        quoteId: q.id,
        decision: "approve",
        signatureName: "Jamie Rivera",
        acceptTerms: "yes",
        acceptedTotalCents,
      },
    });
  const other = await post(String(total - 100));
  assert.equal(other.status, 422);
  assert.match(
    fieldError(other.text, `terms-${q.id}`) ?? "",
    /With your choice the total is .*Check it and tick the box again/,
  );
  assert.equal(await quoteStatus(s.tenant.id, q.id), "sent");
  assert.equal((await post("12x")).status, 422, "a total that is not a number of cents is a stale form");
  assert.equal(await quoteStatus(s.tenant.id, q.id), "sent");
  const same = await post(String(total));
  assert.equal(same.status, 303);
  assert.equal(await quoteStatus(s.tenant.id, q.id), "approved");
});

test("approve needs signatureName and acceptTerms; a sent quote is approved once with name, time, IP and user agent; a second approve is 409", async () => {
  const s = await portalSetup();
  const q = await createQuote(s.tenant.id, { customerId: s.customer.id });
  const ip = randomLoopback();
  const post = (form: Record<string, string>, ua = "PortalTest/1.0") =>
    portalRequest("POST", "/api/portal/quote", {
      ip,
      form: { token: s.token, quoteId: q.id, decision: "approve", ...form },
      headers: { "user-agent": ua },
    });

  const noName = await post({ acceptTerms: "yes" });
  assert.equal(noName.status, 422);
  assertPortalHeaders(noName, "422");
  assert.match(fieldError(noName.text, `signature-${q.id}`) ?? "", /Type your full name/);
  const noTerms = await post({ signatureName: "Jamie Rivera" });
  assert.equal(noTerms.status, 422);
  assert.match(fieldError(noTerms.text, `terms-${q.id}`) ?? "", /Tick the box/);
  assert.match(noTerms.text, /value="Jamie Rivera"/, "what was typed is kept");
  const tooLong = await post({ signatureName: "x".repeat(101), acceptTerms: "yes" });
  assert.equal(tooLong.status, 422);
  assert.equal(await quoteStatus(s.tenant.id, q.id), "sent");

  const ok = await post({ signatureName: "Jamie Rivera", acceptTerms: "yes" }, "Mozilla/5.0 (iPhone) PortalTest");
  assert.equal(ok.status, 303);
  assertPortalHeaders(ok, "303");
  assert.equal(ok.headers.location, `/portal/${s.token}?done=quote-approved&id=${q.id}`);
  const row = await one<{
    status: string;
    approved_name: string;
    approved_ip: string;
    approved_user_agent: string;
    approved_at: Date;
  }>(
    `SELECT status, approved_name, approved_ip, approved_user_agent, approved_at FROM quotes WHERE tenant_id = $1 AND id = $2`,
    [s.tenant.id, q.id],
  );
  assert.equal(row?.status, "approved");
  assert.equal(row?.approved_name, "Jamie Rivera");
  assert.equal(row?.approved_ip, ip);
  assert.equal(row?.approved_user_agent, "Mozilla/5.0 (iPhone) PortalTest");
  assert.ok(Math.abs(row!.approved_at.getTime() - Date.now()) < 60_000);

  const hub = await portalRequest("GET", ok.headers.location!, { ip });
  assert.match(pageText(hub.text), /Thank you! Quote .* is approved/);
  assert.match(pageText(hub.text), /Approved by Jamie Rivera on/);

  // Staff see who approved, when and from where.
  const staff = pageText(await (await (await clientFor(s.tenant.users.office)).get(`/quotes/${q.id}`)).text());
  assert.match(staff, /Approved by Jamie Rivera/);
  assert.ok(staff.includes(`From IP address ${ip}`), "the quote page shows the IP");

  const again = await post({ signatureName: "Someone Else", acceptTerms: "yes" });
  assert.equal(again.status, 409);
  assertHtml(again, "409");
  assert.match(pageText(again.text), /This quote was already approved by Jamie Rivera/);
  const after = await one<{ approved_name: string }>(
    `SELECT approved_name FROM quotes WHERE tenant_id = $1 AND id = $2`,
    [s.tenant.id, q.id],
  );
  assert.equal(after?.approved_name, "Jamie Rivera");
});

test("decline stores the reason (at most 1000 characters); a declined quote cannot then be approved", async () => {
  const s = await portalSetup();
  const q = await createQuote(s.tenant.id, { customerId: s.customer.id });
  const ip = randomLoopback();
  const long = await portalRequest("POST", "/api/portal/quote", {
    ip,
    form: { token: s.token, quoteId: q.id, decision: "decline", reason: "x".repeat(1001) },
  });
  assert.equal(long.status, 422);
  assert.match(fieldError(long.text, `reason-${q.id}`) ?? "", /under 1,000 characters/);
  assert.equal(await quoteStatus(s.tenant.id, q.id), "sent");

  const res = await portalRequest("POST", "/api/portal/quote", {
    ip,
    form: { token: s.token, quoteId: q.id, decision: "decline", reason: "We went with a tankless unit." },
  });
  assert.equal(res.status, 303);
  assert.match(res.headers.location!, /done=quote-declined/);
  const row = await one<{ status: string; decline_reason: string; declined_at: Date | null }>(
    `SELECT status, decline_reason, declined_at FROM quotes WHERE tenant_id = $1 AND id = $2`,
    [s.tenant.id, q.id],
  );
  assert.equal(row?.status, "declined");
  assert.equal(row?.decline_reason, "We went with a tankless unit.");
  assert.ok(row?.declined_at);
  const staff = pageText(await (await (await clientFor(s.tenant.users.office)).get(`/quotes/${q.id}`)).text());
  assert.match(staff, /Reason: “ ?We went with a tankless unit\. ?”/);
  const approve = await portalRequest("POST", "/api/portal/quote", {
    ip,
    form: { token: s.token, quoteId: q.id, decision: "approve", signatureName: "J", acceptTerms: "yes" },
  });
  assert.equal(approve.status, 409);
  assert.equal(await quoteStatus(s.tenant.id, q.id), "declined");
});

test("a draft or expired quote cannot be approved or declined (409, nothing changed)", async () => {
  const s = await portalSetup();
  const draft = await createQuote(s.tenant.id, { customerId: s.customer.id, status: "draft" });
  const expired = await createQuote(s.tenant.id, { customerId: s.customer.id, validUntil: yesterday() });
  const ip = randomLoopback();
  for (const [q, status] of [
    [draft, "draft"],
    [expired, "sent"],
  ] as const) {
    for (const decision of ["approve", "decline"]) {
      const res = await portalRequest("POST", "/api/portal/quote", {
        ip,
        form: { token: s.token, quoteId: q.id, decision, signatureName: "Jamie", acceptTerms: "yes" },
      });
      assert.equal(res.status, 409, `${status} quote, ${decision}`);
      assert.equal(await quoteStatus(s.tenant.id, q.id), status);
    }
  }
  const hub = await portalRequest("GET", s.url, { ip });
  assert.match(pageText(hub.text), /This quote has expired/);
});

test("payment amounts: zero, negative, non-numeric or over the balance are 422 beside the field and record nothing", async () => {
  const s = await portalSetup();
  const inv = await createInvoice(s.tenant.id, { customerId: s.customer.id });
  const ip = randomLoopback();
  const cases: Array<[string, RegExp]> = [
    ["0", /greater than zero/],
    ["-5", /greater than zero/],
    ["abc", /in numbers/],
    ["", /Enter the amount/],
    ["10.005", /two decimal places/],
    ["1944.64", /The balance is \$1,944\.63/],
  ];
  for (const [amount, message] of cases) {
    const res = await portalRequest("POST", "/api/portal/invoice-payment", {
      ip,
      form: { token: s.token, invoiceId: inv.id, amount, idempotencyKey: key() },
    });
    assert.equal(res.status, 422, `amount ${JSON.stringify(amount)}`);
    assertPortalHeaders(res, "422");
    assert.match(fieldError(res.text, `amount-${inv.id}`) ?? "", message, `amount ${JSON.stringify(amount)}`);
  }
  const missingKey = await portalRequest("POST", "/api/portal/invoice-payment", {
    ip,
    form: { token: s.token, invoiceId: inv.id, amount: "5" },
  });
  assert.equal(missingKey.status, 422);
  assert.match(pageText(missingKey.text), /Reload the page/);
  assert.equal((await tenantCounts(s.tenant.id, ["payments"])).payments, 0);
  const row = await one<{ status: string; amount_paid_cents: number }>(
    `SELECT status, amount_paid_cents FROM invoices WHERE tenant_id = $1 AND id = $2`,
    [s.tenant.id, inv.id],
  );
  assert.deepEqual(row, { status: "sent", amount_paid_cents: 0 });
});

test("a partial sandbox payment makes the invoice partial, the rest makes it paid; the same idempotencyKey twice records one payment", async () => {
  const s = await portalSetup();
  const inv = await createInvoice(s.tenant.id, { customerId: s.customer.id });
  const ip = randomLoopback();
  const hub = await portalRequest("GET", s.url, { ip });
  const pageKey = paymentKeyOf(hub.text, inv.id);

  const first = await portalRequest("POST", "/api/portal/invoice-payment", {
    ip,
    form: { token: s.token, invoiceId: inv.id, amount: "500", idempotencyKey: pageKey },
  });
  assert.equal(first.status, 303);
  assertPortalHeaders(first, "303");
  assert.equal(first.headers.location, `/portal/${s.token}?done=payment-recorded&id=${inv.id}`);
  const repeat = await portalRequest("POST", "/api/portal/invoice-payment", {
    ip,
    form: { token: s.token, invoiceId: inv.id, amount: "500", idempotencyKey: pageKey },
  });
  assert.equal(repeat.status, 303, "the repeat lands on the same confirmation");
  let row = await one<{ status: string; amount_paid_cents: number; paid_at: Date | null }>(
    `SELECT status, amount_paid_cents, paid_at FROM invoices WHERE tenant_id = $1 AND id = $2`,
    [s.tenant.id, inv.id],
  );
  assert.deepEqual(row, { status: "partial", amount_paid_cents: 50_000, paid_at: null });
  const payments = await rows<{
    amount_cents: number;
    method: string;
    reference: string;
    currency: string;
    payer_ip: string;
  }>(
    `SELECT amount_cents, method, reference, currency, payer_ip FROM payments WHERE tenant_id = $1 AND invoice_id = $2`,
    [s.tenant.id, inv.id],
  );
  assert.equal(payments.length, 1, "one payment for one key");
  assert.equal(payments[0].amount_cents, 50_000);
  assert.equal(payments[0].method, "sandbox");
  assert.match(payments[0].reference, /^SBX-[0-9A-F]{12}$/);
  assert.equal(payments[0].currency, "USD");
  assert.equal(payments[0].payer_ip, ip);

  const invoicePage = pageText(
    await (await (await clientFor(s.tenant.users.office)).get(`/invoices/${inv.id}`)).text(),
  );
  assert.ok(invoicePage.includes(payments[0].reference), "the invoice page lists the payment");
  assert.match(invoicePage, /Portal sandbox/);

  const after = await portalRequest("GET", first.headers.location!, { ip });
  const text = pageText(after.text);
  assert.match(text, /Sandbox payment recorded on invoice .*Balance still due: \$1,444\.63\. No money moved\./);
  assert.ok(text.includes(payments[0].reference), "the payment is listed with its reference");
  const rest = await portalRequest("POST", "/api/portal/invoice-payment", {
    ip,
    form: { token: s.token, invoiceId: inv.id, amount: "1,444.63", idempotencyKey: paymentKeyOf(after.text, inv.id) },
  });
  assert.equal(rest.status, 303);
  row = await one(`SELECT status, amount_paid_cents, paid_at FROM invoices WHERE tenant_id = $1 AND id = $2`, [
    s.tenant.id,
    inv.id,
  ]);
  assert.equal(row?.status, "paid");
  assert.equal(row?.amount_paid_cents, inv.totalCents);
  assert.ok(row?.paid_at);
  const done = pageText((await portalRequest("GET", rest.headers.location!, { ip })).text);
  assert.match(done, /is paid in full/);
  const more = await portalRequest("POST", "/api/portal/invoice-payment", {
    ip,
    form: { token: s.token, invoiceId: inv.id, amount: "1", idempotencyKey: key() },
  });
  assert.equal(more.status, 409, "a paid invoice takes no more payments");
  assert.equal((await tenantCounts(s.tenant.id, ["payments"])).payments, 2);
});

// Ten requests in flight at once, each holding a database connection while it waits on the
// row lock: they get their own server with a larger pool, so the shared server's other tests
// never wait for a connection meanwhile.
describe("races", () => {
  let races: RunningServer;
  before(async () => {
    races = await startServer({ DB_POOL_MAX: "30" });
  });
  after(async () => {
    await races?.stop();
  });

  test("ten approvals of one quote at once record one approval; the others answer 409", async () => {
    const s = await portalSetup();
    const q = await createQuote(s.tenant.id, { customerId: s.customer.id });
    const ip = randomLoopback();
    const results = await raceOnRow("quotes", s.tenant.id, q.id, 10, () =>
      Array.from({ length: 10 }, (_, i) =>
        portalRequest("POST", "/api/portal/quote", {
          base: races.url,
          ip,
          form: { token: s.token, quoteId: q.id, decision: "approve", signatureName: `Signer ${i}`, acceptTerms: "on" },
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [303, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const row = await one<{ status: string; approved_name: string }>(
      `SELECT status, approved_name FROM quotes WHERE tenant_id = $1 AND id = $2`,
      [s.tenant.id, q.id],
    );
    assert.equal(row?.status, "approved");
    const winner = results.findIndex((r) => r.status === 303);
    assert.equal(row?.approved_name, `Signer ${winner}`);
  });

  test("concurrent payments (ten posts in flight at once): ten with one key record one payment; ten posts of the full balance with different keys record one", async () => {
    const s = await portalSetup();
    const ip = randomLoopback();
    const a = await createInvoice(s.tenant.id, { customerId: s.customer.id });
    const sameKey = key();
    const same = await raceOnRow("invoices", s.tenant.id, a.id, 10, () =>
      Array.from({ length: 10 }, () =>
        portalRequest("POST", "/api/portal/invoice-payment", {
          base: races.url,
          ip,
          form: { token: s.token, invoiceId: a.id, amount: "100", idempotencyKey: sameKey },
        }),
      ),
    );
    assert.deepEqual(
      same.map((r) => r.status),
      Array(10).fill(303),
    );
    const aPayments = await rows(`SELECT 1 FROM payments WHERE tenant_id = $1 AND invoice_id = $2`, [
      s.tenant.id,
      a.id,
    ]);
    assert.equal(aPayments.length, 1);
    assert.equal(
      (
        await one<{ amount_paid_cents: number }>(
          `SELECT amount_paid_cents FROM invoices WHERE tenant_id = $1 AND id = $2`,
          [s.tenant.id, a.id],
        )
      )?.amount_paid_cents,
      10_000,
    );

    const b = await createInvoice(s.tenant.id, { customerId: s.customer.id });
    const tabs = await raceOnRow("invoices", s.tenant.id, b.id, 10, () =>
      Array.from({ length: 10 }, () =>
        portalRequest("POST", "/api/portal/invoice-payment", {
          base: races.url,
          ip,
          form: { token: s.token, invoiceId: b.id, amount: (b.totalCents / 100).toFixed(2), idempotencyKey: key() },
        }),
      ),
    );
    assert.deepEqual(tabs.map((r) => r.status).sort(), [303, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const bPayments = await rows(`SELECT 1 FROM payments WHERE tenant_id = $1 AND invoice_id = $2`, [
      s.tenant.id,
      b.id,
    ]);
    assert.equal(bPayments.length, 1);
    const row = await one<{ status: string; amount_paid_cents: number }>(
      `SELECT status, amount_paid_cents FROM invoices WHERE tenant_id = $1 AND id = $2`,
      [s.tenant.id, b.id],
    );
    assert.deepEqual(row, { status: "paid", amount_paid_cents: b.totalCents });
  });
});

test("booking request: service required, preferredDate within today..+365 days, timeWindow from the list; a good one is stored as new, once per form", async () => {
  const s = await portalSetup();
  const ip = randomLoopback();
  const post = (form: Record<string, string>) =>
    portalRequest("POST", "/api/portal/booking-request", { ip, form: { token: s.token, ...form } });
  const bad: Array<[Record<string, string>, string, RegExp]> = [
    [{ service: "" }, "book-service", /Tell us what you need/],
    [{ service: "x".repeat(201) }, "book-service", /under 200 characters/],
    [{ service: "Tune-up", preferredDate: yesterday() }, "book-date", /between today and one year from now/],
    [{ service: "Tune-up", preferredDate: daysFromNow(367) }, "book-date", /between today and one year from now/],
    [{ service: "Tune-up", preferredDate: "2026-02-30" }, "book-date", /Pick a date/],
    [{ service: "Tune-up", timeWindow: "night" }, "book-window", /Choose a time of day/],
    [{ service: "Tune-up", description: "x".repeat(2001) }, "book-description", /under 2,000 characters/],
  ];
  for (const [form, field, message] of bad) {
    const res = await post(form);
    assert.equal(res.status, 422, JSON.stringify(form).slice(0, 80));
    assertHtml(res, "booking 422");
    assert.match(fieldError(res.text, field) ?? "", message, JSON.stringify(form).slice(0, 80));
  }
  assert.equal((await tenantCounts(s.tenant.id, ["booking_requests"])).booking_requests, 0);

  const formKey = key();
  const good = {
    service: "Annual furnace service",
    description: "Furnace makes a rattling noise at start-up.",
    preferredDate: daysFromNow(7),
    timeWindow: "morning",
    address: "12 Elm Street, Springfield",
    phone: "+1 (555) 010-0200",
    idempotencyKey: formKey,
  };
  const res = await post(good);
  assert.equal(res.status, 303);
  assert.match(res.headers.location!, new RegExp(`^/portal/${s.token.replace(/\./g, "\\.")}\\?done=booking-sent`));
  assert.equal((await post(good)).status, 303, "the same form sent twice");
  const stored = await rows<Record<string, unknown>>(
    `SELECT status, service, description, preferred_date::text AS preferred_date, time_window, address, phone, customer_id, portal_link_id
       FROM booking_requests WHERE tenant_id = $1`,
    [s.tenant.id],
  );
  assert.equal(stored.length, 1, "one request for one form");
  assert.deepEqual(stored[0], {
    status: "new",
    service: good.service,
    description: good.description,
    preferred_date: good.preferredDate,
    time_window: "morning",
    address: good.address,
    phone: good.phone,
    customer_id: s.customer.id,
    portal_link_id: s.linkId,
  });
  const requests = pageText(await (await (await clientFor(s.tenant.users.office)).get("/requests")).text());
  assert.match(requests, /Annual furnace service/);
  assert.match(requests, /New/);
  const hub = pageText((await portalRequest("GET", res.headers.location!, { ip })).text);
  assert.match(hub, /Your request was sent to/);
  assert.match(hub, /Your recent requests Annual furnace service/);
  // Today is bookable; only service is required.
  assert.equal(
    (await post({ service: "Leak check", preferredDate: new Date().toISOString().slice(0, 10) })).status,
    303,
  );
});

test("forged, tampered, expired and revoked tokens: 404 and 410 pages with the portal headers, on the hub and every form; nothing changes", async () => {
  const s = await portalSetup({ businessName: "Rapid Rooter" });
  const q = await createQuote(s.tenant.id, { customerId: s.customer.id });
  const inv = await createInvoice(s.tenant.id, { customerId: s.customer.id });
  const ip = randomLoopback();
  const [payload, signature] = s.token.split(".");
  const tampered = `${payload}.${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;
  const forged = `${Buffer.alloc(32, 7).toString("base64url")}.${"x".repeat(43)}`;

  const expiredLink = await portalSetup({ tenant: s.tenant });
  await rows(`UPDATE portal_links SET expires_at = now() - interval '1 minute' WHERE tenant_id = $1 AND id = $2`, [
    s.tenant.id,
    expiredLink.linkId,
  ]);
  const revokedLink = await portalSetup({ tenant: s.tenant });
  await revokePortalLink({ tenantId: s.tenant.id, userId: s.tenant.users.admin.id, role: "admin" }, revokedLink.linkId);
  // Their customers have records too: a bad link must not act on them.
  const q2 = await createQuote(s.tenant.id, { customerId: expiredLink.customer.id });
  const q3 = await createQuote(s.tenant.id, { customerId: revokedLink.customer.id });
  const before = await tenantCounts(s.tenant.id, TABLES);

  const cases: Array<[string, string, number, RegExp]> = [
    ["forged", forged, 404, /This link is no longer valid/],
    ["tampered", tampered, 404, /This link is no longer valid/],
    ["garbage", "not-a-token", 404, /This link is no longer valid/],
    ["expired", expiredLink.token, 410, /expired or was turned off\. Please ask Rapid Rooter to send you a new link/],
    ["revoked", revokedLink.token, 410, /expired or was turned off\. Please ask Rapid Rooter to send you a new link/],
  ];
  for (const [n, [name, token, status, message]] of cases.entries()) {
    const pages = [
      await portalRequest("GET", `/portal/${token}`, { ip }),
      await portalRequest("POST", "/api/portal/quote", {
        ip,
        form: { token, quoteId: [q, q2, q3][n % 3].id, decision: "approve", signatureName: "X", acceptTerms: "yes" },
      }),
      await portalRequest("POST", "/api/portal/invoice-payment", {
        ip,
        form: { token, invoiceId: inv.id, amount: "1", idempotencyKey: key() },
      }),
      await portalRequest("POST", "/api/portal/booking-request", { ip, form: { token, service: "Anything" } }),
    ];
    for (const [i, res] of pages.entries()) {
      const what = `${name} token, request ${i}`;
      assert.equal(res.status, status, what);
      assertPortalHeaders(res, what);
      assertHtml(res, what);
      assert.match(pageText(res.text), message, what);
    }
  }
  assert.deepEqual(await tenantCounts(s.tenant.id, TABLES), before);
  for (const id of [q.id, q2.id, q3.id]) assert.equal(await quoteStatus(s.tenant.id, id), "sent");
});

test("the 31st bad token from one IP within 10 minutes answers 429; a valid link from that IP still opens; other IPs are not affected", async () => {
  const s = await portalSetup();
  const expiredLink = await portalSetup({ tenant: s.tenant });
  await rows(`UPDATE portal_links SET expires_at = now() - interval '1 minute' WHERE tenant_id = $1 AND id = $2`, [
    s.tenant.id,
    expiredLink.linkId,
  ]);
  const ip = randomLoopback();
  for (let i = 1; i <= 30; i++) {
    const res = await portalRequest("GET", `/portal/bad-token-${i}`, { ip });
    assert.equal(res.status, 404, `bad token ${i}`);
  }
  const over = await portalRequest("GET", "/portal/bad-token-31", { ip });
  assert.equal(over.status, 429);
  assertPortalHeaders(over, "429");
  assertHtml(over, "429");
  assert.ok(Number(over.headers["retry-after"]) > 0, "Retry-After is set");
  assert.match(pageText(over.text), /Too many attempts/);
  // Bad tokens stay limited on every portal route, forged or a real link that expired.
  const [payload, signature] = s.token.split(".");
  const tampered = `${payload}.${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;
  assert.equal((await portalRequest("GET", `/portal/${tampered}`, { ip })).status, 429, "a tampered token");
  assert.equal((await portalRequest("GET", `/portal/${expiredLink.token}`, { ip })).status, 429, "an expired link");
  const badPost = await portalRequest("POST", "/api/portal/booking-request", {
    ip,
    form: { token: tampered, service: "x" },
  });
  assert.equal(badPost.status, 429);
  assert.equal((await tenantCounts(s.tenant.id, ["booking_requests"])).booking_requests, 0);

  // A valid token from the same (shared office) address opens the portal and its forms work.
  const good = await portalRequest("GET", s.url, { ip });
  assert.equal(good.status, 200, "a valid link opens from an address over the bad-token limit");
  assert.doesNotMatch(pageText(good.text), /Too many/);
  const post = await portalRequest("POST", "/api/portal/booking-request", {
    ip,
    form: { token: s.token, service: "Boiler check", idempotencyKey: key() },
  });
  assert.equal(post.status, 303);
  assert.equal((await tenantCounts(s.tenant.id, ["booking_requests"])).booking_requests, 1);
  // ...and the limit still holds for the next bad one.
  assert.equal((await portalRequest("GET", "/portal/bad-token-32", { ip })).status, 429);

  const elsewhere = await portalRequest("GET", s.url, { ip: randomLoopback() });
  assert.equal(elsewhere.status, 200);
  const counter = await one<{ points: number }>(`SELECT points FROM rate_limits WHERE key = $1`, [
    `portal_bad_token:${ip}`,
  ]);
  assert.ok(counter && counter.points >= 30, "the count lives in PostgreSQL");
});

test("the database holds no portal token: only the link row (ids, expiry, revoked flag)", async () => {
  const s = await portalSetup();
  const q = await createQuote(s.tenant.id, { customerId: s.customer.id });
  const inv = await createInvoice(s.tenant.id, { customerId: s.customer.id });
  const ip = randomLoopback();
  // Use the link for everything it can do, so anything it might store is stored.
  assert.equal((await portalRequest("GET", s.url, { ip })).status, 200);
  assert.equal(
    (
      await portalRequest("POST", "/api/portal/quote", {
        ip,
        form: { token: s.token, quoteId: q.id, decision: "approve", signatureName: "J R", acceptTerms: "yes" },
      })
    ).status,
    303,
  );
  assert.equal(
    (
      await portalRequest("POST", "/api/portal/invoice-payment", {
        ip,
        form: { token: s.token, invoiceId: inv.id, amount: "1", idempotencyKey: key() },
      })
    ).status,
    303,
  );
  assert.equal(
    (
      await portalRequest("POST", "/api/portal/booking-request", {
        ip,
        form: { token: s.token, service: "Check", idempotencyKey: key() },
      })
    ).status,
    303,
  );

  const signature = s.token.split(".")[1];
  const tables = await rows<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`);
  assert.ok(tables.length > 10);
  for (const { name } of tables) {
    const found = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${name}" x WHERE x::text LIKE '%' || $1 || '%'`,
      [signature],
    );
    assert.equal(found?.n, 0, `${name} holds no token`);
  }
  const link = await one<Record<string, unknown>>(`SELECT * FROM portal_links WHERE tenant_id = $1 AND id = $2`, [
    s.tenant.id,
    s.linkId,
  ]);
  assert.deepEqual(Object.keys(link!).sort(), [
    "created_at",
    "created_by",
    "customer_id",
    "expires_at",
    "id",
    "revoked_at",
    "revoked_by",
    "tenant_id",
  ]);
});

test("portal forms posted as browsers post them from the page (Origin: null under no-referrer) or from elsewhere are handled, not refused", async () => {
  const s = await portalSetup();
  const ip = randomLoopback();
  for (const origin of ["null", "https://elsewhere.example"]) {
    const q = await createQuote(s.tenant.id, { customerId: s.customer.id });
    const headers = {
      origin,
      "sec-fetch-site": origin === "null" ? "same-origin" : "cross-site",
      "sec-fetch-mode": "navigate",
      accept: "text/html",
    };
    const invalid = await portalRequest("POST", "/api/portal/quote", {
      ip,
      headers,
      form: { token: s.token, quoteId: q.id, decision: "approve" },
    });
    assert.equal(invalid.status, 422, `Origin: ${origin}`);
    const ok = await portalRequest("POST", "/api/portal/quote", {
      ip,
      headers,
      form: { token: s.token, quoteId: q.id, decision: "approve", signatureName: "J R", acceptTerms: "yes" },
    });
    assert.equal(ok.status, 303, `Origin: ${origin}`);
    assert.equal(await quoteStatus(s.tenant.id, q.id), "approved");
  }
});

test("GET on a portal form route is a 405 page (HTML with Allow: POST), not the JSON envelope", async () => {
  for (const path of ["/api/portal/quote", "/api/portal/invoice-payment", "/api/portal/booking-request"]) {
    const res = await portalRequest("GET", path, { ip: randomLoopback() });
    assert.equal(res.status, 405, path);
    assert.equal(res.headers.allow, "POST", path);
    assertPortalHeaders(res, path);
    assertHtml(res, path);
    assert.match(pageText(res.text), /only receives the forms of your portal page/);
  }
});

test("GET of a form's own address (with the token in the query) goes back to the portal page; a bad token there is the 405 page", async () => {
  const s = await portalSetup();
  for (const path of ["/api/portal/quote", "/api/portal/invoice-payment", "/api/portal/booking-request"]) {
    const res = await portalRequest("GET", `${path}?token=${s.token}`, { ip: randomLoopback() });
    assert.equal(res.status, 303, path);
    assert.equal(res.headers.location, `/portal/${s.token}`, path);
    assertPortalHeaders(res, path);
    // Nothing but a token is redirected to: a path or an address elsewhere is the 405 page.
    for (const token of ["//evil.example", "../settings", "a/b"]) {
      const odd = await portalRequest("GET", `${path}?${new URLSearchParams({ token })}`, { ip: randomLoopback() });
      assert.equal(odd.status, 405, `${path} ${token}`);
    }
  }
});

test("a portal form body over 1 MiB is refused with a 413 page and changes nothing", async () => {
  const s = await portalSetup();
  const res = await portalRequest("POST", "/api/portal/booking-request", {
    ip: randomLoopback(),
    body: new URLSearchParams({ token: s.token, service: "x", description: "y".repeat(1024 * 1024 + 10) }).toString(),
  });
  assert.equal(res.status, 413);
  assertPortalHeaders(res, "413");
  assertHtml(res, "413");
  assert.equal((await tenantCounts(s.tenant.id, ["booking_requests"])).booking_requests, 0);
});

test("booking request (issues 15, 24): the honeypot filled is 400 and stores nothing; U+0000 in a field is 422 beside it, nothing stored", async () => {
  const s = await portalSetup();
  const ip = randomLoopback();
  const post = (form: Record<string, string>) =>
    portalRequest("POST", "/api/portal/booking-request", {
      ip,
      form: { token: s.token, idempotencyKey: key(), ...form },
    });
  const hub = await portalRequest("GET", `/portal/${s.token}`, { ip });
  assert.match(hub.text, /name="name__confirm"/, "the booking form carries the honeypot");
  const spam = await post({ service: "Cheap pills", name__confirm: "http://spam.example" });
  assert.equal(spam.status, 400);
  const nul = await post({ service: "Furnace\u0000tune-up" });
  assert.equal(nul.status, 422);
  assert.match(fieldError(nul.text, "book-service") ?? "", /cannot be stored \(U\+0000\)/);
  assert.equal((await tenantCounts(s.tenant.id, ["booking_requests"])).booking_requests, 0);
  const person = await post({ service: "Furnace tune-up", name__confirm: "" });
  assert.equal(person.status, 303);
  assert.equal((await tenantCounts(s.tenant.id, ["booking_requests"])).booking_requests, 1);
});

test("the hub shows the customer's upcoming visits: date, time window with the zone, crew first names; not past, cancelled or another customer's", async () => {
  const s = await portalSetup({ customerName: "Vera Visit" });
  const zone = "America/Chicago";
  await rows(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [s.tenant.id, zone]);
  const other = await createCustomer(s.tenant.id, { name: "Someone Else" });
  const ann = await createUser(s.tenant.id, { role: "technician", name: "Annika Berg" });
  const ben = await createUser(s.tenant.id, { role: "technician", name: "Ben Okafor" });
  const start = new Date(Date.now() + 3 * 86_400_000);
  start.setUTCHours(15, 0, 0, 0);
  const job = await createJob(s.tenant.id, {
    customerId: s.customer.id,
    title: "Furnace maintenance",
    assigneeId: ann.id,
    scheduledStart: start,
  });
  const visit = (await one<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [
    s.tenant.id,
    job.id,
  ]))!;
  await rows(`INSERT INTO visit_assignees (tenant_id, visit_id, user_id) VALUES ($1, $2, $3)`, [
    s.tenant.id,
    visit.id,
    ben.id,
  ]);
  const add = async (title: string, customerId: string, at: Date, status = "scheduled") =>
    createJob(s.tenant.id, { customerId, title, scheduledStart: at, status });
  await add("Last week's repair", s.customer.id, new Date(Date.now() - 7 * 86_400_000), "completed");
  await add("Called-off visit", s.customer.id, new Date(Date.now() + 86_400_000), "cancelled");
  await add("Their own visit", other.id, new Date(Date.now() + 86_400_000));

  const res = await portalRequest("GET", s.url);
  assert.equal(res.status, 200);
  const text = pageText(res.text);
  assert.match(text, /Upcoming visits/);
  const day = new Intl.DateTimeFormat("en-US", {
    weekday: "long",
    month: "long",
    day: "numeric",
    timeZone: zone,
  }).format(start);
  const fmt = (d: Date, zoneName: boolean) =>
    new Intl.DateTimeFormat("en-US", {
      hour: "numeric",
      minute: "2-digit",
      timeZone: zone,
      ...(zoneName ? { timeZoneName: "short" as const } : {}),
    }).format(d);
  const window = `${day}, ${fmt(start, false)} – ${fmt(new Date(start.getTime() + 2 * 3600_000), true)}`;
  assert.ok(text.replace(/\s+/g, " ").includes(window.replace(/\s+/g, " ")), `${window} in ${text}`);
  assert.match(text, /Furnace maintenance/);
  assert.match(text, /Technicians: Annika and Ben/);
  assert.doesNotMatch(text, /Berg|Okafor/, "first names only");
  assert.doesNotMatch(text, /Last week's repair|Called-off visit|Their own visit/);
});
