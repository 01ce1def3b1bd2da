// The company logo (issue 32 point 5, docs/decisions/420): uploaded on /settings/company as a
// plain multipart form (JavaScript off), checked by its magic bytes and size, stored like job
// photos; drawn at the top of quote, invoice and receipt PDFs, heading the e-mails (a public
// address that answers the image) and the portal. Another tenant can neither read it through
// its own addresses nor replace it; only owner and admin may change it.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { one, rows } from "../../db/index";
import { BASE_URL, clientFor, type Client } from "../helpers/client";
import { createCustomer, createInvoice, createQuote, createTenantWithUsers } from "../helpers/fixtures";
import { textOf } from "../helpers/html";
import { jpegLike, testPng } from "../helpers/photos";
import { portalSetup } from "../helpers/portal";
import { startServer, type RunningServer } from "../helpers/server";
import { eventually, LoopbackSmtp } from "../helpers/smtp";

const MiB = 1024 * 1024;
const LOGO = testPng(240, 80, [20, 90, 200]);

const logoForm = (bytes: Buffer, name = "logo.png", type = "image/png") => {
  const f = new FormData();
  f.set("intent", "upload-logo");
  f.set("logo", new Blob([new Uint8Array(bytes)], { type }), name);
  return f;
};
const removeForm = () => {
  const f = new FormData();
  f.set("intent", "remove-logo");
  return f;
};

const storedLogo = async (tenantId: string) =>
  (await one<{ id: string; content_type: string; width: number; height: number; byte_size: number; bytes: Buffer }>(
    `SELECT id, content_type, width, height, byte_size, bytes FROM company_logos WHERE tenant_id = $1`,
    [tenantId],
  )) ?? null;

/** The logo's address the page shows (the <img> of the settings page or the portal), or null. */
const logoSrc = (html: string) => /<img[^>]*src="(\/logos\/[0-9a-f-]+\/[0-9a-f-]+)"/.exec(html)?.[1] ?? null;

/** The message beside the logo field (the list its input names in aria-describedby). */
const logoFieldError = (html: string) => {
  const m = /<ul id="field-logo-error" class="field-errors">([\s\S]*?)<\/ul>/.exec(html);
  return m ? textOf(m[1]!) : null;
};

async function upload(c: Client, bytes: Buffer, name?: string, type?: string) {
  return c.post("/settings/company", logoForm(bytes, name, type));
}

/** The image XObjects of a PDF (pdfkit writes its dictionaries uncompressed), as their dictionaries. */
function imageObjects(pdf: Buffer): string[] {
  const raw = pdf.toString("latin1");
  const out: string[] = [];
  for (const m of raw.matchAll(/\d+ 0 obj\s*(<<[\s\S]*?>>)\s*(?:stream|endobj)/g)) {
    if (/\/Subtype \/Image/.test(m[1]!)) out.push(m[1]!);
  }
  return out;
}

async function pdfBytes(c: Client, path: string) {
  const res = await c.get(path);
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  assert.equal(res.headers.get("content-type"), "application/pdf");
  return Buffer.from(await res.arrayBuffer());
}

