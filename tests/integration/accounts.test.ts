import { randomUUID } from "node:crypto";
import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { Client, clientFor } from "../helpers/client";
import { createTenantWithUsers, createUser, DEFAULT_PASSWORD } from "../helpers/fixtures";
import { followedHost, NON_ASCII_REDIRECT_PROBES, printableAscii, REDIRECT_PROBES } from "../helpers/redirects";

const uniqueEmail = (p: string) => `${p}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.test`;

test("signup creates a tenant and its owner, signs in and leads to the dashboard", async () => {
  const c = new Client();
  const email = uniqueEmail("Owner");
  const res = await c.post("/signup", {
    businessName: "Rapid Rooter",
    name: "Dana Plumber",
    email,
    password: "a-long-password-1",
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/");
  const user = await one<{ role: string; password_hash: string; tenant: string }>(
    `SELECT u.role, u.password_hash, t.name AS tenant FROM users u JOIN tenants t ON t.id = u.tenant_id WHERE u.email = $1`,
    [email.toLowerCase()],
  );
  assert.equal(user?.role, "owner");
  assert.equal(user?.tenant, "Rapid Rooter");
  assert.match(user!.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  const dash = await c.get("/");
  assert.equal(dash.status, 200);
  const html = await dash.text();
  assert.match(html, /Welcome, Dana/);
  assert.match(html, /Rapid Rooter/);
});

test("signup refuses bad fields with messages beside them and stores nothing", async () => {
  const c = new Client();
  // Other test files sign businesses up at the same time: what this request would have stored is
  // found by its own values, not by counting every tenant.
  const name = `Refused ${randomUUID()}`;
  const res = await c.post("/signup", { businessName: "", name, email: "nope", password: "short" });
  assert.equal(res.status, 422);
  const html = await res.text();
  assert.match(html, /Enter your business name/);
  assert.match(html, /Enter a valid email address/);
  assert.match(html, /at least 12 characters/);
  const stored = await one<{ users: number; tenants: number }>(
    `SELECT (SELECT count(*) FROM users WHERE name = $1)::int AS users,
            (SELECT count(*) FROM tenants WHERE name = '')::int AS tenants`,
    [name],
  );
  assert.deepEqual(stored, { users: 0, tenants: 0 });
});

test("session cookie is HttpOnly, SameSite=Lax, id only; logout deletes the session row", async () => {
  const t = await createTenantWithUsers();
  const c = new Client();
  const res = await c.post("/login", { email: t.users.office.email, password: DEFAULT_PASSWORD });
  assert.equal(res.status, 303);
  const cookie = res.headers.getSetCookie().find((s) => s.startsWith("__session="))!;
  assert.ok(cookie, "a session cookie is set");
  assert.match(cookie, /HttpOnly/i);
  assert.match(cookie, /SameSite=Lax/i);
  assert.doesNotMatch(cookie, /Secure/i, "not Secure outside production");
  const value = decodeURIComponent(cookie.split(";")[0].split("=")[1]);
  assert.ok(value.length < 200, "the cookie holds only an id");
  const old = c.cookieHeader();
  const sessions = await rows(`SELECT 1 FROM sessions WHERE tenant_id = $1 AND user_id = $2`, [
    t.id,
    t.users.office.id,
  ]);
  assert.equal(sessions.length, 1);

  const out = await c.post("/logout", {});
  assert.equal(out.status, 303);
  assert.equal(out.headers.get("location"), "/login");
  assert.equal(
    (await rows(`SELECT 1 FROM sessions WHERE tenant_id = $1 AND user_id = $2`, [t.id, t.users.office.id])).length,
    0,
  );
  // The old cookie no longer works.
  const again = await new Client().get("/customers", { cookie: old });
  assert.equal(again.status, 302);
  assert.match(again.headers.get("location")!, /^\/login\?redirectTo=%2Fcustomers/);
});

test("wrong password and unknown email answer the same; the 11th failure for one email and IP is 429", async () => {
  const t = await createTenantWithUsers();
  const c = new Client();
  const wrong = await c.post("/login", { email: t.users.admin.email, password: "not-the-password" });
  const unknown = await c.post("/login", { email: uniqueEmail("nobody"), password: "not-the-password" });
  assert.equal(wrong.status, unknown.status);
  assert.equal(wrong.status, 401);
  const msg = (html: string) => html.match(/<div class="alert alert-error" role="alert"><p>(.*?)<\/p>/)?.[1];
  const [a, b] = [msg(await wrong.text()), msg(await unknown.text())];
  assert.ok(a);
  assert.equal(a, b);

  const email = t.users.technician.email;
  for (let i = 1; i <= 10; i++) {
    const r = await c.post("/login", { email, password: `wrong-${i}` });
    assert.equal(r.status, 401, `failure ${i}`);
  }
  const locked = await c.post("/login", { email, password: DEFAULT_PASSWORD });
  assert.equal(locked.status, 429);
  assert.ok(Number(locked.headers.get("retry-after")) > 0);
  assert.match(await locked.text(), /Too many failed sign-in attempts/);
});

test("a signed-out visit redirects to login, and signing in returns there; another site is ignored", async () => {
  const t = await createTenantWithUsers();
  const c = new Client();
  const res = await c.get("/import-data?type=customers");
  assert.equal(res.status, 302);
  const location = res.headers.get("location")!;
  assert.equal(location, "/login?redirectTo=%2Fimport-data%3Ftype%3Dcustomers");
  const login = await c.post("/login", {
    email: t.users.office.email,
    password: DEFAULT_PASSWORD,
    redirectTo: "/import-data?type=customers",
  });
  assert.equal(login.status, 303);
  assert.equal(login.headers.get("location"), "/import-data?type=customers");

  const c2 = new Client();
  const evil = await c2.post("/login", {
    email: t.users.office.email,
    password: DEFAULT_PASSWORD,
    redirectTo: "https://evil.example/steal",
  });
  assert.equal(evil.headers.get("location"), "/");
  const evil2 = await new Client().post("/login", {
    email: t.users.office.email,
    password: DEFAULT_PASSWORD,
    redirectTo: "//evil.example",
  });
  assert.equal(evil2.headers.get("location"), "/");
});

test("redirectTo outside ASCII (encoded, mixed scripts) signs in and lands on this site: never a 500, never a raw byte in Location", async () => {
  const t = await createTenantWithUsers();
  const signedIn = await clientFor(t.users.office);
  for (const probe of NON_ASCII_REDIRECT_PROBES) {
    const c = new Client();
    const posted = await c.post("/login", {
      email: t.users.office.email,
      password: DEFAULT_PASSWORD,
      redirectTo: probe,
    });
    assert.equal(posted.status, 303, `POST ${JSON.stringify(probe)}`);
    const location = posted.headers.get("location")!;
    // fetch decodes header bytes as Latin-1: a raw UTF-8 byte would show here as a character above U+007E.
    assert.ok(printableAscii(location), `POST ${JSON.stringify(probe)} -> ${JSON.stringify(location)}`);
    assert.equal(followedHost(location), "app.example", `POST ${JSON.stringify(probe)} -> ${location}`);
    assert.equal((await c.get("/customers")).status, 200, `signed in after ${JSON.stringify(probe)}`);
    const opened = await signedIn.get(`/login?${new URLSearchParams({ redirectTo: probe })}`);
    assert.equal(opened.status, 302, `GET ${JSON.stringify(probe)}`);
    const again = opened.headers.get("location")!;
    assert.ok(printableAscii(again), `GET ${JSON.stringify(probe)} -> ${JSON.stringify(again)}`);
    assert.equal(followedHost(again), "app.example", `GET ${JSON.stringify(probe)} -> ${again}`);
  }
  const res = await new Client().post("/login", {
    email: t.users.office.email,
    password: DEFAULT_PASSWORD,
    redirectTo: "/。x",
  });
  assert.equal(res.headers.get("location"), "/%E3%80%82x");
});

test("open redirect (issue 24): every probe variant of redirectTo, posted to /login or opened signed in, stays on this site", async () => {
  const t = await createTenantWithUsers();
  const signedIn = await clientFor(t.users.office);
  for (const probe of REDIRECT_PROBES) {
    const posted = await new Client().post("/login", {
      email: t.users.office.email,
      password: DEFAULT_PASSWORD,
      redirectTo: probe,
    });
    // U+0000 is refused at the form boundary (422, nothing done); every other variant signs in.
    assert.equal(posted.status, probe.includes("\u0000") ? 422 : 303, JSON.stringify(probe));
    if (posted.status === 303)
      assert.equal(
        followedHost(posted.headers.get("location")!),
        "app.example",
        `POST ${JSON.stringify(probe)} -> ${posted.headers.get("location")}`,
      );
    const opened = await signedIn.get(`/login?${new URLSearchParams({ redirectTo: probe })}`);
    assert.equal(opened.status, 302, JSON.stringify(probe));
    assert.equal(
      followedHost(opened.headers.get("location")!),
      "app.example",
      `GET ${JSON.stringify(probe)} -> ${opened.headers.get("location")}`,
    );
  }
  for (const probe of ["/.//evil.example", "/..//evil.example"]) {
    const res = await new Client().post("/login", {
      email: t.users.office.email,
      password: DEFAULT_PASSWORD,
      redirectTo: probe,
    });
    assert.equal(res.headers.get("location"), "/");
  }
});

test("staff POSTs without _csrf, with a wrong one, or cross-site answer 403 and change nothing", async () => {
  const t = await createTenantWithUsers();
  const c = await clientFor(t.users.owner);
  const count = async () =>
    (await rows(`SELECT 1 FROM sessions WHERE tenant_id = $1 AND user_id = $2`, [t.id, t.users.owner.id])).length;
  const before = await count();
  const noToken = await c.post("/logout", {}, { csrf: false });
  assert.equal(noToken.status, 403);
  const wrong = await c.post("/logout", { _csrf: "forged-token" });
  assert.equal(wrong.status, 403);
  const crossSite = await c.post("/logout", {}, { headers: { origin: "https://evil.example" } });
  assert.equal(crossSite.status, 403);
  const fetchSite = await c.post("/logout", {}, { headers: { "sec-fetch-site": "cross-site" } });
  assert.equal(fetchSite.status, 403);
  assert.equal(await count(), before, "the session was not ended");
  // Another browser's token does not verify either.
  const other = await clientFor(t.users.admin);
  const otherToken = await other.csrf();
  assert.equal((await c.post("/logout", { _csrf: otherToken })).status, 403);
  assert.equal(await count(), before);

  // The login and signup forms are protected too.
  // (Counted by this test's own business name: other test files create tenants meanwhile.)
  const businessName = `CSRF probe ${uniqueEmail("b")}`;
  const anon = new Client();
  const signup = await anon.post(
    "/signup",
    { businessName, name: "Y", email: uniqueEmail("csrf"), password: "a-long-password-1" },
    { csrf: false },
  );
  assert.equal(signup.status, 403);
  const login = await anon.post("/login", { email: t.users.owner.email, password: DEFAULT_PASSWORD, _csrf: "nope" });
  assert.equal(login.status, 403);
  assert.equal((await one<{ n: number }>(`SELECT count(*)::int n FROM tenants WHERE name = $1`, [businessName]))?.n, 0);
});

test("a member without a password (imported) cannot sign in with any password", async () => {
  const t = await createTenantWithUsers();
  const u = await createUser(t.id, { role: "technician", password: null });
  const res = await new Client().post("/login", { email: u.email, password: "" });
  assert.equal(res.status, 422);
  const res2 = await new Client().post("/login", { email: u.email, password: "whatever-password" });
  assert.equal(res2.status, 401);
});
