import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { one, rows } from "../../db/index";
import { Client, clientFor } from "../helpers/client";
import {
  createCustomer,
  createInvoice,
  createJob,
  createQuote,
  createTenantWithUsers,
  createUser,
} from "../helpers/fixtures";
import { portalRequest, portalSetup, randomLoopback } from "../helpers/portal";
import { textOf } from "../helpers/html";
import { formatDate } from "../../app/utils/format";
import { startServer, type RunningServer } from "../helpers/server";
import { eventually, LoopbackSmtp } from "../helpers/smtp";

// Issue 18: e-mail through a transactional outbox, delivered by a worker inside each app
// server (docs/decisions/140, 141). A real SMTP server on loopback receives and parses.

const smtp = new LoopbackSmtp();
let a: RunningServer;
let b: RunningServer;
const mailEnv = (url: string, extra: Record<string, string> = {}) => ({
  SMTP_URL: url,
  MAIL_FROM: "Fieldwork <no-reply@fieldwork.test>",
  MAIL_POLL_MS: "100",
  MAIL_RETRY_BASE_MS: "200",
  REMINDERS_INTERVAL_MS: "300",
  ...extra,
});

before(async () => {
  await smtp.start();
  [a, b] = await Promise.all([startServer(mailEnv(smtp.url)), startServer(mailEnv(smtp.url))]);
});
after(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await smtp.stop();
});

/** Queues n messages for a tenant straight into the outbox, as a command's transaction would. */
async function queue(tenantId: string, n: number, kind = "invite") {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 100) {
    const batch = Array.from({ length: Math.min(100, n - i) }, () => randomUUID());
    ids.push(...batch);
    await rows(
      `INSERT INTO messages (tenant_id, id, kind, to_address, from_name, subject, text_body, html_body, message_id)
       SELECT $1, id, $3, 'bulk+' || ord || '@example.test', 'Bulk Co', 'Message ' || ord, 'Hello ' || ord, '<p>Hello ' || ord || '</p>', '<' || id || '@fieldwork.test>'
         FROM unnest($2::uuid[]) WITH ORDINALITY AS u(id, ord)`,
      [tenantId, batch, kind],
    );
  }
  return ids.map((id) => `<${id}@fieldwork.test>`);
}