describe("company logo", () => {
  test("an owner uploads a PNG (JavaScript off: a multipart form, 303 back); the page shows it and /logos/<tenant>/<id> answers the same bytes", async () => {
    const t = await createTenantWithUsers("Logo Plumbing");
    const owner = await clientFor(t.users.owner);
    const before = await (await owner.get("/settings/company")).text();
    assert.equal(logoSrc(before), null, "no logo yet");
    assert.match(before, /enctype="multipart\/form-data"/i);
    assert.match(before, /<input[^>]*type="file"[^>]*name="logo"|<input[^>]*name="logo"[^>]*type="file"/);

    const res = await upload(owner, LOGO);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/settings/company");
    const row = await storedLogo(t.id);
    assert.ok(row);
    assert.deepEqual(
      { type: row.content_type, width: row.width, height: row.height, size: row.byte_size },
      { type: "image/png", width: 240, height: 80, size: LOGO.length },
    );
    assert.ok(Buffer.from(row.bytes).equals(LOGO));

    const page = await (await owner.get("/settings/company")).text();
    assert.match(textOf(page), /Logo saved/);
    const src = logoSrc(page);
    assert.equal(src, `/logos/${t.id}/${row.id}`);
    assert.match(page, /Remove logo/);
    // Public (e-mails cannot sign in), immutable under its random id.
    const image = await fetch(`${BASE_URL}${src}`);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get("content-type"), "image/png");
    assert.equal(image.headers.get("x-content-type-options"), "nosniff");
    assert.match(image.headers.get("cache-control") ?? "", /public.*immutable/);
    assert.ok(Buffer.from(await image.arrayBuffer()).equals(LOGO));
    const etag = image.headers.get("etag")!;
    assert.equal((await fetch(`${BASE_URL}${src}`, { headers: { "If-None-Match": etag } })).status, 304);

    // A new upload replaces it under a new address; the old address is gone.
    const second = testPng(120, 120, [200, 30, 30]);
    assert.equal((await upload(owner, second)).status, 303);
    const replaced = await storedLogo(t.id);
    assert.notEqual(replaced!.id, row.id);
    assert.equal((await rows(`SELECT 1 FROM company_logos WHERE tenant_id = $1`, [t.id])).length, 1);
    assert.equal((await fetch(`${BASE_URL}${src}`)).status, 404);

    // Remove: the row goes, its address answers 404, the page says there is none.
    const removed = await owner.post("/settings/company", removeForm());
    assert.equal(removed.status, 303);
    assert.equal(await storedLogo(t.id), null);
    assert.equal((await fetch(`${BASE_URL}/logos/${t.id}/${replaced!.id}`)).status, 404);
    const after = await (await owner.get("/settings/company")).text();
    assert.equal(logoSrc(after), null);
    assert.match(textOf(after), /Logo removed/);
  });

  test("refused uploads change nothing: a text file named .png (422), a WebP (422), JPEG magic without an image (422), over 1 MiB (413), no file (422), each said beside the field", async () => {
    const t = await createTenantWithUsers("Refused Logos");
    const owner = await clientFor(t.users.owner);
    assert.equal((await upload(owner, LOGO)).status, 303);
    const kept = await storedLogo(t.id);

    const webp = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0, 1, 0, 0]), Buffer.from("WEBPVP8 "), jpegLike(64)]);
    const cases: Array<{ what: string; form: FormData; status: number; message: RegExp }> = [
      {
        what: "a text file renamed .png",
        form: logoForm(Buffer.from("This is not an image, only text.\n"), "logo.png", "image/png"),
        status: 422,
        message: /not a PNG or JPEG image/,
      },
      { what: "a WebP", form: logoForm(webp, "logo.webp", "image/webp"), status: 422, message: /WebP.*PNG or JPEG/ },
      {
        what: "JPEG magic bytes without an image",
        form: logoForm(jpegLike(4096), "logo.jpg", "image/jpeg"),
        status: 422,
        message: /damaged/,
      },
      {
        what: "a PNG over 1 MiB",
        form: logoForm(Buffer.concat([LOGO, Buffer.alloc(MiB)]), "big.png"),
        status: 413,
        message: /larger than 1 MiB/,
      },
      {
        what: "no file",
        form: (() => {
          const f = new FormData();
          f.set("intent", "upload-logo");
          return f;
        })(),
        status: 422,
        message: /Choose an image file/,
      },
    ];
    for (const c of cases) {
      const res = await owner.post("/settings/company", c.form);
      assert.equal(res.status, c.status, c.what);
      const html = await res.text();
      const error = logoFieldError(html);
      assert.ok(error, `${c.what}: the message is beside the field`);
      assert.match(error, c.message, c.what);
      assert.match(html, /id="field-logo"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="field-logo"/, c.what);
      assert.deepEqual(await storedLogo(t.id), kept, `${c.what}: nothing changed`);
    }
    // Without the CSRF token: the 403 page, nothing changed.
    const forged = await owner.post("/settings/company", logoForm(testPng(10, 10, [1, 1, 1])), { csrf: false });
    assert.equal(forged.status, 403);
    const forgedRemove = await owner.post("/settings/company", removeForm(), { csrf: false });
    assert.equal(forgedRemove.status, 403);
    assert.deepEqual(await storedLogo(t.id), kept);
  });

  test("role matrix of the logo: owner and admin upload and remove; office and technician get 403 and change nothing", async () => {
    const t = await createTenantWithUsers("Logo Roles");
    for (const role of ["owner", "admin"] as const) {
      const c = await clientFor(t.users[role]);
      assert.equal((await upload(c, LOGO)).status, 303, role);
      assert.ok(await storedLogo(t.id), role);
      assert.equal((await c.post("/settings/company", removeForm())).status, 303, role);
      assert.equal(await storedLogo(t.id), null, role);
    }
    const owner = await clientFor(t.users.owner);
    assert.equal((await upload(owner, LOGO)).status, 303);
    const kept = await storedLogo(t.id);
    for (const role of ["office", "technician"] as const) {
      const c = await clientFor(t.users[role]);
      assert.equal((await c.get("/settings/company")).status, 403, role);
      // The token of a page they may open: the refusal is the role's, not the token's.
      const token = await c.csrf();
      const form = logoForm(testPng(16, 16, [9, 9, 9]));
      form.set("_csrf", token);
      assert.equal((await c.post("/settings/company", form)).status, 403, `${role} cannot upload`);
      const remove = removeForm();
      remove.set("_csrf", token);
      assert.equal((await c.post("/settings/company", remove)).status, 403, `${role} cannot remove`);
      assert.deepEqual(await storedLogo(t.id), kept, `${role}: nothing changed`);
    }
  });

  test("another tenant can neither read our logo through its own addresses nor replace it", async () => {
    const a = await createTenantWithUsers("Ours Logo Co");
    const b = await createTenantWithUsers("Theirs Logo Co");
    const aOwner = await clientFor(a.users.owner);
    const bOwner = await clientFor(b.users.owner);
    assert.equal((await upload(aOwner, LOGO)).status, 303);
    const ours = await storedLogo(a.id);
    // Their upload and removal act on their own logo only.
    const theirsBytes = testPng(50, 50, [0, 200, 0]);
    assert.equal((await upload(bOwner, theirsBytes)).status, 303);
    assert.deepEqual(await storedLogo(a.id), ours);
    const theirs = await storedLogo(b.id);
    assert.ok(Buffer.from(theirs!.bytes).equals(theirsBytes));
    assert.equal((await bOwner.post("/settings/company", removeForm())).status, 303);
    assert.deepEqual(await storedLogo(a.id), ours, "their removal leaves ours");
    // Their settings page never shows ours.
    assert.equal(logoSrc(await (await bOwner.get("/settings/company")).text()), null);
    // Our logo's id under their tenant's address is a 404, like an id that exists nowhere.
    const cross = await fetch(`${BASE_URL}/logos/${b.id}/${ours!.id}`);
    const missing = await fetch(`${BASE_URL}/logos/${b.id}/${randomUUID()}`);
    assert.equal(cross.status, 404);
    assert.equal(missing.status, 404);
    assert.equal(textOf(await cross.text()), textOf(await missing.text()));
    assert.equal((await fetch(`${BASE_URL}/logos/not-a-tenant/${ours!.id}`)).status, 404);
  });

  test("PDFs: quote, invoice and receipt carry the logo as an image XObject when one is set, and no image without", async () => {
    const t = await createTenantWithUsers("Logo Documents");
    const customer = await createCustomer(t.id, { name: "Pat Printer", country: "US" });
    const quote = await createQuote(t.id, {
      customerId: customer.id,
      items: [{ description: "Drain clearing", unitPriceCents: 18_000 }],
    });
    const invoice = await createInvoice(t.id, {
      customerId: customer.id,
      status: "partial",
      amountPaidCents: 5_000,
      items: [{ description: "Drain clearing", unitPriceCents: 18_000 }],
    });
    const payment = await one<{ id: string }>(
      `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference) VALUES ($1, $2, 5000, 'USD', 'check', 'Check #7') RETURNING id`,
      [t.id, invoice.id],
    );
    const office = await clientFor(t.users.office);
    const paths = [
      `/quotes/${quote.id}.pdf`,
      `/invoices/${invoice.id}.pdf`,
      `/invoices/${invoice.id}/receipts/${payment!.id}.pdf`,
    ];
    for (const path of paths) assert.deepEqual(imageObjects(await pdfBytes(office, path)), [], `${path}: no image yet`);

    const owner = await clientFor(t.users.owner);
    assert.equal((await upload(owner, LOGO)).status, 303);
    for (const path of paths) {
      const images = imageObjects(await pdfBytes(office, path));
      assert.equal(images.length, 1, `${path}: one image`);
      assert.match(images[0]!, /\/Width 240/, path);
      assert.match(images[0]!, /\/Height 80/, path);
    }
    // A logo on a transparent background: drawn with its soft mask (the alpha channel).
    assert.equal((await upload(owner, testPng(300, 100, [10, 120, 60], { alpha: true }))).status, 303);
    const masked = imageObjects(await pdfBytes(office, paths[0]!));
    assert.ok(
      masked.some((d) => /\/SMask \d+ 0 R/.test(d) && /\/Width 300/.test(d)),
      "the transparent logo keeps its transparency",
    );
    // The portal's copy of the quote carries it too.
    const p = await portalSetup({ tenant: t, customerName: "Pat Portal" });
    const portalQuote = await createQuote(t.id, {
      customerId: p.customer.id,
      items: [{ description: "Camera inspection", unitPriceCents: 9_000 }],
    });
    const res = await fetch(`${BASE_URL}/portal/${p.token}/quotes/${portalQuote.id}.pdf`);
    assert.equal(res.status, 200);
    const portalImages = imageObjects(Buffer.from(await res.arrayBuffer()));
    assert.ok(
      portalImages.some((d) => /\/SMask \d+ 0 R/.test(d) && /\/Width 300/.test(d)),
      "the portal's PDF carries the logo",
    );
  });

  test("the portal shows the logo in its header (an address that answers the image); without a logo, the initial", async () => {
    const p = await portalSetup({ businessName: "Portal Logo Heating", customerName: "Cam Customer" });
    const before = await (await fetch(`${BASE_URL}${p.url}`)).text();
    assert.equal(logoSrc(before), null);
    assert.match(before, /class="portal-mark"/);
    const owner = await clientFor(p.tenant.users.owner);
    assert.equal((await upload(owner, LOGO)).status, 303);
    const html = await (await fetch(`${BASE_URL}${p.url}`)).text();
    const header = /<header class="portal-top[^"]*">([\s\S]*?)<\/header>/.exec(html)?.[1] ?? "";
    const src = logoSrc(header);
    assert.ok(src, "the logo is in the portal's header");
    assert.match(header, /<h1 class="portal-business">Portal Logo Heating<\/h1>/, "the name stays the heading");
    const image = await fetch(`${BASE_URL}${src}`);
    assert.equal(image.status, 200);
    assert.ok(Buffer.from(await image.arrayBuffer()).equals(LOGO));
  });
});

