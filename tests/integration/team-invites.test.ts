import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { BASE_URL, Client, clientFor } from "../helpers/client";
import { createTenantWithUsers, createUser } from "../helpers/fixtures";
import { inputValue, textOf } from "../helpers/html";

// The team page: roles (never the last owner), invites for members without a password.
// (The time zone moved to /settings/company: tests/integration/company-settings.test.ts.)

const roleOf = async (tenantId: string, id: string) =>
  (await one<{ role: string }>(`SELECT role FROM users WHERE tenant_id = $1 AND id = $2`, [tenantId, id]))?.role;

/** Makes an invite as `by` and returns its URL, read from the page like a person would. */
async function inviteUrl(by: Client, memberId: string): Promise<string> {
  const res = await by.post(`/team/${memberId}/invite`, {});
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const url = inputValue(await res.text(), /id="invite-url"/);
  assert.ok(url, "the page shows the invite URL");
  return url!;
}
const pathOf = (url: string) => new URL(url).pathname;

test("invite: an imported technician gets a link, sets a password, is signed in, then signs in normally; the link works once", async () => {
  const t = await createTenantWithUsers();
  const member = await createUser(t.id, { role: "technician", password: null, name: "Pat Imported" });
  const owner = await clientFor(t.users.owner);
  const team = textOf(await (await owner.get("/team")).text());
  assert.match(team, /Pat Imported .* Needs an invite/);

  const url = await inviteUrl(owner, member.id);
  assert.match(url, new RegExp(`^${BASE_URL}/invite/[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}$`));
  const stored = await one<{ token_hash: string; days: number }>(
    `SELECT token_hash, round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days FROM invites WHERE tenant_id = $1 AND user_id = $2`,
    [t.id, member.id],
  );
  assert.equal(stored?.days, 7, "valid for 7 days");
  assert.ok(!url.includes(stored!.token_hash), "only a hash of the token is stored");
  assert.match(textOf(await (await owner.get("/team")).text()), /Pat Imported .* Invite link sent, valid until/);

  // The member opens it in their own browser.
  const browser = new Client();
  const form = await browser.get(pathOf(url));
  assert.equal(form.status, 200);
  assert.match(textOf(await form.text()), new RegExp(`Pat Imported, choose a password for ${member.email}`));
  const short = await browser.post(pathOf(url), { password: "too-short" });
  assert.equal(short.status, 422);
  assert.match(textOf(await short.text()), /at least 12 characters/);
  assert.equal(
    (
      await one<{ h: string | null }>(`SELECT password_hash AS h FROM users WHERE tenant_id = $1 AND id = $2`, [
        t.id,
        member.id,
      ])
    )?.h,
    null,
  );

  const set = await browser.post(pathOf(url), { password: "a-brand-new-password" });
  assert.equal(set.status, 303);
  assert.equal(set.headers.get("location"), "/");
  // Signed in: the start page of a technician is their day in the field app.
  const start = await browser.get("/");
  assert.equal(start.status, 302);
  assert.equal(start.headers.get("location"), "/field");
  const jobs = await browser.get("/jobs");
  assert.equal(jobs.status, 200);
  assert.match(textOf(await jobs.text()), /Pat Imported/);
  const user = await one<{ h: string }>(`SELECT password_hash AS h FROM users WHERE tenant_id = $1 AND id = $2`, [
    t.id,
    member.id,
  ]);
  assert.match(user!.h, /^\$argon2id\$/);

  // Then signs in normally.
  const login = await new Client().post("/login", { email: member.email, password: "a-brand-new-password" });
  assert.equal(login.status, 303);

  // The same invite again is refused, and the password stays.
  const again = await new Client().get(pathOf(url));
  assert.equal(again.status, 410);
  assert.match(textOf(await again.text()), /already been used/);
  const reuse = await new Client().post(pathOf(url), { password: "an-attackers-password" });
  assert.equal(reuse.status, 410);
  assert.equal(
    (
      await one<{ h: string }>(`SELECT password_hash AS h FROM users WHERE tenant_id = $1 AND id = $2`, [
        t.id,
        member.id,
      ])
    )?.h,
    user!.h,
  );
  assert.equal(
    (await new Client().post("/login", { email: member.email, password: "an-attackers-password" })).status,
    401,
  );
  // A member with a password gets no new invite.
  const refused = await owner.post(`/team/${member.id}/invite`, {});
  assert.equal(refused.status, 409);
  assert.match(textOf(await refused.text()), /already signs in with a password/);
});

test("invite: a forged, expired or replaced link shows a clear page and sets nothing", async () => {
  const t = await createTenantWithUsers();
  const member = await createUser(t.id, { role: "office", password: null });
  const admin = await clientFor(t.users.admin);
  const first = await inviteUrl(admin, member.id);
  const second = await inviteUrl(admin, member.id);
  const replaced = await new Client().get(pathOf(first));
  assert.equal(replaced.status, 410);
  assert.match(textOf(await replaced.text()), /newer invite/);
  assert.equal((await new Client().post(pathOf(first), { password: "a-brand-new-password" })).status, 410);

  const forged = pathOf(second).replace(/.$/, (ch) => (ch === "A" ? "B" : "A"));
  const bad = await new Client().get(forged);
  assert.equal(bad.status, 404);
  assert.match(textOf(await bad.text()), /not valid/);
  assert.equal((await new Client().get("/invite/nonsense")).status, 404);
  assert.equal((await new Client().post(forged, { password: "a-brand-new-password" })).status, 404);

  await rows(
    `UPDATE invites SET expires_at = now() - interval '1 minute', created_at = now() - interval '8 days' WHERE tenant_id = $1 AND user_id = $2`,
    [t.id, member.id],
  );
  const expired = await new Client().get(pathOf(second));
  assert.equal(expired.status, 410);
  assert.match(textOf(await expired.text()), /expired/);
  assert.equal((await new Client().post(pathOf(second), { password: "a-brand-new-password" })).status, 410);
  assert.equal(
    (
      await one<{ h: string | null }>(`SELECT password_hash AS h FROM users WHERE tenant_id = $1 AND id = $2`, [
        t.id,
        member.id,
      ])
    )?.h,
    null,
  );
});