const statusCounts = async (tenantId: string) =>
  Object.fromEntries(
    (
      await rows<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM messages WHERE tenant_id = $1 GROUP BY status`,
        [tenantId],
      )
    ).map((r) => [r.status, r.n]),
  );

/** Each of these Message-IDs arrived exactly once (and nothing else with them). */
function assertExactlyOnce(messageIds: string[], received = smtp.received) {
  const wanted = new Set(messageIds);
  const counts = new Map<string, number>();
  for (const m of received) if (wanted.has(m.messageId)) counts.set(m.messageId, (counts.get(m.messageId) ?? 0) + 1);
  const lost = messageIds.filter((id) => !counts.has(id));
  const doubled = [...counts].filter(([, n]) => n > 1);
  assert.deepEqual({ lost: lost.length, doubled: doubled.length }, { lost: 0, doubled: 0 });
}

test("sending a quote (a plain form post, as without JavaScript) delivers one e-mail with the portal link that opens the hub; the history says so", async () => {
  const tenant = await createTenantWithUsers("Acme Plumbing");
  await rows(`UPDATE tenants SET email = 'office@acme.test', brand_color = '#0f766e' WHERE id = $1`, [tenant.id]);
  const customer = await createCustomer(tenant.id, { name: "Ann Customer", email: "ann@example.com" });
  const quote = await createQuote(tenant.id, { customerId: customer.id, status: "draft" });
  const number = (await one<{ number: string }>(`SELECT number FROM quotes WHERE tenant_id = $1 AND id = $2`, [
    tenant.id,
    quote.id,
  ]))!.number;
  const office = await clientFor(tenant.users.office, a.url);

  const sent = await office.post(`/quotes/${quote.id}/send`, {});
  assert.equal(sent.status, 303);
  const mail = await eventually(
    "the quote's e-mail",
    () => smtp.matching((m) => m.to.includes("ann@example.com") && m.subject.includes(number))[0],
  );
  assert.equal(mail.subject, `Quote ${number} from Acme Plumbing`);
  assert.match(mail.from, /Acme Plumbing/);
  assert.match(mail.from, /no-reply@fieldwork\.test/);
  assert.equal(mail.replyTo, "office@acme.test");
  const link = /https?:\/\/[^\s"<>]+\/portal\/[A-Za-z0-9_.-]+/.exec(mail.text)?.[0];
  assert.ok(link, "the plain text holds the portal link");
  assert.ok(mail.html.includes(link), "the HTML holds the same link");
  assert.ok(mail.html.includes("#0f766e") && !mail.html.includes("#1d4ed8"), "in the business's colour");
  assert.match(mail.text, new RegExp(number));
  assert.ok(!mail.headerLines.some((l) => /^List-Unsubscribe/i.test(l)), "a quote the office sends has no unsubscribe");

  const hub = await fetch(link.replace(/^https?:\/\/[^/]+/, a.url));
  assert.equal(hub.status, 200);
  assert.match(textOf(await hub.text()), new RegExp(`Quote ${number}|${number}`));

  // Exactly one message for that send, marked sent with the SMTP server's answer.
  const stored = await eventually(
    "the row marked sent",
    async () =>
      (await one<{ status: string; smtp_response: string; n: number }>(
        `SELECT status, smtp_response, (SELECT count(*)::int FROM messages WHERE tenant_id = $1) AS n FROM messages WHERE tenant_id = $1 AND record_id = $2 AND status = 'sent'`,
        [tenant.id, quote.id],
      )) ?? null,
  );
  assert.equal(stored.n, 1);
  assert.match(stored.smtp_response, /^250 /);
  assert.equal(smtp.matching((m) => m.to.includes("ann@example.com") && m.subject.includes(number)).length, 1);
  const page = textOf(await (await office.get(`/quotes/${quote.id}`)).text());
  assert.match(page, /Sent to ann@example\.com/);
  assert.match(page, /E-mailed to ann@example\.com/);
});

test("a receipt follows an office payment and a portal payment; the office hears of the portal payment and of a booking request; no token is stored", async () => {
  const s = await portalSetup({ businessName: "Receipt Plumbing", customerName: "Pat Payer" });
  await rows(`UPDATE tenants SET email = 'office@receipt.test' WHERE id = $1`, [s.tenant.id]);
  await rows(`UPDATE customers SET email = 'pat@example.com' WHERE tenant_id = $1 AND id = $2`, [
    s.tenant.id,
    s.customer.id,
  ]);
  const invoice = await createInvoice(s.tenant.id, { customerId: s.customer.id, status: "sent" });
  const number = (await one<{ number: string }>(`SELECT number FROM invoices WHERE tenant_id = $1 AND id = $2`, [
    s.tenant.id,
    invoice.id,
  ]))!.number;
  const office = await clientFor(s.tenant.users.office, a.url);
  const key = () => randomUUID();
  const paid = await office.post(`/invoices/${invoice.id}/payments`, {
    amount: "1.00",
    method: "check",
    reference: "Check 1042",
    receivedOn: new Date().toISOString().slice(0, 10),
    idempotencyKey: key(),
  });
  assert.equal(paid.status, 303);
  const ip = randomLoopback();
  const portalPaid = await portalRequest("POST", "/api/portal/invoice-payment", {
    base: a.url,
    ip,
    form: { token: s.token, invoiceId: invoice.id, amount: "2", idempotencyKey: key() },
  });
  assert.equal(portalPaid.status, 303);
  const booked = await portalRequest("POST", "/api/portal/booking-request", {
    base: a.url,
    ip,
    form: { token: s.token, service: "Leaky tap", idempotencyKey: key() },
  });
  assert.equal(booked.status, 303);

  const receipts = await eventually("two receipts", () => {
    const r = smtp.matching((m) => m.to.includes("pat@example.com") && /^Receipt/.test(m.subject));
    return r.length === 2 ? r : null;
  });
  const office1 = receipts.find((r) => r.subject.includes("$1.00"))!;
  assert.match(office1.text, new RegExp(number));
  assert.match(office1.text, /Check 1042/);
  assert.match(office1.text, /Balance:\s+\$/);
  const portal1 = receipts.find((r) => r.subject.includes("$2.00"))!;
  assert.match(portal1.text, /\/portal\/[A-Za-z0-9_.-]+/, "the receipt links to the customer's portal");
  const notices = await eventually("the office's two notices", () => {
    const n = smtp.matching((m) => m.to.includes("office@receipt.test"));
    return n.length === 2 ? n : null;
  });
  assert.deepEqual(notices.map((n) => n.subject).sort(), [
    `New booking request: Leaky tap`,
    `Payment of $2.00 on invoice ${number}`,
  ]);
  // The outbox keeps a reference to the portal link, never its token (decision 023).
  const signature = s.token.split(".")[1];
  const leaked = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM messages m WHERE m::text LIKE '%' || $1 || '%'`,
    [signature],
  );
  assert.equal(leaked!.n, 0);
});

