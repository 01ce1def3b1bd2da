// Billing webhook configuration, read from the environment.
// Pure: takes the env object so tests and the start-up validation can pass their own.

export const BILLING_PROVIDERS = ["stripe", "paddle"] as const;
export type BillingProvider = (typeof BILLING_PROVIDERS)[number];

export type BillingConfig =
  | {
      enabled: false;
      // Set when a variable is present but unusable, so start-up validation can name it.
      // Absent when the provider is simply not configured.
      problem?: string;
    }
  | { enabled: true; secrets: string[]; pricePlans: Record<string, string> };

// The path segment is matched exactly: "Stripe" is an unknown provider (404), not an alias.
export function isBillingProvider(s: unknown): s is BillingProvider {
  return typeof s === "string" && (BILLING_PROVIDERS as readonly string[]).includes(s);
}

export function secretVariable(provider: BillingProvider): string {
  return `BILLING_${provider.toUpperCase()}_WEBHOOK_SECRET`;
}

export function pricePlansVariable(provider: BillingProvider): string {
  return `BILLING_${provider.toUpperCase()}_PRICE_PLANS`;
}

function commaList(value: string | undefined): string[] {
  if (typeof value !== "string") return [];
  return value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

// "price_123:starter,price_456:pro" -> {price_123: "starter", price_456: "pro"}.
// A malformed entry makes the whole map unusable rather than silently dropping a price:
// a disabled intake answers 503 and the provider retries later, whereas a dropped price
// would store paying customers' events as "ignored" for good.
export function parsePricePlans(
  value: string | undefined,
  variable: string,
): { ok: true; plans: Record<string, string> } | { ok: false; problem: string } {
  // Null prototype: a price id such as "__proto__" must stay an ordinary key.
  const plans: Record<string, string> = Object.create(null);
  for (const entry of commaList(value)) {
    const colon = entry.indexOf(":");
    const priceId = colon === -1 ? "" : entry.slice(0, colon).trim();
    const plan = colon === -1 ? "" : entry.slice(colon + 1).trim();
    if (!priceId || !plan || plan.includes(":")) {
      return { ok: false, problem: `${variable}: "${entry}" is not of the form price_id:plan` };
    }
    if (Object.prototype.hasOwnProperty.call(plans, priceId) && plans[priceId] !== plan) {
      return { ok: false, problem: `${variable}: price "${priceId}" is mapped to two plans` };
    }
    plans[priceId] = plan;
  }
  return { ok: true, plans };
}

export function billingConfig(provider: BillingProvider, env: Record<string, string | undefined>): BillingConfig {
  if (!isBillingProvider(provider)) return { enabled: false, problem: "unknown billing provider" };
  const secretVar = secretVariable(provider);
  const plansVar = pricePlansVariable(provider);
  // First secret is the newest; all are tried, so rotation is "new,old" then "new".
  const secrets = commaList(env[secretVar]);
  const parsed = parsePricePlans(env[plansVar], plansVar);
  if (!parsed.ok) return { enabled: false, problem: parsed.problem };
  const pricePlans = parsed.plans;
  if (secrets.length === 0 || Object.keys(pricePlans).length === 0) return { enabled: false };
  return { enabled: true, secrets, pricePlans };
}
