/**
 * Language-model settings catalogue.
 *
 * The assistant is the built-in local rules engine; it calls no provider. The
 * other entries are planned and listed so a tenant can record a non-secret
 * preference. No API key is accepted until an encryption key is configured,
 * so nothing here can make a planned provider live.
 */

export const LLM_PROVIDER_IDS = ["local", "openai", "anthropic", "azure-openai", "google-gemini"] as const;
export type LlmProviderId = (typeof LLM_PROVIDER_IDS)[number];

export type LlmProviderStatus = "active" | "planned";

export interface LlmProvider {
  readonly id: LlmProviderId;
  readonly name: string;
  readonly status: LlmProviderStatus;
  readonly isDefault: boolean;
  readonly requiresApiKey: boolean;
  /** Model identifiers as the provider spells them; plain strings, never called. */
  readonly models: readonly string[];
  readonly defaultModel: string;
  readonly description: string;
}

/** Matches the `engine` field the assistant returns. */
export const LOCAL_MODEL = "local-rules";
export const DEFAULT_LLM_PROVIDER_ID: LlmProviderId = "local";

export const LOCAL_STATEMENT =
  "The assistant runs locally on this server using built-in rules. It calls no language-model provider, sends nothing outside the service and changes no records.";

export const API_KEY_DISABLED_REASON =
  "No API key is accepted until an encryption key is configured on the server. This field is disabled, and any key sent is refused, not stored.";

const planned = "Planned: not connected. The assistant keeps running locally until an API key can be stored encrypted.";

export const LLM_PROVIDERS: readonly LlmProvider[] = [
  {
    id: "local",
    name: "Local rules assistant (built-in)",
    status: "active",
    isDefault: true,
    requiresApiKey: false,
    models: [LOCAL_MODEL],
    defaultModel: LOCAL_MODEL,
    description: LOCAL_STATEMENT,
  },
  {
    id: "openai",
    name: "OpenAI",
    status: "planned",
    isDefault: false,
    requiresApiKey: true,
    models: ["gpt-4.1", "gpt-4.1-mini", "gpt-4o", "gpt-4o-mini"],
    defaultModel: "gpt-4.1-mini",
    description: planned,
  },
  {
    id: "anthropic",
    name: "Anthropic",
    status: "planned",
    isDefault: false,
    requiresApiKey: true,
    models: ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1"],
    defaultModel: "claude-haiku-4-5",
    description: planned,
  },
  {
    id: "azure-openai",
    name: "Azure OpenAI",
    status: "planned",
    isDefault: false,
    requiresApiKey: true,
    // Azure calls a named deployment; these are the base models a deployment would use.
    models: ["gpt-4.1", "gpt-4.1-mini", "gpt-4o", "gpt-4o-mini"],
    defaultModel: "gpt-4.1-mini",
    description: planned,
  },
  {
    id: "google-gemini",
    name: "Google Gemini",
    status: "planned",
    isDefault: false,
    requiresApiKey: true,
    models: ["gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.0-flash"],
    defaultModel: "gemini-2.5-flash",
    description: planned,
  },
];

const BY_ID: ReadonlyMap<string, LlmProvider> = new Map(LLM_PROVIDERS.map((p) => [p.id, p]));

export function isLlmProviderId(value: unknown): value is LlmProviderId {
  return typeof value === "string" && BY_ID.has(value);
}

export function getLlmProvider(id: string): LlmProvider | undefined {
  return BY_ID.get(id);
}

export function isModelOfProvider(providerId: string, model: string): boolean {
  return BY_ID.get(providerId)?.models.includes(model) ?? false;
}
