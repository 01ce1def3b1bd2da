import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { BASE_URL, clientFor } from "../helpers/client";
import { createCustomer, createInvoice, createTenantWithUsers } from "../helpers/fixtures";

// A document's PDF is drawn once per content (docs/decisions/491): downloading the same
// invoice again serves the PDF drawn before; anything the PDF shows changing draws it anew.

type Figures = { pool: { ran: Record<string, number> }; pdfs: { drawn: number; reused: number } };
async function figures(): Promise<Figures> {
  const res = await fetch(`${BASE_URL}/healthz?figures=1`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: Figures }).data;
}

/** A tenant with one sent invoice of one line, its office's client, and a download of its PDF. */
async function tenantWithInvoice() {
  const tenant = await createTenantWithUsers();
  const customer = await createCustomer(tenant.id, { name: "Kept Pdf" });
  const invoice = await createInvoice(tenant.id, {
    customerId: customer.id,
    status: "sent",
    items: [{ description: "Boiler service", unitPriceCents: 40_000 }],
  });
  const office = await clientFor(tenant.users.office);
  const pdf = async () => {
    const res = await office.get(`/invoices/${invoice.id}.pdf`);
    assert.equal(res.status, 200);
    return Buffer.from(await res.arrayBuffer());
  };
  return { invoice, office, pdf };
}

test("an invoice's PDF is drawn once per content: the same bytes again, a new drawing after a payment", async () => {
  const { invoice, office, pdf } = await tenantWithInvoice();

  // Other test files draw PDFs at the same time, so the server's counters only grow "at
  // least"; the proof that a download was not drawn again is its bytes: a drawing a second
  // later carries another creation time (the PDF's CreationDate, to the second).
  const start = await figures();
  const first = await pdf();
  const afterFirst = await figures();
  assert.ok(afterFirst.pool.ran.pdf - start.pool.ran.pdf >= 1, "the first download is drawn in the pool");
  await new Promise((r) => setTimeout(r, 1_100));
  const again = await pdf();
  const afterAgain = await figures();
  assert.ok(again.equals(first), "the same bytes, creation time included: not drawn again");
  assert.ok(afterAgain.pdfs.reused - afterFirst.pdfs.reused >= 1);

  const pay = await office.post(`/invoices/${invoice.id}/payments`, {
    _csrf: await office.csrf(),
    amount: "150.00",
    method: "cash",
    receivedOn: new Date().toISOString().slice(0, 10),
    idempotencyKey: randomBytes(16).toString("base64url"),
  });
  assert.equal(pay.status, 303);
  const paid = await pdf();
  const afterPaid = await figures();
  assert.ok(afterPaid.pool.ran.pdf - afterAgain.pool.ran.pdf >= 1, "a payment changes the PDF: drawn anew");
  assert.ok(!paid.equals(first));
  assert.ok(paid.length > 1000 && paid.subarray(0, 5).toString("latin1") === "%PDF-");
  await new Promise((r) => setTimeout(r, 1_100));
  assert.ok((await pdf()).equals(paid), "the paid invoice's PDF is kept in turn");

  // Another tenant's invoice of the same lines is its own drawing (its business, its key).
  const other = await tenantWithInvoice();
  const beforeOther = await figures();
  const otherPdf = await other.pdf();
  const afterOther = await figures();
  assert.ok(afterOther.pool.ran.pdf - beforeOther.pool.ran.pdf >= 1, "another tenant's invoice is drawn for it");
  assert.ok(!otherPdf.equals(first));
});