test("an invite is e-mailed to the new member with its link; the outbox holds no invite secret", async () => {
  const tenant = await createTenantWithUsers("Invite Co");
  const member = await createUser(tenant.id, { role: "technician", name: "Nina New", password: null });
  const owner = await clientFor(tenant.users.owner, a.url);
  const res = await owner.post(`/team/${member.id}/invite`, {});
  assert.equal(res.status, 200);
  const link = /\/invite\/[A-Za-z0-9_.-]+/.exec(await res.text())?.[0];
  assert.ok(link);
  const mail = await eventually("the invite", () => smtp.matching((m) => m.to.includes(member.email.toLowerCase()))[0]);
  assert.ok(mail.text.includes(link), "the e-mail holds the page's invite link");
  const secret = link.split(".").pop()!;
  const leaked = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM messages m WHERE m::text LIKE '%' || $1 || '%'`,
    [secret],
  );
  assert.equal(leaked!.n, 0);
});

test("reminders: an overdue invoice's reminder is sent once while two servers run the job every 300 ms; an opted-out customer gets none; its unsubscribe link turns them off", async () => {
  const tenant = await createTenantWithUsers("Reminder Heating");
  await rows(`UPDATE tenants SET reminder_invoice_after_days = 1 WHERE id = $1`, [tenant.id]);
  const ann = await createCustomer(tenant.id, { name: "Ann Overdue", email: "ann.overdue@example.com" });
  const otto = await createCustomer(tenant.id, { name: "Otto Optout", email: "otto@example.com" });
  await rows(`UPDATE customers SET auto_reminders = false WHERE tenant_id = $1 AND id = $2`, [tenant.id, otto.id]);
  const dueDate = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
  const annInvoice = await createInvoice(tenant.id, { customerId: ann.id, status: "sent", dueDate });
  await createInvoice(tenant.id, { customerId: otto.id, status: "sent", dueDate });
  const number = (await one<{ number: string }>(`SELECT number FROM invoices WHERE tenant_id = $1 AND id = $2`, [
    tenant.id,
    annInvoice.id,
  ]))!.number;

  const reminder = await eventually(
    "Ann's reminder",
    () => smtp.matching((m) => m.to.includes("ann.overdue@example.com"))[0],
  );
  assert.equal(reminder.subject, `Overdue: invoice ${number} was due ${formatDate(dueDate)}`);
  const unsubscribe = /https?:\/\/[^\s"<>]+\/unsubscribe\/[A-Za-z0-9_.-]+/.exec(reminder.text)?.[0];
  assert.ok(unsubscribe, "the reminder carries an unsubscribe link");
  // More ticks of both servers' jobs: still one reminder, one row, one history line.
  const ticks = await one<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE tenant_id = $1`, [tenant.id]);
  await new Promise((r) => setTimeout(r, 2_000));
  assert.equal(smtp.matching((m) => m.to.includes("ann.overdue@example.com")).length, 1);
  assert.equal(
    smtp.matching((m) => m.to.includes("otto@example.com")).length,
    0,
    "the opted-out customer gets no reminder",
  );
  assert.deepEqual(await one(`SELECT count(*)::int AS n FROM messages WHERE tenant_id = $1`, [tenant.id]), ticks);
  assert.equal(ticks!.n, 1);
  const history = await eventually("the history line", async () =>
    (
      await rows<{ summary: string }>(
        `SELECT summary FROM record_history WHERE tenant_id = $1 AND record_id = $2 AND action = 'emailed'`,
        [tenant.id, annInvoice.id],
      )
    ).length
      ? true
      : null,
  );
  assert.ok(history);
  assert.deepEqual(
    await rows(`SELECT summary FROM record_history WHERE tenant_id = $1 AND record_id = $2 AND action = 'emailed'`, [
      tenant.id,
      annInvoice.id,
    ]),
    [{ summary: "Reminder sent to ann.overdue@example.com" }],
  );

  // The unsubscribe link: a page with one button (a GET changes nothing), the POST turns reminders off.
  const visitor = new Client(a.url);
  const page = await visitor.get(new URL(unsubscribe).pathname);
  assert.equal(page.status, 200);
  assert.match(textOf(await page.text()), /Stop reminders from Reminder Heating/);
  assert.equal(
    (await one<{ on: boolean }>(`SELECT auto_reminders AS on FROM customers WHERE tenant_id = $1 AND id = $2`, [
      tenant.id,
      ann.id,
    ]))!.on,
    true,
  );
  const stopped = await visitor.post(new URL(unsubscribe).pathname, {});
  assert.equal(stopped.status, 200);
  assert.match(textOf(await stopped.text()), /no more automatic reminders from Reminder Heating/);
  assert.equal(
    (await one<{ on: boolean }>(`SELECT auto_reminders AS on FROM customers WHERE tenant_id = $1 AND id = $2`, [
      tenant.id,
      ann.id,
    ]))!.on,
    false,
  );
});

