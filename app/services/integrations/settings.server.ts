/**
 * A tenant's integration preferences (CONTRACT §10), one `tenant_settings` row per area.
 *
 * Only the non-secret preferences of `preferences.ts` are stored. Saving parses the posted
 * form with that area's schema (which also refuses any credential-looking field), so a
 * caller cannot store anything the schema did not produce.
 */
import { inTenant, one } from "../../../db/index";
import { validationFailed } from "~/utils/app-error";
import {
  defaultAccountingPrefs,
  defaultCalendarPrefs,
  defaultLlmPrefs,
  isSecretFieldName,
  loadAccountingPrefs,
  loadCalendarPrefs,
  loadLlmPrefs,
  parseAccountingPrefs,
  parseCalendarPrefs,
  parseLlmPrefs,
  type AccountingPrefs,
  type CalendarPrefs,
  type FormEntries,
  type LlmPrefs,
  type ParseResult,
} from "./preferences";

export type SettingsKey = "accounting" | "calendar" | "llm";

type PrefsOf = { accounting: AccountingPrefs; calendar: CalendarPrefs; llm: LlmPrefs };

const AREAS: { [K in SettingsKey]: { parse: (f: FormEntries) => ParseResult<PrefsOf[K]>; load: (raw: unknown) => PrefsOf[K]; defaults: Readonly<PrefsOf[K]> } } = {
  accounting: { parse: parseAccountingPrefs, load: loadAccountingPrefs, defaults: defaultAccountingPrefs },
  calendar: { parse: parseCalendarPrefs, load: loadCalendarPrefs, defaults: defaultCalendarPrefs },
  llm: { parse: parseLlmPrefs, load: loadLlmPrefs, defaults: defaultLlmPrefs },
};

export type StoredSettings<K extends SettingsKey> = {
  value: PrefsOf[K];
  /** False while the tenant still runs on the defaults. */
  saved: boolean;
  updatedAt: string | null;
  updatedByName: string | null;
};

/** The tenant's preferences for one area, or the defaults when none were saved. */
export async function readSettings<K extends SettingsKey>(tenantId: string, key: K): Promise<StoredSettings<K>> {
  const row = await inTenant(tenantId, (t) =>
    one<{ value: unknown; updated_at: Date; updated_by_name: string | null }>(
      `SELECT s.value, s.updated_at, u.name AS updated_by_name
         FROM tenant_settings s
         LEFT JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.updated_by
        WHERE s.tenant_id = $1 AND s.key = $2`,
      [tenantId, key],
      t,
    ),
  );
  const area = AREAS[key];
  if (!row) return { value: { ...area.defaults } as PrefsOf[K], saved: false, updatedAt: null, updatedByName: null };
  return {
    value: area.load(row.value),
    saved: true,
    updatedAt: new Date(row.updated_at).toISOString(),
    updatedByName: row.updated_by_name,
  };
}

/** Defence in depth: the parsed value is ours, but never let a credential-named key reach the row. */
function assertNoSecretKeys(value: unknown, path = ""): void {
  if (value === null || typeof value !== "object") return;
  for (const [k, v] of Object.entries(value)) {
    if (isSecretFieldName(k)) throw new Error(`refusing to store a secret-looking key: ${path}${k}`);
    assertNoSecretKeys(v, `${path}${k}.`);
  }
}

/**
 * Validates the posted form for one area and stores it (insert or replace). Throws
 * VALIDATION_FAILED with per-field messages, storing nothing, when any field is wrong or
 * looks like a secret.
 */
export async function saveSettings<K extends SettingsKey>(
  actor: { tenantId: string; userId: string },
  key: K,
  entries: FormEntries,
): Promise<PrefsOf[K]> {
  const parsed = AREAS[key].parse(entries);
  if (!parsed.ok) throw validationFailed(parsed.fields, "Nothing was saved: fix the fields marked below.");
  assertNoSecretKeys(parsed.value);
  await inTenant(actor.tenantId, (t) =>
    one(
      // now() among the VALUES, not in DO UPDATE SET: Citus refuses a non-immutable function
      // there (docs/decisions/228-citus-run.md); the same instant either way.
      `INSERT INTO tenant_settings (tenant_id, key, value, updated_by, updated_at)
       VALUES ($1, $2, $3::jsonb, $4, now())
       ON CONFLICT (tenant_id, key)
       DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
      [actor.tenantId, key, JSON.stringify(parsed.value), actor.userId],
      t,
    ),
  );
  return parsed.value;
}
