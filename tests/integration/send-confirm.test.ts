import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor } from "../helpers/client";
import { createCustomer, createInvoice, createQuote, createTenantWithUsers } from "../helpers/fixtures";
import { textOf } from "../helpers/html";

// Send shows the message before it goes, and a resend is asked for (docs/decisions/390): GET
// /<doc>/<id>/send is the page between the button and the send, a plain form (JavaScript off).

const counts = async (tenantId: string, id: string) =>
  (await one<{ messages: number; sent: number; resent: number }>(
    `SELECT (SELECT count(*)::int FROM messages WHERE tenant_id = $1 AND record_id = $2) AS messages,
            (SELECT count(*)::int FROM record_history WHERE tenant_id = $1 AND record_id = $2 AND action = 'sent') AS sent,
            (SELECT count(*)::int FROM record_history WHERE tenant_id = $1 AND record_id = $2 AND action = 'resent') AS resent`,
    [tenantId, id],
  ))!;

for (const kind of ["quote", "invoice"] as const) {
  const Kind = kind === "quote" ? "Quote" : "Invoice";
  test(`${kind}: Send shows recipient, subject and text first and sends nothing; a second post does not resend; a resend is asked and sent once`, async () => {
    const tenant = await createTenantWithUsers("Summit Plumbing");
    const office = await clientFor(tenant.users.office);
    const customer = await createCustomer(tenant.id, { name: "Ann Customer", email: "ann@example.test" });
    const doc =
      kind === "quote"
        ? await createQuote(tenant.id, { customerId: customer.id, status: "draft" })
        : await createInvoice(tenant.id, { customerId: customer.id, status: "draft" });
    const number = (await one<{ number: string }>(`SELECT number FROM ${kind}s WHERE tenant_id = $1 AND id = $2`, [
      tenant.id,
      doc.id,
    ]))!.number;

    // The record page's Send is a link to the page that shows the message (not a form that sends).
    const recordPage = await (await office.get(`/${kind}s/${doc.id}`)).text();
    assert.match(recordPage, new RegExp(`<a[^>]+href="/${kind}s/${doc.id}/send"[^>]*>Send</a>`));
    assert.doesNotMatch(recordPage, new RegExp(`<form[^>]+action="/${kind}s/${doc.id}/send"`));

    const page = await office.get(`/${kind}s/${doc.id}/send`);
    assert.equal(page.status, 200);
    const text = textOf(await page.text());
    assert.match(text, new RegExp(`Send ${kind} ${number}(?! again)`));
    assert.match(text, /To\s*Ann Customer <ann@example\.test>/);
    assert.match(text, new RegExp(`Subject\\s*${Kind} ${number} from Summit Plumbing`));
    assert.match(text, new RegExp(`Hi Ann,[\\s\\S]*Here is your ${kind} ${number}`));
    assert.deepEqual(await counts(tenant.id, doc.id), { messages: 0, sent: 0, resent: 0 }, "showing sends nothing");
    assert.equal(
      (await one<{ status: string }>(`SELECT status FROM ${kind}s WHERE tenant_id = $1 AND id = $2`, [
        tenant.id,
        doc.id,
      ]))!.status,
      "draft",
    );

    const sent = await office.post(`/${kind}s/${doc.id}/send`, {});
    assert.equal(sent.status, 303);
    assert.match(sent.headers.get("location") ?? "", new RegExp(`/${kind}s/${doc.id}\\?sent=1`));
    assert.deepEqual(await counts(tenant.id, doc.id), { messages: 1, sent: 1, resent: 0 });

    // The same form posted again (a double click, a retried request) sends nothing: back to the question.
    const again = await office.post(`/${kind}s/${doc.id}/send`, {});
    assert.equal(again.status, 303);
    assert.equal(new URL(again.headers.get("location")!, "http://x").pathname, `/${kind}s/${doc.id}/send`);
    assert.deepEqual(await counts(tenant.id, doc.id), { messages: 1, sent: 1, resent: 0 });

    const question = await (await office.get(`/${kind}s/${doc.id}/send`)).text();
    assert.match(textOf(question), new RegExp(`Send ${kind} ${number} again\\?[\\s\\S]*already sent`));
    assert.match(question, /<input type="hidden" name="resend" value="1"\/?>/);
    assert.match(textOf(question), /Send again/);

    const resent = await office.post(`/${kind}s/${doc.id}/send`, { resend: "1" });
    assert.equal(resent.status, 303);
    assert.match(resent.headers.get("location") ?? "", new RegExp(`/${kind}s/${doc.id}\\?sent=1`));
    assert.deepEqual(await counts(tenant.id, doc.id), { messages: 2, sent: 1, resent: 1 });
    const mails = await rows<{ to_address: string; subject: string }>(
      `SELECT to_address, subject FROM messages WHERE tenant_id = $1 AND record_id = $2`,
      [tenant.id, doc.id],
    );
    assert.ok(
      mails.every((m) => m.to_address === "ann@example.test" && m.subject === `${Kind} ${number} from Summit Plumbing`),
    );
    assert.match(textOf(await (await office.get(`/${kind}s/${doc.id}`)).text()), /Sent again by/);
  });
}

test("a customer without an e-mail: the page says nothing is e-mailed and shows the message to send by hand", async () => {
  const tenant = await createTenantWithUsers("Summit Plumbing");
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id, { name: "Bo Nomail", email: null });
  const quote = await createQuote(tenant.id, { customerId: customer.id, status: "draft" });
  const text = textOf(await (await office.get(`/quotes/${quote.id}/send`)).text());
  assert.match(text, /no e-mail address on file, so nothing is e-mailed/);
  assert.match(text, /To\s*No e-mail address/);
  assert.match(text, /Here is your quote/);
});

test("a paid invoice's send page says there is nothing to send, and its post is 409", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id);
  const inv = await createInvoice(tenant.id, { customerId: customer.id, status: "paid" });
  assert.match(
    textOf(await (await office.get(`/invoices/${inv.id}/send`)).text()),
    /is paid: there is nothing to send/,
  );
  assert.equal((await office.post(`/invoices/${inv.id}/send`, { resend: "1" })).status, 409);
});