test("an SMTP server that refuses once (451): the message is tried again and delivered once", async () => {
  const tenant = await createTenantWithUsers();
  smtp.refuse(1);
  const [id] = await queue(tenant.id, 1);
  await eventually("delivered after the refusal", () => smtp.matching((m) => m.messageId === id).length === 1);
  const row = await eventually("marked sent", async () =>
    one<{ attempts: number; last_error: string | null }>(
      `SELECT attempts, last_error FROM messages WHERE tenant_id = $1 AND status = 'sent'`,
      [tenant.id],
    ),
  );
  assert.equal(row.attempts, 2, "one refusal, one delivery");
  await new Promise((r) => setTimeout(r, 500));
  assertExactlyOnce([id]);
});

test("two app servers on one database deliver a queue of 200 messages each exactly once", async () => {
  const tenant = await createTenantWithUsers();
  const ids = await queue(tenant.id, 200);
  await eventually("all 200 sent", async () => (await statusCounts(tenant.id)).sent === 200, 60_000);
  await new Promise((r) => setTimeout(r, 500));
  assertExactlyOnce(ids);
  const servers = await rows<{ n: number }>(
    `SELECT count(DISTINCT split_part(smtp_response, ' ', 1))::int AS n FROM messages WHERE tenant_id = $1`,
    [tenant.id],
  );
  assert.equal(servers[0].n, 1, "every row holds the SMTP answer");
});

