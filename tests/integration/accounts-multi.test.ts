import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { RULES } from "../../app/services/limits/rate-limit.server";
import { Client, clientFor } from "../helpers/client";
import { createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";
import { textOf } from "../helpers/html";
import { idIn, pageText, preview, upload } from "../helpers/import";

// Issue 24 and 15: one e-mail in several businesses (CONTRACT section 19), the honeypot on the
// public forms, device cookies against lockout, the common-password check, and a team import
// bounded by the importer's role.

const uniqueEmail = (p: string) => `${p}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.test`;
const PASSWORD = "plumbing-is-my-calling-42";

async function honeypotFields(c: Client, path: string) {
  const html = await (await c.get(path)).text();
  const from =
    html.match(/name="from__confirm"[^>]*value="([^"]+)"/) ?? html.match(/value="([^"]+)"[^>]*name="from__confirm"/);
  assert.ok(html.includes('name="name__confirm"'), `${path} renders the honeypot`);
  assert.ok(from, `${path} renders the honeypot's time`);
  return {
    name__confirm: "",
    from__confirm: from[1]
      .replace(/&#x2B;|&#43;/g, "+")
      .replace(/&#x2F;/g, "/")
      .replace(/&#x3D;/g, "="),
  };
}

test("honeypot: signup and login posted with the honeypot filled are 400 and store nothing; left empty they work", async () => {
  const c = new Client();
  const email = uniqueEmail("bot");
  const fields = await honeypotFields(c, "/signup");
  // Only this request's own business is counted: other files sign businesses up at the same time.
  const business = `Spam Co ${email}`;
  const tenants = async () =>
    (await one<{ n: number }>(`SELECT count(*)::int n FROM tenants WHERE name = $1`, [business]))!.n;
  const before = await tenants();
  const spam = await c.post("/signup", {
    businessName: business,
    name: "Bot",
    email,
    password: PASSWORD,
    ...fields,
    name__confirm: "http://spam.example",
  });
  assert.equal(spam.status, 400);
  assert.equal(await tenants(), before);
  assert.equal((await rows(`SELECT 1 FROM users WHERE email = $1`, [email])).length, 0);

  const t = await createTenantWithUsers();
  const login = await new Client().post("/login", {
    email: t.users.office.email,
    password: DEFAULT_PASSWORD,
    ...fields,
    name__confirm: "x",
  });
  assert.equal(login.status, 400);
  assert.ok(!login.headers.getSetCookie().some((s) => s.startsWith("__session=")), "no session");

  const person = await c.post("/signup", {
    businessName: "Honest Plumbing",
    name: "Hana",
    email,
    password: PASSWORD,
    ...fields,
  });
  assert.equal(person.status, 303);
  const ok = await new Client().post("/login", {
    email: t.users.office.email,
    password: DEFAULT_PASSWORD,
    ...(await honeypotFields(new Client(), "/login")),
  });
  assert.equal(ok.status, 303);
});

test("one e-mail: two businesses signed up, a member of a third, imported into a fourth; sign-in asks which business", async () => {
  const email = uniqueEmail("Multi");
  const lower = email.toLowerCase();
  const first = await new Client().post("/signup", {
    businessName: "Alpha Plumbing",
    name: "Morgan",
    email,
    password: PASSWORD,
  });
  assert.equal(first.status, 303);
  const second = await new Client().post("/signup", {
    businessName: "Beta Heating",
    name: "Morgan",
    email,
    password: PASSWORD,
  });
  assert.equal(second.status, 303, "signup with a known e-mail creates the new business as usual");
  assert.equal(second.headers.get("location"), "/");

  // A third business adds the same e-mail as a member: no message tells it exists elsewhere.
  const third = await createTenantWithUsers("Gamma Electric");
  const owner3 = await clientFor(third.users.owner);
  const added = await owner3.post("/team", { intent: "add", name: "Morgan", email, role: "office" });
  assert.equal(added.status, 303);
  const member = await one<{ id: string }>(`SELECT id FROM users WHERE tenant_id = $1 AND email = $2`, [
    third.id,
    lower,
  ]);
  assert.ok(member);
  await one(
    `UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE email = $1 AND role = 'owner' LIMIT 1) WHERE tenant_id = $2 AND id = $3`,
    [lower, third.id, member!.id],
  );

  // A fourth business imports it: the preview is valid and the commit stores it.
  const fourth = await createTenantWithUsers("Delta Roofing");
  const admin4 = await clientFor(fourth.users.admin);
  const previewId = await preview(admin4, "team", `name,email,role\r\nMorgan,${email},technician\r\n`);
  const page = pageText(await (await admin4.get(`/import-data/preview?preview=${previewId}`)).text());
  assert.doesNotMatch(page, /elsewhere|another account|already/i);
  const committed = await admin4.post("/import-data/commit", { previewId });
  assert.equal(committed.status, 303);
  idIn(committed, "run");
  assert.ok(await one(`SELECT 1 FROM users WHERE tenant_id = $1 AND email = $2`, [fourth.id, lower]));

  // Sign-in: the password opens three businesses (the imported member has none yet), so the next page asks.
  const c = new Client();
  const res = await c.post("/login", { email, password: PASSWORD, redirectTo: "/customers" });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/login/business");
  const choose = await c.get("/login/business");
  assert.equal(choose.status, 200);
  const text = textOf(await choose.text());
  for (const name of ["Alpha Plumbing", "Beta Heating", "Gamma Electric"]) assert.match(text, new RegExp(name));
  assert.doesNotMatch(text, /Delta Roofing/);
  const tenantOf = async (name: string) =>
    (await one<{ id: string }>(
      `SELECT t.id FROM tenants t JOIN users u ON u.tenant_id = t.id WHERE t.name = $1 AND u.email = $2`,
      [name, lower],
    ))!.id;

  // A business not on the list is refused beside the choice; the listed one opens.
  const wrong = await c.post("/login/business", { tenantId: fourth.id });
  assert.equal(wrong.status, 422);
  const chosen = await c.post("/login/business", { tenantId: await tenantOf("Beta Heating") });
  assert.equal(chosen.status, 303);
  assert.equal(chosen.headers.get("location"), "/customers");
  const dash = textOf(await (await c.get("/")).text());
  assert.match(dash, /Beta Heating/);
  const session = await rows(`SELECT 1 FROM sessions WHERE tenant_id = $1`, [await tenantOf("Beta Heating")]);
  assert.ok(session.length >= 1);

  // Without a pending choice the page sends back to sign-in.
  assert.equal((await new Client().get("/login/business")).status, 302);
});

test("no message reveals another tenant's e-mail: team add and import treat it as new; the same e-mail twice in one team is 'already a member'", async () => {
  const a = await createTenantWithUsers();
  const b = await createTenantWithUsers();
  const known = a.users.office.email;
  const ownerB = await clientFor(b.users.owner);
  const add = await ownerB.post("/team", { intent: "add", name: "Same Person", email: known, role: "technician" });
  assert.equal(add.status, 303);
  const again = await ownerB.post("/team", { intent: "add", name: "Same Person", email: known, role: "technician" });
  assert.equal(again.status, 422);
  assert.match(textOf(await again.text()), /Already a member of your team/);
  const dup = await upload(ownerB, "team", `name,email,role\r\nSame Person,${known},office\r\n`);
  const page = pageText(
    await (
      await ownerB.get(
        new URL(dup.headers.get("location")!, "http://x").pathname +
          new URL(dup.headers.get("location")!, "http://x").search,
      )
    ).text(),
  );
  assert.match(page, /Already a member of your team/);
  assert.doesNotMatch(page, /elsewhere/);
});

test("office posting a team import with an admin row: 403, nothing stored; an admin may import admins", async () => {
  const t = await createTenantWithUsers();
  const office = await clientFor(t.users.office);
  const email = uniqueEmail("would-be-admin");
  const res = await upload(office, "team", `name,email,role\r\nEve,${email},admin\r\n`);
  assert.equal(res.status, 403);
  assert.equal(
    (await rows(`SELECT 1 FROM users WHERE tenant_id = $1 AND email = $2`, [t.id, email.toLowerCase()])).length,
    0,
  );
  assert.equal((await rows(`SELECT 1 FROM import_runs WHERE tenant_id = $1 AND type = 'team'`, [t.id])).length, 0);
  // A preview made by an admin cannot be committed by an office user either.
  const admin = await clientFor(t.users.admin);
  const previewId = await preview(admin, "team", `name,email,role\r\nEve,${email},admin\r\n`);
  const commit = await office.post("/import-data/commit", { previewId });
  assert.equal(commit.status, 403);
  assert.equal(
    (await rows(`SELECT 1 FROM users WHERE tenant_id = $1 AND email = $2`, [t.id, email.toLowerCase()])).length,
    0,
  );
  assert.equal((await admin.post("/import-data/commit", { previewId })).status, 303);
});

test("lockout without denial of service: under a 100-failure attack a browser that signed in before still signs in; others stay locked", async () => {
  const t = await createTenantWithUsers();
  const email = t.users.owner.email;
  const owner = new Client();
  const first = await owner.post("/login", { email, password: DEFAULT_PASSWORD });
  assert.equal(first.status, 303);
  assert.ok(owner.cookies.has("__device"), "a device cookie is set on sign-in");
  await owner.post("/logout", {});

  // The attack: 100 failures on the account from other addresses (counted as the app counts them),
  // and this address's e-mail+IP pair locked too.
  await RULES.loginAccount().penalty(email, 100);
  const attacker = new Client();
  for (let i = 0; i < 10; i++) await attacker.post("/login", { email, password: `wrong-${i}` });
  const locked = await attacker.post("/login", { email, password: DEFAULT_PASSWORD });
  assert.equal(locked.status, 429, "a browser unknown to the account is locked out, even with the right password");
  assert.ok(Number(locked.headers.get("retry-after")) > 0);
  const fresh = await new Client().post("/login", { email, password: DEFAULT_PASSWORD });
  assert.equal(fresh.status, 429);

  // The owner's browser keeps signing in.
  const back = await owner.post("/login", { email, password: DEFAULT_PASSWORD });
  assert.equal(back.status, 303);
  assert.equal((await owner.get("/")).status, 200);

  // A device cookie is not a free pass: 10 wrong passwords from it lock that browser alone.
  await owner.post("/logout", {});
  for (let i = 0; i < 10; i++)
    assert.equal((await owner.post("/login", { email, password: `guess-${i}` })).status, 401);
  assert.equal((await owner.post("/login", { email, password: DEFAULT_PASSWORD })).status, 429);
  // A forged device cookie (not signed with our secret) counts as an unknown browser.
  const forged = new Client();
  forged.cookies.set("__device", encodeURIComponent(Buffer.from(JSON.stringify(`${email}|abc`)).toString("base64")));
  assert.equal((await forged.post("/login", { email, password: DEFAULT_PASSWORD })).status, 429);
});

test("passwords: twelve spaces and a common password are refused beside the field; nothing stored", async () => {
  const c = new Client();
  for (const password of [" ".repeat(12), "passwordpassword", "qwerty123456", "aaaaaaaaaaaaaa"]) {
    const email = uniqueEmail("weak");
    const res = await c.post("/signup", { businessName: "Weak Co", name: "Wes", email, password });
    assert.equal(res.status, 422, JSON.stringify(password));
    assert.match(await res.text(), /id="field-password-error"/);
    assert.equal((await rows(`SELECT 1 FROM users WHERE email = $1`, [email.toLowerCase()])).length, 0);
  }
});

test("signup is rate-limited per address: past the limit 429 with Retry-After, nothing stored", async () => {
  const limit = RULES.signupIp();
  // The test client's address as the server sees it (IPv4 or IPv6 loopback).
  const ips = ["127.0.0.1", "::1"];
  const saved = await Promise.all(ips.map((ip) => limit.get(ip)));
  for (const ip of ips) await limit.set(ip, 30, 3600);
  try {
    const email = uniqueEmail("flood");
    const res = await new Client().post("/signup", {
      businessName: "Flood Co",
      name: "Flo",
      email,
      password: PASSWORD,
    });
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get("retry-after")) > 0, JSON.stringify([...res.headers]));
    assert.equal((await rows(`SELECT 1 FROM users WHERE email = $1`, [email.toLowerCase()])).length, 0);
  } finally {
    for (const [i, ip] of ips.entries()) {
      const s = saved[i];
      if (s) await limit.set(ip, s.consumedPoints, Math.max(1, Math.ceil(s.msBeforeNext / 1000)));
      else await limit.delete(ip);
    }
  }
});

test("NUL bytes: a member name or a signup field holding U+0000 is 422 beside the field, nothing stored; an import cell with it is a row error and commits nothing", async () => {
  const t = await createTenantWithUsers();
  const owner = await clientFor(t.users.owner);
  const email = uniqueEmail("nul");
  const res = await owner.post("/team", { intent: "add", name: "Nul\u0000Name", email, role: "technician" });
  assert.equal(res.status, 422);
  assert.match(await res.text(), /cannot be stored \(U\+0000\)/);
  assert.equal((await rows(`SELECT 1 FROM users WHERE email = $1`, [email.toLowerCase()])).length, 0);

  const signup = await new Client().post("/signup", {
    businessName: "Nul\u0000Co",
    name: "N",
    email,
    password: PASSWORD,
  });
  assert.equal(signup.status, 422);
  const html = await signup.text();
  assert.match(html, /id="field-businessName-error"[\s\S]*cannot be stored/);
  assert.equal((await rows(`SELECT 1 FROM users WHERE email = $1`, [email.toLowerCase()])).length, 0);

  // A NUL byte in a cell of an uploaded file: that cell is marked in the preview, the commit
  // is refused (422), nothing is stored (docs/decisions/192).
  const marked = await upload(owner, "customers", `name,email\r\nAda\u0000Byrne,${email}\r\n`);
  const previewId = idIn(marked, "preview");
  assert.match(
    pageText(await (await owner.get(marked.headers.get("location")!)).text()),
    /2 name Contains a character that cannot be stored \(U\+0000\)/,
  );
  assert.equal((await owner.post("/import-data/commit", { previewId })).status, 422);
  assert.equal(
    (await rows(`SELECT 1 FROM customers WHERE tenant_id = $1 AND email = $2`, [t.id, email.toLowerCase()])).length,
    0,
  );
});
