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

/** Every invite row of a member, to prove a refusal changed none of them. */
const invitesOf = (tenantId: string, userId: string) =>
  rows(
    `SELECT id, token_hash, created_by, expires_at, used_at, revoked_at FROM invites WHERE tenant_id = $1 AND user_id = $2 ORDER BY id`,
    [tenantId, userId],
  );

test("role matrix of invites: each role may show, create and re-create an invite only for members at or below its own role", async () => {
  const t = await createTenantWithUsers();
  const roles = ["owner", "admin", "office", "technician"] as const;
  const pending = Object.fromEntries(
    await Promise.all(
      roles.map(async (r) => [r, await createUser(t.id, { role: r, password: null, name: `Pending ${r}` })] as const),
    ),
  ) as unknown as Record<(typeof roles)[number], { id: string; email: string }>;
  const owner = await clientFor(t.users.owner);
  // Each pending member already holds an owner's invite: a refusal must leave it working.
  const held = Object.fromEntries(
    await Promise.all(roles.map(async (r) => [r, await inviteUrl(owner, pending[r].id)] as const)),
  ) as Record<(typeof roles)[number], string>;
  // Who may act on whom: owner on all, admin on all but owners, office and technician on nobody.
  const expected: Record<(typeof roles)[number], (typeof roles)[number][]> = {
    owner: ["owner", "admin", "office", "technician"],
    admin: ["admin", "office", "technician"],
    office: [],
    technician: [],
  };
  for (const actor of roles) {
    const client = await clientFor(t.users[actor]);
    for (const target of roles) {
      const allowed = expected[actor].includes(target);
      const label = `${actor} -> pending ${target}`;
      const before = await invitesOf(t.id, pending[target].id);
      const show = await client.get(`/team/${pending[target].id}/invite`);
      assert.equal(show.status, allowed ? 200 : 403, `show: ${label}`);
      if (!allowed) {
        // Create, then re-create (a second post): both refused, and no invite row changes.
        for (const attempt of ["create", "re-create"]) {
          const res = await client.post(`/team/${pending[target].id}/invite`, {});
          assert.equal(res.status, 403, `${attempt}: ${label}`);
          assert.doesNotMatch(await res.text(), /id="invite-url"/, `${attempt}: ${label} shows no link`);
        }
        assert.deepEqual(await invitesOf(t.id, pending[target].id), before, `nothing changed: ${label}`);
      } else if (actor !== "owner") {
        // An allowed non-owner's invite replaces the held one: make a fresh owner's invite after it.
        await inviteUrl(client, pending[target].id);
        await inviteUrl(client, pending[target].id);
        held[target] = await inviteUrl(owner, pending[target].id);
      }
    }
  }
  // The owner's invite for the pending owner still works after every refusal: its holder becomes
  // that owner and reaches the owner's page.
  const browser = new Client();
  assert.equal((await browser.post(pathOf(held.owner), { password: "the real owner's password" })).status, 303);
  assert.equal((await browser.get("/settings/billing")).status, 200);
});

test("an admin cannot take over a pending owner: the invite link is never shown, and the team page offers none", async () => {
  const t = await createTenantWithUsers();
  const pendingOwner = await createUser(t.id, { role: "owner", password: null, name: "Olga Pending" });
  const admin = await clientFor(t.users.admin);
  const res = await admin.post(`/team/${pendingOwner.id}/invite`, {});
  assert.equal(res.status, 403);
  assert.match(textOf(await res.text()), /Only an owner can invite an owner/);
  assert.equal((await invitesOf(t.id, pendingOwner.id)).length, 0);
  const messages = await rows(`SELECT 1 FROM messages WHERE tenant_id = $1 AND to_address = $2`, [
    t.id,
    pendingOwner.email,
  ]);
  assert.equal(messages.length, 0, "no invite e-mail was written");
  const team = await (await admin.get("/team")).text();
  assert.doesNotMatch(team, new RegExp(`action="/team/${pendingOwner.id}/invite"`));
  const ownerTeam = await (await clientFor(t.users.owner)).get("/team");
  assert.match(await ownerTeam.text(), new RegExp(`action="/team/${pendingOwner.id}/invite"`));
});

test("an admin's invite for a pending member stops working when an owner makes that member an owner", async () => {
  const t = await createTenantWithUsers();
  const member = await createUser(t.id, { role: "admin", password: null, name: "Ada Pending" });
  const admin = await clientFor(t.users.admin);
  const owner = await clientFor(t.users.owner);
  const adminsLink = await inviteUrl(admin, member.id);
  assert.equal((await owner.post("/team", { intent: "role", userId: member.id, role: "owner" })).status, 303);
  // The admin's link would now sign its holder in as an owner: it no longer works.
  const holder = new Client();
  assert.equal((await holder.get(pathOf(adminsLink))).status, 410);
  assert.equal((await holder.post(pathOf(adminsLink), { password: "an admin's chosen password" })).status, 410);
  assert.equal((await holder.get("/settings/billing")).status, 302, "not signed in");
  // Nor can the admin make a new one; the owner can, and it works.
  assert.equal((await admin.post(`/team/${member.id}/invite`, {})).status, 403);
  const ownersLink = await inviteUrl(owner, member.id);
  const browser = new Client();
  assert.equal((await browser.post(pathOf(ownersLink), { password: "the new owner's password" })).status, 303);
  assert.equal((await browser.get("/settings/billing")).status, 200);
  // An owner's invite survives a role change an owner makes (owner -> admin -> owner keeps it working).
  const other = await createUser(t.id, { role: "office", password: null });
  const link = await inviteUrl(owner, other.id);
  assert.equal((await owner.post("/team", { intent: "role", userId: other.id, role: "owner" })).status, 303);
  assert.equal((await new Client().get(pathOf(link))).status, 200);
});

test("calendar links follow the same rule: an admin can neither make, see nor revoke an owner's; an owner can", async () => {
  const t = await createTenantWithUsers();
  const owner = await clientFor(t.users.owner);
  const admin = await clientFor(t.users.admin);
  assert.equal(
    (await owner.post("/settings/calendar/feeds", { userId: t.users.owner.id })).status,
    303,
    "the owner makes their own link",
  );
  const live = async () =>
    rows<{ id: string; revoked_at: Date | null }>(
      `SELECT id, revoked_at FROM calendar_feeds WHERE tenant_id = $1 AND user_id = $2 ORDER BY created_at`,
      [t.id, t.users.owner.id],
    );
  const before = await live();
  assert.equal(before.length, 1);
  assert.equal((await admin.post("/settings/calendar/feeds", { userId: t.users.owner.id })).status, 403);
  assert.equal((await admin.post(`/settings/calendar/feeds/${before[0].id}/revoke`, {})).status, 404);
  assert.deepEqual(await live(), before, "the owner's link is untouched");
  const page = await (await admin.get("/settings/calendar")).text();
  assert.doesNotMatch(page, new RegExp(before[0].id), "the admin's page shows no owner link");
  // The admin still manages a technician's link, and the owner an admin's.
  assert.equal((await admin.post("/settings/calendar/feeds", { userId: t.users.technician.id })).status, 303);
  assert.equal((await owner.post("/settings/calendar/feeds", { userId: t.users.admin.id })).status, 303);
});