test("SMTP down while 20 messages are queued: nothing is lost, all go out once it is back", async () => {
  const down = new LoopbackSmtp();
  const port = await (await import("../../db/embedded")).freePort();
  const server = await startServer(
    mailEnv(`smtp://127.0.0.1:${port}`, { MAIL_RETRY_BASE_MS: "100", MAIL_MAX_ATTEMPTS: "100" }),
  );
  try {
    // Only this server's worker may see them: the shared servers' SMTP is up.
    await Promise.all([a.stop(), b.stop()]);
    const tenant = await createTenantWithUsers();
    const ids = await queue(tenant.id, 20);
    await eventually(
      "tried while down",
      async () =>
        (await one<{ n: number }>(
          `SELECT count(*)::int AS n FROM messages WHERE tenant_id = $1 AND attempts >= 2 AND status = 'queued'`,
          [tenant.id],
        ))!.n === 20,
    );
    assert.equal((await statusCounts(tenant.id)).failed, undefined, "nothing given up");
    await down.start(port);
    await eventually(
      "all sent once the server is back",
      async () => (await statusCounts(tenant.id)).sent === 20,
      60_000,
    );
    assertExactlyOnce(ids, down.received);
  } finally {
    await server.stop();
    await down.stop();
    [a, b] = await Promise.all([startServer(mailEnv(smtp.url)), startServer(mailEnv(smtp.url))]);
  }
});

test("a server killed between the SMTP answer and the mark: the message goes out again with the same Message-ID, and is marked once", async () => {
  await Promise.all([a.stop(), b.stop()]);
  const crash = await startServer(
    mailEnv(smtp.url, { FAULTS: "messages.crash-after-send", MAIL_LEASE_MS: "1000", MAIL_BATCH: "1" }),
  );
  let healthy: RunningServer | undefined;
  try {
    const tenant = await createTenantWithUsers();
    const [id] = await queue(tenant.id, 1);
    await eventually(
      "the crashing server died after the SMTP answer",
      () => crash.child.exitCode !== null || crash.child.signalCode !== null,
    );
    assert.equal(smtp.matching((m) => m.messageId === id).length, 1, "the SMTP server accepted it before the crash");
    healthy = await startServer(mailEnv(smtp.url));
    await eventually("sent after the lease ended", async () => (await statusCounts(tenant.id)).sent === 1);
    const copies = smtp.matching((m) => m.messageId === id);
    // What is promised (decision 141): the same Message-ID on every copy, so the recipient's
    // mail system (which de-duplicates on it) shows one message; one row, one history line.
    assert.equal(copies.length, 2);
    assert.equal(new Set(copies.map((c) => c.messageId)).size, 1);
    assert.equal(copies[0].text, copies[1].text);
    const row = await one<{ attempts: number; n: number }>(
      `SELECT attempts, (SELECT count(*)::int FROM messages WHERE tenant_id = $1) AS n FROM messages WHERE tenant_id = $1`,
      [tenant.id],
    );
    assert.deepEqual(row, { attempts: 2, n: 1 });
  } finally {
    await crash.stop();
    await healthy?.stop();
    [a, b] = await Promise.all([startServer(mailEnv(smtp.url)), startServer(mailEnv(smtp.url))]);
  }
});

