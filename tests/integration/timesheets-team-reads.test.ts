import assert from "node:assert/strict";
import { test } from "node:test";
import { db, one, rows } from "../../db/index";
import { teamWeek } from "../../app/services/timesheets/timesheets.server";
import { createTenantWithUsers, createUser } from "../helpers/fixtures";

// The team's week asks the database twice in its transaction: the tenant's settings, then
// everyone with their approval and their entries of the week in one statement
// (docs/decisions/499-reports-drawn-once-per-content.md). Counts, not timing.

test("the team week reads the people, their approved weeks and their entries in one statement", async () => {
  const t = await createTenantWithUsers("Team week reads");
  const W = "2026-06-15"; // a Monday (UTC, the tenant's zone, weeks from Monday)
  const ann = await createUser(t.id, { role: "technician", name: "Ann Team" });
  const ben = await createUser(t.id, { role: "technician", name: "Ben Team" });
  const entry = async (userId: string, start: string, end: string, kind = "work", state = "counted") =>
    one(
      `INSERT INTO time_entries (tenant_id, user_id, started_at, ended_at, kind, state, origin)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [t.id, userId, start, end, kind, state, state === "pending" ? "technician" : "field"],
    );
  await entry(ann.id, `${W}T08:00:00Z`, `${W}T12:00:00Z`);
  await entry(ann.id, `${W}T12:00:00Z`, `${W}T12:30:00Z`, "break");
  await entry(ann.id, "2026-06-16T08:00:00Z", "2026-06-16T10:00:00Z", "work", "pending");
  // The evening before the week, into its first day: only its part in the week counts.
  await entry(ann.id, "2026-06-14T23:00:00Z", `${W}T01:00:00Z`);
  // A week earlier and a week later: not this week's.
  await entry(ann.id, "2026-06-08T08:00:00Z", "2026-06-08T16:00:00Z");
  await entry(ann.id, "2026-06-22T08:00:00Z", "2026-06-22T16:00:00Z");
  await entry(ben.id, "2026-06-17T09:00:00Z", "2026-06-17T11:00:00Z");
  // The office admin has time this week too: shown though not a technician.
  await entry(t.users.admin.id, "2026-06-18T09:00:00Z", "2026-06-18T10:00:00Z");
  await rows(`UPDATE tenants SET time_zone = 'UTC', week_starts_on = 1 WHERE id = $1`, [t.id]);
  await rows(`INSERT INTO timesheet_weeks (tenant_id, user_id, week_start, approved_by) VALUES ($1, $2, $3, $4)`, [
    t.id,
    ben.id,
    W,
    t.users.owner.id,
  ]);

  const sent: string[] = [];
  db().addHook("beforeQuery", "team-week-statements", (_options, query) => {
    sent.push(String((query as { sql?: string }).sql ?? query).slice(0, 60));
  });
  let week;
  try {
    week = await teamWeek({ tenantId: t.id, userId: t.users.owner.id, role: "owner" }, W);
  } finally {
    db().removeHook("beforeQuery", "team-week-statements");
  }
  const row = (id: string) => week.team.find((r) => r.userId === id)!;
  assert.equal(week.weekStart, W);
  assert.equal(
    row(ann.id).paidMinutes,
    5 * 60,
    "4 h of work and the hour after midnight; the break and the pending entry not paid",
  );
  assert.equal(row(ann.id).pendingCount, 1);
  assert.equal(row(ann.id).approved, false);
  assert.equal(row(ben.id).paidMinutes, 120);
  assert.equal(row(ben.id).approved, true);
  assert.equal(row(t.users.admin.id).paidMinutes, 60);
  assert.ok(!week.team.some((r) => r.userId === t.users.owner.id), "no time, not a technician: not shown");
  // The transaction's opening, the settings, the one statement, its commit (six before).
  assert.ok(sent.length >= 2, "the statements were counted");
  assert.ok(sent.length <= 4, `${sent.length} statements: ${sent.join(" | ")}`);
});
