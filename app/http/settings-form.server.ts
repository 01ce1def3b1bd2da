import { json, redirect } from "@remix-run/node";
import { setFlash } from "~/services/accounts/sessions.server";
import { formDataToEntries, isSecretFieldName } from "~/services/integrations/preferences";
import { saveSettings, type SettingsKey } from "~/services/integrations/settings.server";
import { isAppError } from "~/utils/app-error";
import { actorOf, requireUserWithPermission } from "~/utils/auth.server";
import { staffFormAction, type FormFailure } from "./form.server";

/**
 * The action of the three integration settings pages (CONTRACT §10): `manage_integrations`
 * (403 page otherwise), `_csrf`, the area's schema; 303 back to the page with a confirmation,
 * or 422 with the form's values and a message per field. A refused form never echoes a
 * credential-named field back into the page.
 */
export async function settingsFormAction(request: Request, key: SettingsKey, opts: { redirectTo: string; saved: string }) {
  const user = await requireUserWithPermission(request, "manage_integrations");
  return staffFormAction(request, async (form) => {
    const entries = formDataToEntries(form);
    try {
      await saveSettings(actorOf(user), key, entries);
    } catch (error) {
      if (!isAppError(error) || error.code !== "VALIDATION_FAILED") throw error;
      const values = Object.fromEntries(Object.entries(entries).filter(([k]) => k !== "_csrf" && !isSecretFieldName(k)));
      const body: FormFailure = { ok: false, formErrors: [error.message], fields: error.fields, values };
      return json(body, { status: error.status });
    }
    await setFlash(user, { message: opts.saved, tone: "success" });
    return redirect(opts.redirectTo, { status: 303 });
  });
}
