import { json, redirect } from "@remix-run/node";
import { setFlash } from "~/services/accounts/sessions.server";
import { formDataToEntries, isSecretFieldName, SETTINGS_FORMS } from "~/services/integrations/preferences";
import {
  readSettings,
  saveSettings,
  type SettingsKey,
  type StoredSettings,
} from "~/services/integrations/settings.server";
import { actorOf, requireUserWithPermission, type CurrentUser } from "~/http/auth.server";
import { can, type Permission } from "~/utils/permissions";
import { formAction } from "./conform.server";

/**
 * The action of the three integration settings pages: `manage_integrations`
 * (403 page otherwise), `_csrf`, the area's schema (the one the page validates with); 303 back
 * to the page with a confirmation, or 422 with the form's values and a message per field. A
 * refused form never echoes a credential-named field back into the page.
 */
export async function settingsFormAction(
  request: Request,
  key: SettingsKey,
  opts: { redirectTo: string; saved: string },
) {
  const user = await requireUserWithPermission(request, "manage_integrations");
  return formAction(
    request,
    SETTINGS_FORMS[key],
    async (_prefs, { form }) => {
      // The service parses the posted fields again: it stores only what its schema produced.
      await saveSettings(actorOf(user), key, formDataToEntries(form));
      await setFlash(user, { message: opts.saved, tone: "success" });
      return redirect(opts.redirectTo, { status: 303 });
    },
    {
      hideFields: (form) => [...form.keys()].filter(isSecretFieldName),
      formMessage: "Nothing was saved: fix the fields marked below.",
    },
  );
}

/** The loader of the three settings pages: the saved preferences as form values, who saved them, and whether this user may save. */
export async function settingsPageLoader<K extends SettingsKey, F>(
  request: Request,
  permission: Permission,
  key: K,
  toForm: (value: StoredSettings<K>["value"]) => F,
) {
  const user = await requireUserWithPermission(request, permission);
  return json(await settingsPageData(user, key, toForm));
}

/** The data of settingsPageLoader, for a page that adds its own beside it. */
export async function settingsPageData<K extends SettingsKey, F>(
  user: CurrentUser,
  key: K,
  toForm: (value: StoredSettings<K>["value"]) => F,
) {
  const settings = await readSettings(user.tenantId, key);
  return {
    form: toForm(settings.value),
    updatedAt: settings.updatedAt,
    updatedByName: settings.updatedByName,
    canManage: can(user.role, "manage_integrations"),
    timeZone: user.timeZone,
  };
}
