import assert from "node:assert/strict";
import { test } from "node:test";
import { monthLabel } from "../../app/services/reports/periods";

test("monthLabel names every month as en-US's short month, in both styles", () => {
  for (let m = 1; m <= 12; m++) {
    const month = `2026-${String(m).padStart(2, "0")}`;
    const name = new Date(Date.UTC(2026, m - 1, 1)).toLocaleString("en-US", { month: "short", timeZone: "UTC" });
    assert.equal(monthLabel(month), `${name} 26`);
    assert.equal(monthLabel(month, "long"), `${name} 2026`);
  }
});
