/**
 * A tenant's integration preferences, one `tenant_settings` row per area.
 *
 * Only the non-secret preferences of `preferences.ts` are stored. Saving parses the posted
 * form with that area's schema (which also refuses any credential-looking field), so a
 * caller cannot store anything the schema did not produce.
 */
import { inTenant } from "../../../db/index";
import { TenantSetting, User } from "../../../db/models";
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

const AREAS: {
  [K in SettingsKey]: {
    parse: (f: FormEntries) => ParseResult<PrefsOf[K]>;
    load: (raw: unknown) => PrefsOf[K];
    defaults: Readonly<PrefsOf[K]>;
  };
} = {
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
  const row = await inTenant(tenantId, async (t) => {
    const setting = await TenantSetting.findOne({ where: { tenantId, key }, transaction: t });
    if (!setting) return undefined;
    const by = setting.updatedBy
      ? await User.findOne({ where: { tenantId, id: setting.updatedBy }, attributes: ["name"], transaction: t })
      : null;
    return { value: setting.value, updatedAt: setting.updatedAt, updatedByName: by?.name ?? null };
  });
  const area = AREAS[key];
  if (!row) return { value: { ...area.defaults } as PrefsOf[K], saved: false, updatedAt: null, updatedByName: null };
  return {
    value: area.load(row.value),
    saved: true,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
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
  // One statement, insert or replace (ON CONFLICT on the (tenant_id, key) primary key).
  await inTenant(actor.tenantId, (t) =>
    TenantSetting.upsert(
      { tenantId: actor.tenantId, key, value: parsed.value, updatedBy: actor.userId, updatedAt: new Date() },
      { transaction: t, returning: false },
    ),
  );
  return parsed.value;
}
