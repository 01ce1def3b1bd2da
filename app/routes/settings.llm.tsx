import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { Field } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { PrefsCard, SelectField, useSettingsForm } from "~/components/settings";
import { settingsFormAction, settingsPageLoader } from "~/http/settings-form.server";
import { API_KEY_DISABLED_REASON, LLM_PROVIDERS, LOCAL_STATEMENT } from "~/services/integrations/llm";
import { llmPrefsToForm, SETTINGS_FORMS } from "~/services/integrations/preferences";
import settingsStyles from "~/styles/settings.css";

export const meta: MetaFunction = () => [{ title: "Language model · Fieldwork" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: settingsStyles }];

export const loader = ({ request }: LoaderFunctionArgs) =>
  settingsPageLoader(request, "view_llm_settings", "llm", llmPrefsToForm);

export async function action({ request }: ActionFunctionArgs) {
  return settingsFormAction(request, "llm", {
    redirectTo: "/settings/llm",
    saved: "Language-model preferences saved.",
  });
}

// api_key is rendered (disabled) so a refused key gets its message beside the field.
const FIELDS = ["provider", "model", "api_key"] as const;

const label = (p: (typeof LLM_PROVIDERS)[number]) => (p.status === "active" ? p.name : `${p.name} (planned)`);

export default function LlmSettings() {
  const data = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "submitting";
  const form = useSettingsForm(SETTINGS_FORMS.llm, data, "llm");
  // Disabled inputs are never submitted; the server refuses a posted key anyway.
  const apiKey = (
    <div className="api-key-field">
      <Field
        name="api_key"
        label="API key"
        type="password"
        disabled
        autoComplete="off"
        placeholder="Not accepted yet"
        hint={API_KEY_DISABLED_REASON}
        errors={form.errorsFor("api_key")}
      />
    </div>
  );
  return (
    <>
      <PageHeader title="Language model" description="Which language model the assistant should use." />
      <div className="alert alert-success local-statement" role="note">
        <p>
          <strong>The assistant is local.</strong> {LOCAL_STATEMENT}
        </p>
      </div>

      <PrefsCard title="Model preferences" data={data} form={form.form} placed={FIELDS} busy={busy} after={apiKey}>
        <SelectField
          name="provider"
          label="Provider"
          value={form.values.provider}
          errors={form.errorsFor("provider")}
          hint="Planned providers are recorded as a preference only; the assistant keeps running locally."
          options={LLM_PROVIDERS.map((p) => ({ value: p.id, label: label(p) }))}
        />
        <SelectField
          name="model"
          label="Model"
          value={form.values.model}
          errors={form.errorsFor("model")}
          hint="Choose a model of the selected provider."
          groups={LLM_PROVIDERS.map((p) => ({ label: p.name, options: p.models.map((m) => ({ value: m, label: m })) }))}
        />
      </PrefsCard>

      <h2 className="section-title">Providers</h2>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Status</th>
              <th scope="col">Models</th>
              <th scope="col">API key</th>
            </tr>
          </thead>
          <tbody>
            {LLM_PROVIDERS.map((p) => (
              <tr key={p.id}>
                <td>
                  <strong>{p.name}</strong>
                  {p.isDefault ? <span className="badge badge-muted default-badge">Default</span> : null}
                </td>
                <td>
                  {p.status === "active" ? (
                    <span className="badge badge-success">Active: runs locally</span>
                  ) : (
                    <span className="badge badge-muted">Planned: not connected</span>
                  )}
                </td>
                <td>
                  {p.models.map((m) => (
                    <code key={m} className="model-chip">
                      {m}
                    </code>
                  ))}
                </td>
                <td>
                  {p.requiresApiKey ? "Required (not accepted until an encryption key is configured)" : "Not needed"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