test("the last owner cannot be demoted; with two owners one can step down; only owners touch the owner role", async () => {
  const t = await createTenantWithUsers();
  const owner = await clientFor(t.users.owner);
  const res = await owner.post("/team", { intent: "role", userId: t.users.owner.id, role: "admin" });
  assert.equal(res.status, 409);
  assert.match(textOf(await res.text()), /only owner/);
  assert.equal(await roleOf(t.id, t.users.owner.id), "owner");

  // An admin can neither demote an owner nor make anyone an owner.
  const admin = await clientFor(t.users.admin);
  assert.equal((await admin.post("/team", { intent: "role", userId: t.users.owner.id, role: "office" })).status, 403);
  assert.equal((await admin.post("/team", { intent: "role", userId: t.users.office.id, role: "owner" })).status, 403);
  assert.equal(await roleOf(t.id, t.users.office.id), "office");

  // The owner makes the admin an owner; then either may step down, but not both.
  assert.equal((await owner.post("/team", { intent: "role", userId: t.users.admin.id, role: "owner" })).status, 303);
  assert.equal((await owner.post("/team", { intent: "role", userId: t.users.owner.id, role: "admin" })).status, 303);
  assert.equal(await roleOf(t.id, t.users.owner.id), "admin");
  const newOwner = await clientFor(t.users.admin);
  assert.equal(
    (await newOwner.post("/team", { intent: "role", userId: t.users.admin.id, role: "office" })).status,
    409,
  );
  assert.equal(await roleOf(t.id, t.users.admin.id), "owner");
  // A bad role is a field error.
  assert.equal(
    (await newOwner.post("/team", { intent: "role", userId: t.users.office.id, role: "superuser" })).status,
    422,
  );
});

test("two demotions at once cannot leave the tenant without an owner", async () => {
  const t = await createTenantWithUsers();
  const second = await createUser(t.id, { role: "owner" });
  const [a, b] = [await clientFor(t.users.owner), await clientFor(second)];
  const results = await Promise.all([
    a.post("/team", { intent: "role", userId: second.id, role: "office" }),
    b.post("/team", { intent: "role", userId: t.users.owner.id, role: "office" }),
  ]);
  const owners = await rows(`SELECT 1 FROM users WHERE tenant_id = $1 AND role = 'owner'`, [t.id]);
  assert.equal(owners.length, 1, "one owner remains");
  // The loser is refused either by the last-owner guard (409) or, when the winner committed
  // before its session was read, because its actor is no longer an owner (403).
  const [won, lost] = results.map((r) => r.status).sort();
  assert.equal(won, 303);
  assert.ok(lost === 409 || lost === 403, `the other demotion is refused (${lost})`);
});

test("a role change takes effect on the member's next request", async () => {
  const t = await createTenantWithUsers();
  const tech = await clientFor(t.users.technician);
  assert.equal((await tech.get("/customers")).status, 403);
  const admin = await clientFor(t.users.admin);
  const res = await admin.post("/team", { intent: "role", userId: t.users.technician.id, role: "office" });
  assert.equal(res.status, 303);
  assert.match(textOf(await (await admin.get("/team")).text()), /is now Office/);
  // Same session, next request: the new role applies.
  assert.equal((await tech.get("/customers")).status, 200);
  assert.equal((await tech.get("/")).status, 200, "office lands on the dashboard");
  await admin.post("/team", { intent: "role", userId: t.users.technician.id, role: "technician" });
  assert.equal((await tech.get("/customers")).status, 403);
});

test("team: add a member without a password, and only owners and admins reach the page", async () => {
  const t = await createTenantWithUsers();
  const admin = await clientFor(t.users.admin);
  const email = `added-${Date.now()}@example.test`;
  const res = await admin.post("/team", { intent: "add", name: "Quinn Added", email, role: "technician" });
  assert.equal(res.status, 303);
  const row = await one<{ role: string; password_hash: string | null }>(
    `SELECT role, password_hash FROM users WHERE tenant_id = $1 AND email = $2`,
    [t.id, email],
  );
  assert.deepEqual(row, { role: "technician", password_hash: null });
  const dup = await admin.post("/team", { intent: "add", name: "Again", email, role: "office" });
  assert.equal(dup.status, 422);
  assert.match(textOf(await dup.text()), /Already a member of your team/);
  assert.equal(
    (await admin.post("/team", { intent: "add", name: "Boss", email: `x-${email}`, role: "owner" })).status,
    403,
  );
  for (const role of ["office", "technician"] as const)
    assert.equal((await (await clientFor(t.users[role])).get("/team")).status, 403, role);
  assert.equal(
    (
      await (
        await clientFor(t.users.office)
      ).post("/team", { intent: "add", name: "Nope", email: `y-${email}`, role: "office" })
    ).status,
    403,
  );
});
