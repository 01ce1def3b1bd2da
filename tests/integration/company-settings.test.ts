import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { Client, clientFor } from "../helpers/client";
import { createCustomer, createTenantWithUsers, createUser } from "../helpers/fixtures";
import { inputValue, textOf } from "../helpers/html";

// /settings/company (issue 16, point 7): owner and admin only; the form's values are what new
// quotes and invoices start from; the time zone moved here from the team page; signup asks for it.

const tenantRow = (id: string) =>
  one<{
    name: string;
    phone: string | null;
    email: string | null;
    address: string | null;
    time_zone: string;
    currency: string;
    default_tax_rate: string;
    payment_terms_days: number;
    quote_validity_days: number;
  }>(
    `SELECT name, phone, email, address, time_zone, currency, default_tax_rate::text, payment_terms_days, quote_validity_days FROM tenants WHERE id = $1`,
    [id],
  );

const GOOD = {
  businessName: "Summit Plumbing & Heating",
  phone: "555-0100",
  email: "Office@Summit.example",
  address: "1 Main Street\nSpringfield",
  timeZone: "America/Chicago",
  currency: "CAD",
  defaultTaxRate: "8.25",
  paymentTermsDays: "21",
  quoteValidityDays: "45",
};

const dayIn = (tz: string, plusDays = 0) => {
  const d = new Intl.DateTimeFormat("en-CA", {
    timeZone: tz,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date());
  return new Date(Date.parse(`${d}T00:00:00Z`) + plusDays * 86_400_000).toISOString().slice(0, 10);
};

test("company settings: owner and admin only; saved values are stored and shown again", async () => {
  const t = await createTenantWithUsers();
  for (const role of ["office", "technician"] as const) {
    const c = await clientFor(t.users[role]);
    assert.equal((await c.get("/settings/company")).status, 403, role);
    assert.equal((await c.post("/settings/company", GOOD)).status, 403, role);
  }
  assert.equal(
    (await one<{ name: string }>(`SELECT name FROM tenants WHERE id = $1`, [t.id]))?.name,
    t.name,
    "nothing changed by a refused role",
  );

  const admin = await clientFor(t.users.admin);
  const page = await admin.get("/settings/company");
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.equal(inputValue(html, /name="businessName"/), t.name);
  assert.equal(inputValue(html, /name="paymentTermsDays"/), "14");
  assert.equal(inputValue(html, /name="quoteValidityDays"/), "30");
  assert.match(html, /<option value="UTC" selected="">UTC<\/option>/);
  assert.match(html, /href="\/settings\/company"[^>]*>Company</, "in the settings navigation");

  const saved = await admin.post("/settings/company", GOOD);
  assert.equal(saved.status, 303);
  assert.equal(saved.headers.get("location"), "/settings/company");
  assert.deepEqual(await tenantRow(t.id), {
    name: "Summit Plumbing & Heating",
    phone: "555-0100",
    email: "office@summit.example",
    address: "1 Main Street\nSpringfield",
    time_zone: "America/Chicago",
    currency: "CAD",
    default_tax_rate: "8.250",
    payment_terms_days: 21,
    quote_validity_days: 45,
  });
  const again = await (await admin.get("/settings/company")).text();
  assert.match(textOf(again), /Company settings saved/);
  assert.equal(inputValue(again, /name="defaultTaxRate"/), "8.25");
  assert.match(again, /<option value="America\/Chicago" selected="">America\/Chicago<\/option>/);
  assert.match(again, /<option value="CAD" selected="">/);

  // Blank contact details are cleared.
  assert.equal((await admin.post("/settings/company", { ...GOOD, phone: "", email: "", address: "" })).status, 303);
  const cleared = await tenantRow(t.id);
  assert.deepEqual([cleared?.phone, cleared?.email, cleared?.address], [null, null, null]);
});

test("company settings: bad fields are 422 beside the field, every typed value kept, nothing saved", async () => {
  const t = await createTenantWithUsers();
  const owner = await clientFor(t.users.owner);
  const before = await tenantRow(t.id);
  const res = await owner.post("/settings/company", {
    ...GOOD,
    businessName: "Typed Name Kept",
    email: "not-an-email",
    timeZone: "Mars/Olympus_Mons",
    currency: "ZZZZ",
    defaultTaxRate: "120",
    paymentTermsDays: "400",
    quoteValidityDays: "0",
  });
  assert.equal(res.status, 422);
  const html = await res.text();
  const text = textOf(html);
  for (const [field, message] of [
    ["email", /Enter a valid email address/],
    ["timeZone", /Choose a time zone from the list/],
    ["currency", /Choose a currency from the list/],
    ["defaultTaxRate", /percent from 0 to 100/],
    ["paymentTermsDays", /from 0 to 365/],
    ["quoteValidityDays", /from 1 to 365/],
  ] as const) {
    assert.match(html, new RegExp(`id="field-${field}-error"`), `${field}: message beside the field`);
    assert.match(text, message, field);
  }
  assert.equal(inputValue(html, /name="businessName"/), "Typed Name Kept");
  assert.equal(inputValue(html, /name="phone"/), "555-0100");
  assert.equal(inputValue(html, /name="paymentTermsDays"/), "400");
  assert.deepEqual(await tenantRow(t.id), before);
  // Without the CSRF token: refused, nothing saved.
  assert.equal((await owner.post("/settings/company", GOOD, { csrf: false })).status, 403);
  assert.deepEqual(await tenantRow(t.id), before);
});

test("company settings are what a new quote starts from: valid until, tax rate and currency", async () => {
  const t = await createTenantWithUsers();
  const owner = await clientFor(t.users.owner);
  assert.equal(
    (
      await owner.post("/settings/company", {
        ...GOOD,
        timeZone: "Pacific/Kiritimati",
        quoteValidityDays: "10",
        defaultTaxRate: "7.5",
      })
    ).status,
    303,
  );
  const customer = await createCustomer(t.id, { name: "Ann Customer" });
  const res = await owner.get(`/quotes/new?customerId=${customer.id}`);
  const html = await res.text();
  assert.equal(res.status, 200, textOf(html).slice(0, 500));
  assert.equal(
    inputValue(html, /name="validUntil"/),
    dayIn("Pacific/Kiritimati", 10),
    "valid until: the tenant's today + its quote validity",
  );
  assert.equal(inputValue(html, /name="items\[0\]\.taxRate"/), "7.5");
  assert.equal(inputValue(html, /name="currency"/), "CAD");
});

test("the time zone moved from the team page to company settings, and changes how every date shows", async () => {
  const t = await createTenantWithUsers();
  const owner = await clientFor(t.users.owner);
  const team = await (await owner.get("/team")).text();
  assert.doesNotMatch(team, /name="timeZone"/, "no time zone form on the team page");
  assert.match(team, /href="\/settings\/company"/, "a link to company settings instead");
  assert.equal(
    (await owner.post("/team", { intent: "time_zone", timeZone: "Asia/Tokyo" })).status,
    422,
    "the old intent is gone",
  );

  assert.equal((await owner.post("/settings/company", { ...GOOD, timeZone: "Asia/Tokyo" })).status, 303);
  const member = await createUser(t.id, { role: "office", password: null });
  await rows(
    `INSERT INTO invites (tenant_id, user_id, token_hash, expires_at) VALUES ($1, $2, 'x', '2099-06-16T20:00:00Z')`,
    [t.id, member.id],
  );
  assert.match(
    textOf(await (await owner.get("/team")).text()),
    /valid until Jun 17, 2099, 5:00 AM/,
    "in Tokyo time (UTC+9)",
  );
});

const uniqueEmail = (p: string) => `${p}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.test`;
const tzOf = async (email: string) =>
  (
    await one<{ tz: string }>(
      `SELECT t.time_zone AS tz FROM users u JOIN tenants t ON t.id = u.tenant_id WHERE u.email = $1`,
      [email],
    )
  )?.tz;

test("signup asks for the time zone: UTC preselected, a listed zone stored, an unknown one 422 beside the field", async () => {
  const form = await (await new Client().get("/signup")).text();
  assert.match(form, /<select id="field-timeZone" name="timeZone"/);
  assert.match(form, /<option value="UTC" selected="">UTC<\/option>/, "UTC without JavaScript");
  assert.match(form, /<option value="America\/Denver">America\/Denver<\/option>/);

  const chosen = uniqueEmail("tz");
  const ok = await new Client().post("/signup", {
    businessName: "Mountain Rooter",
    name: "Dana",
    email: chosen,
    password: "a-long-password-1",
    timeZone: "America/Denver",
  });
  assert.equal(ok.status, 303);
  assert.equal(await tzOf(chosen), "America/Denver");

  const bad = uniqueEmail("tz-bad");
  const refused = await new Client().post("/signup", {
    businessName: "Mars Rooter",
    name: "Dana",
    email: bad,
    password: "a-long-password-1",
    timeZone: "Mars/Olympus_Mons",
  });
  assert.equal(refused.status, 422);
  const html = await refused.text();
  assert.match(html, /id="field-timeZone-error"/);
  assert.match(textOf(html), /Choose a time zone from the list/);
  assert.equal(inputValue(html, /name="businessName"/), "Mars Rooter");
  assert.equal(await tzOf(bad), undefined, "nothing stored");
});