test("SIGTERM: the worker finishes the messages it holds and the server exits cleanly; the rest go out from the other server once", async () => {
  const tenant = await createTenantWithUsers();
  await b.stop();
  const ids = await queue(tenant.id, 150);
  await eventually("some delivered", () => smtp.matching((m) => ids.includes(m.messageId)).length > 0);
  const exited = new Promise<number | null>((resolve) => a.child.once("exit", (code) => resolve(code)));
  a.child.kill("SIGTERM");
  assert.equal(await exited, 0);
  const held = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM messages WHERE tenant_id = $1 AND status = 'sending'`,
    [tenant.id],
  );
  assert.equal(held!.n, 0, "no message left claimed by the stopped server");
  [a, b] = await Promise.all([startServer(mailEnv(smtp.url)), startServer(mailEnv(smtp.url))]);
  await eventually("all sent", async () => (await statusCounts(tenant.id)).sent === 150, 60_000);
  await new Promise((r) => setTimeout(r, 300));
  assertExactlyOnce(ids);
});

test("the outbox page shows the tenant's messages (owner, admin), readable as sent; office members are refused", async () => {
  const tenant = await createTenantWithUsers();
  const other = await createTenantWithUsers();
  await queue(tenant.id, 2);
  await queue(other.id, 1);
  await rows(`UPDATE messages SET subject = 'Only for the other tenant' WHERE tenant_id = $1`, [other.id]);
  const owner = await clientFor(tenant.users.owner);
  const res = await owner.get("/settings/messages");
  assert.equal(res.status, 200);
  const text = textOf(await res.text());
  assert.match(text, /Message 1/);
  assert.match(text, /Hello 2/);
  assert.doesNotMatch(text, /Only for the other tenant/);
  assert.equal((await (await clientFor(tenant.users.admin)).get("/settings/messages")).status, 200);
  assert.equal((await (await clientFor(tenant.users.office)).get("/settings/messages")).status, 403);
});

test("company settings: the reminders are saved and shown again (blank is off)", async () => {
  const tenant = await createTenantWithUsers();
  const owner = await clientFor(tenant.users.owner);
  const saved = await owner.post("/settings/company", {
    businessName: "Saved Reminders Co",
    timeZone: "UTC",
    currency: "USD",
    paymentTermsDays: "14",
    quoteValidityDays: "30",
    reminderQuoteDays: "5",
    reminderInvoiceBeforeDays: "0",
    reminderInvoiceAfterDays: "",
    reminderVisit: "on",
  });
  assert.equal(saved.status, 303);
  assert.deepEqual(
    await one(
      `SELECT reminder_quote_days, reminder_invoice_before_days, reminder_invoice_after_days, reminder_visit FROM tenants WHERE id = $1`,
      [tenant.id],
    ),
    {
      reminder_quote_days: 5,
      reminder_invoice_before_days: 0,
      reminder_invoice_after_days: null,
      reminder_visit: true,
    },
  );
  const page = await (await owner.get("/settings/company")).text();
  assert.match(page, /name="reminderQuoteDays"[^>]*value="5"|value="5"[^>]*name="reminderQuoteDays"/);
  assert.match(page, /name="reminderVisit"[^>]*checked|checked[^>]*name="reminderVisit"/);
  const refused = await owner.post("/settings/company", {
    businessName: "Saved Reminders Co",
    timeZone: "UTC",
    currency: "USD",
    paymentTermsDays: "14",
    quoteValidityDays: "30",
    reminderQuoteDays: "0",
  });
  assert.equal(refused.status, 422);
});

test("company settings: the e-mails' brand colour is saved, and one too light for white text is refused beside the field", async () => {
  const tenant = await createTenantWithUsers();
  const owner = await clientFor(tenant.users.owner);
  const base = {
    businessName: "Colour Co",
    timeZone: "UTC",
    currency: "USD",
    paymentTermsDays: "14",
    quoteValidityDays: "30",
  };
  assert.equal((await owner.post("/settings/company", { ...base, brandColor: "#0F766E" })).status, 303);
  assert.equal(
    (await one<{ brand_color: string }>(`SELECT brand_color FROM tenants WHERE id = $1`, [tenant.id]))!.brand_color,
    "#0f766e",
  );
  assert.match(
    await (await owner.get("/settings/company")).text(),
    /name="brandColor"[^>]*value="#0f766e"|value="#0f766e"[^>]*name="brandColor"/,
  );
  for (const [colour, message] of [
    ["#fde047", /Too light/],
    ["teal", /like #1d4ed8/],
  ] as const) {
    const res = await owner.post("/settings/company", { ...base, brandColor: colour });
    assert.equal(res.status, 422, colour);
    assert.match(textOf(await res.text()), message);
  }
  assert.equal(
    (await one<{ brand_color: string }>(`SELECT brand_color FROM tenants WHERE id = $1`, [tenant.id]))!.brand_color,
    "#0f766e",
    "nothing changed",
  );
});

test("the office turns a customer's automatic reminders off and on from the customer page; the history says so", async () => {
  const tenant = await createTenantWithUsers();
  const customer = await createCustomer(tenant.id);
  const office = await clientFor(tenant.users.office);
  const on = async () =>
    (await one<{ on: boolean }>(`SELECT auto_reminders AS on FROM customers WHERE tenant_id = $1 AND id = $2`, [
      tenant.id,
      customer.id,
    ]))!.on;
  assert.match(textOf(await (await office.get(`/customers/${customer.id}`)).text()), /Turn reminders off/);
  assert.equal((await office.post(`/customers/${customer.id}/reminders`, { on: "false" })).status, 303);
  assert.equal(await on(), false);
  const page = textOf(await (await office.get(`/customers/${customer.id}`)).text());
  assert.match(page, /receives no automatic reminders/);
  assert.match(page, /Automatic reminders turned off by/);
  assert.equal((await office.post(`/customers/${customer.id}/reminders`, { on: "true" })).status, 303);
  assert.equal(await on(), true);
  assert.equal(
    (await (await clientFor(tenant.users.technician)).post(`/customers/${customer.id}/reminders`, { on: "false" }))
      .status,
    403,
  );
});

test("reminders: a quote without an answer is followed up, and a visit tomorrow is announced, each once", async () => {
  const tenant = await createTenantWithUsers("Follow Up Electric");
  await rows(`UPDATE tenants SET reminder_quote_days = 2, reminder_visit = true WHERE id = $1`, [tenant.id]);
  const cora = await createCustomer(tenant.id, { name: "Cora Quote", email: "cora.quote@example.com" });
  const quote = await createQuote(tenant.id, { customerId: cora.id, status: "sent" });
  await rows(`UPDATE quotes SET sent_at = now() - interval '3 days' WHERE tenant_id = $1 AND id = $2`, [
    tenant.id,
    quote.id,
  ]);
  const vic = await createCustomer(tenant.id, { name: "Vic Visit", email: "vic.visit@example.com" });
  const tomorrowNoon = new Date(`${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}T12:00:00Z`);
  await createJob(tenant.id, { customerId: vic.id, title: "Panel upgrade", scheduledStart: tomorrowNoon });
  // Not due: a visit in three days.
  await createJob(tenant.id, {
    customerId: vic.id,
    title: "Later visit",
    scheduledStart: new Date(tomorrowNoon.getTime() + 2 * 86_400_000),
  });

  const number = (await one<{ number: string }>(`SELECT number FROM quotes WHERE tenant_id = $1 AND id = $2`, [
    tenant.id,
    quote.id,
  ]))!.number;
  const followUp = await eventually(
    "the quote's follow-up",
    () => smtp.matching((m) => m.to.includes("cora.quote@example.com"))[0],
  );
  assert.equal(followUp.subject, `Following up on quote ${number}`);
  assert.match(followUp.text, /\/portal\/|Thank you/);
  const visit = await eventually(
    "the visit reminder",
    () => smtp.matching((m) => m.to.includes("vic.visit@example.com"))[0],
  );
  assert.match(visit.text, /Panel upgrade/);
  await new Promise((r) => setTimeout(r, 1_500));
  assert.equal(smtp.matching((m) => m.to.includes("cora.quote@example.com")).length, 1);
  assert.equal(
    smtp.matching((m) => m.to.includes("vic.visit@example.com")).length,
    1,
    "one visit reminder, and none for the later visit",
  );
});

test("a reminder carries List-Unsubscribe and List-Unsubscribe-Post (RFC 8058): a cookie-less POST to its URL turns reminders off; an overdue reminder makes the portal link the customer pays with", async () => {
  const tenant = await createTenantWithUsers("One Click Plumbing");
  await rows(`UPDATE tenants SET reminder_invoice_after_days = 1 WHERE id = $1`, [tenant.id]);
  const una = await createCustomer(tenant.id, { name: "Una Linkless", email: "una.linkless@example.com" });
  const dueDate = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
  const invoice = await createInvoice(tenant.id, { customerId: una.id, status: "sent", dueDate });
  const number = (await one<{ number: string }>(`SELECT number FROM invoices WHERE tenant_id = $1 AND id = $2`, [
    tenant.id,
    invoice.id,
  ]))!.number;
  // Una has no portal link (the invoice was written straight to the database, never sent).

  const mail = await eventually(
    "Una's reminder",
    () => smtp.matching((m) => m.to.includes("una.linkless@example.com"))[0],
  );
  // The headers, read back by mailparser: the raw lines and the parsed List-* header.
  const unsubscribeLine = mail.headerLines.find((l) => /^List-Unsubscribe:/i.test(l));
  assert.ok(unsubscribeLine, mail.headerLines.join("\n"));
  const url = /<(https?:\/\/[^>]+)>/.exec(unsubscribeLine)?.[1];
  assert.ok(url && /\/unsubscribe\/[A-Za-z0-9_.-]+$/.test(url), unsubscribeLine);
  assert.ok(
    mail.headerLines.includes("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
    mail.headerLines.join("\n"),
  );
  const list = mail.headers.get("list") as { unsubscribe?: { url?: string }; "unsubscribe-post"?: { name?: string } };
  assert.equal(list.unsubscribe?.url, url);
  assert.equal(list["unsubscribe-post"]?.name, "List-Unsubscribe=One-Click");
  assert.ok(mail.text.includes(url), "the footer's link is the same URL");

  // The overdue reminder made a live portal link, and the link in it opens the invoice to pay.
  const link = await one<{ n: number; created_by: string | null; days: number }>(
    `SELECT count(*) OVER ()::int AS n, created_by, round(extract(epoch FROM expires_at - now()) / 86400)::int AS days
       FROM portal_links WHERE tenant_id = $1 AND customer_id = $2`,
    [tenant.id, una.id],
  );
  assert.deepEqual(link, { n: 1, created_by: null, days: 30 });
  const portal = /https?:\/\/[^\s"<>]+\/portal\/[A-Za-z0-9_.-]+/.exec(mail.text)?.[0];
  assert.ok(portal, `the reminder links the portal:\n${mail.text}`);
  const hub = textOf(await (await fetch(portal.replace(/^https?:\/\/[^/]+/, a.url))).text());
  assert.match(hub, new RegExp(number));
  assert.match(hub, /Pay/);

  // One-click: a POST as a mailbox provider sends it, no cookie, no CSRF token, from another site.
  const path = new URL(url).pathname;
  const clicked = await fetch(new URL(path, a.url), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example.net" },
    body: "List-Unsubscribe=One-Click",
    redirect: "manual",
  });
  assert.equal(clicked.status, 200, await clicked.clone().text());
  assert.equal(
    (await one<{ on: boolean }>(`SELECT auto_reminders AS on FROM customers WHERE tenant_id = $1 AND id = $2`, [
      tenant.id,
      una.id,
    ]))!.on,
    false,
  );
  // A forged token changes nothing.
  const forged = await fetch(new URL(`${path.slice(0, -4)}AAAA`, a.url), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  assert.equal(forged.status, 404);
});