describe("company logo in e-mails", () => {
  const smtp = new LoopbackSmtp();
  let server: RunningServer;
  before(async () => {
    await smtp.start();
    server = await startServer({
      SMTP_URL: smtp.url,
      MAIL_FROM: "Fieldwork <no-reply@fieldwork.test>",
      MAIL_POLL_MS: "100",
      MAIL_RETRY_BASE_MS: "200",
      REMINDERS_INTERVAL_MS: "300",
    });
  });
  after(async () => {
    await server?.stop();
    await smtp.stop();
  });

  /** The <img> at the top of a message's HTML part: its address and alt text. */
  const topImage = (html: string) => {
    const m =
      /<img[^>]*src="([^"]+)"[^>]*alt="([^"]*)"/.exec(html) ?? /<img[^>]*alt="([^"]*)"[^>]*src="([^"]+)"/.exec(html);
    return m ? { src: m[1]!.startsWith("http") ? m[1]! : m[2]!, html: m[0] } : null;
  };

  test("quote and invoice sends and an overdue reminder head their HTML with the logo, whose address answers the image; without a logo, no image", async () => {
    const t = await createTenantWithUsers("Mail Logo Plumbing");
    await rows(`UPDATE tenants SET email = 'office@maillogo.test', reminder_invoice_after_days = 1 WHERE id = $1`, [
      t.id,
    ]);
    const customer = await createCustomer(t.id, { name: "Mia Mail", email: `mia-${t.id.slice(0, 8)}@example.com` });
    const office = await clientFor(t.users.office, server.url);
    const owner = await clientFor(t.users.owner, server.url);
    const mailTo = (subject: RegExp) =>
      eventually(`the e-mail ${subject}`, () =>
        smtp.matching((m) => m.to.includes(customer.email!.toLowerCase()) && subject.test(m.subject)).at(-1),
      );

    // Before a logo: the quote's e-mail has no image at all.
    const plain = await createQuote(t.id, { customerId: customer.id, status: "draft" });
    assert.equal((await office.post(`/quotes/${plain.id}/send`, {})).status, 303);
    const plainNumber = (await one<{ number: string }>(`SELECT number FROM quotes WHERE id = $1`, [plain.id]))!.number;
    const first = await mailTo(new RegExp(`Quote ${plainNumber}`));
    assert.doesNotMatch(first.html, /<img/);

    assert.equal((await upload(owner, LOGO)).status, 303);
    const logo = await storedLogo(t.id);

    const quote = await createQuote(t.id, { customerId: customer.id, status: "draft" });
    assert.equal((await office.post(`/quotes/${quote.id}/send`, {})).status, 303);
    const qNumber = (await one<{ number: string }>(`SELECT number FROM quotes WHERE id = $1`, [quote.id]))!.number;
    const invoice = await createInvoice(t.id, { customerId: customer.id, status: "draft" });
    assert.equal((await office.post(`/invoices/${invoice.id}/send`, {})).status, 303);
    const iNumber = (await one<{ number: string }>(`SELECT number FROM invoices WHERE id = $1`, [invoice.id]))!.number;
    const dueDate = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const overdue = await createInvoice(t.id, { customerId: customer.id, status: "sent", dueDate });
    const oNumber = (await one<{ number: string }>(`SELECT number FROM invoices WHERE id = $1`, [overdue.id]))!.number;

    const mails = [
      await mailTo(new RegExp(`Quote ${qNumber}`)),
      await mailTo(new RegExp(`Invoice ${iNumber}`)),
      await mailTo(new RegExp(`Overdue: invoice ${oNumber}`)),
    ];
    for (const mail of mails) {
      const img = topImage(mail.html);
      assert.ok(img, `${mail.subject}: the HTML carries the logo`);
      assert.equal(new URL(img.src).pathname, `/logos/${t.id}/${logo!.id}`, mail.subject);
      assert.match(img.html, /alt="Mail Logo Plumbing logo"/, `${mail.subject}: said in words when images are off`);
      assert.ok(
        mail.html.indexOf("<img") < mail.html.indexOf("<p"),
        `${mail.subject}: the logo is at the top, before the greeting`,
      );
      // The address answers the image, to anyone (a mail program cannot sign in).
      const res = await fetch(new URL(new URL(img.src).pathname, server.url));
      assert.equal(res.status, 200, mail.subject);
      assert.equal(res.headers.get("content-type"), "image/png");
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(LOGO), mail.subject);
      assert.doesNotMatch(mail.text, /\/logos\//, `${mail.subject}: the plain text part is unchanged`);
    }
  });
});
