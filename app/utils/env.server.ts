import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { DbOptions } from "../../db/index";
import { parsePricePlans, pricePlansVariable, type BillingProvider } from "~/utils/billing-config";

const secretList = z
  .string()
  .transform((s) =>
    s
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean),
  )
  .refine((l) => l.length > 0, "must hold at least one secret")
  .refine((l) => l.every((s) => s.length >= 16), "each secret must be at least 16 characters");

// Checked with the intake's own parser, so a map the intake would refuse (and answer 503 for)
// stops the start with the variable named, instead of being found when events bounce.
const pricePlans = (provider: BillingProvider) =>
  z.string().superRefine((value, ctx) => {
    const parsed = parsePricePlans(value, pricePlansVariable(provider));
    if (!parsed.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed.problem });
  });

/** `no-reply@example.com` or `Fieldwork <no-reply@example.com>` (or `"Fieldwork" <...>`). */
export const MAIL_FROM_PATTERN = /^\s*(?:"?([^"<>]*?)"?\s*<([^\s<>@]+@[^\s<>@]+)>|([^\s<>@"]+@[^\s<>@"]+))\s*$/;

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// connection string")
    .optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Set by `remix dev` (`npm run dev`): the dev server the pages' live reload connects to. */
  REMIX_DEV_ORIGIN: z.string().url().optional(),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default(".data"),
  APP_URL: z.string().url("must be an absolute URL such as http://localhost:3000").optional(),
  SESSION_SECRET: secretList.optional(),
  PORTAL_TOKEN_SECRET: secretList.optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * How many remix-serve processes `npm start` runs on the one port (scripts/serve-cluster.mjs).
   * Default one; one per core pays where PostgreSQL runs on cores of its own. Each has its own
   * pool of DB_POOL_MAX connections.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  DB_POOL_ACQUIRE_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  /**
   * Heavy pages (searches, reports, import previews) one app server renders at once; a tenant
   * gets half of them. Default: twice the machine's cores. 0 turns the server's bound off.
   */
  HEAVY_PAGES_PER_SERVER: z.coerce.number().int().min(0).max(1000).optional(),
  /**
   * How many of a tenant's heavy pages (searches, reports) over its share may wait in line for a
   * slot on one server (default: four times the share), and how long each may wait before its 429.
   */
  HEAVY_PAGES_QUEUE: z.coerce.number().int().min(0).max(1000).optional(),
  HEAVY_PAGES_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  DB_APPLICATION_NAME: z
    .string()
    .regex(/^[\w.:-]{1,63}$/, "letters, digits and . _ : - only, at most 63")
    .optional(),
  /** The role requests run as (the app role: row-level security); `npm start` sets it for remix-serve. */
  DB_SET_ROLE: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "a role name: lower-case letters, digits and _")
    .optional(),
  /** Any value but empty: every SQL statement on stderr. */
  LOG_SQL: z
    .string()
    .optional()
    .transform((v) => !!v),
  /** Fault injection points for tests (ignored in production): app/utils/faults.server.ts. */
  FAULTS: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(",")
            .map((p) => p.trim())
            .filter(Boolean)
        : [],
    ),
  /** The cleanup's interval (0 turns it off on this server) and rows per batch. */
  CLEANUP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(60 * 60_000),
  CLEANUP_BATCH: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** How often this server tries to claim the day's visit horizon run (0 turns it off on this server). */
  VISIT_HORIZON_TICK_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(15 * 60_000),
  /** How often reminders are written (0 turns them off on this server). */
  REMINDERS_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  /** `off` keeps the e-mail worker from running on this server. */
  MAIL_WORKER: z.enum(["on", "off"]).optional(),
  LOG_LEVEL: z.enum(["silent", "error", "info", "debug"]).default("info"),
  BILLING_STRIPE_WEBHOOK_SECRET: secretList.optional(),
  BILLING_STRIPE_PRICE_PLANS: pricePlans("stripe").optional(),
  BILLING_PADDLE_WEBHOOK_SECRET: secretList.optional(),
  BILLING_PADDLE_PRICE_PLANS: pricePlans("paddle").optional(),
  // E-mail (docs/decisions/140). Without SMTP_URL: the local outbox in development, no e-mail in production.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587")
    .refine((v) => URL.canParse(v), "must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587")
    .optional(),
  MAIL_FROM: z
    .string()
    .regex(MAIL_FROM_PATTERN, 'must be an address, or a name and an address: "Fieldwork <no-reply@example.com>"')
    .optional(),
  /** How often an idle worker looks for due messages. */
  MAIL_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(2_000),
  /** The first retry's wait; each next one doubles (capped at an hour). */
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  /** How long a claimed message is its worker's before another may take it again. */
  MAIL_LEASE_MS: z.coerce.number().int().min(500).max(3_600_000).default(120_000),
  /** SMTP connections per app server, and messages claimed at once. */
  MAIL_CONNECTIONS: z.coerce.number().int().min(1).max(50).default(5),
  MAIL_BATCH: z.coerce.number().int().min(1).max(1000).default(50),
});

export type Env = Omit<z.infer<typeof schema>, "SESSION_SECRET" | "PORTAL_TOKEN_SECRET" | "APP_URL"> & {
  SESSION_SECRET: string[];
  PORTAL_TOKEN_SECRET: string[];
  APP_URL: string;
};

export class ConfigError extends Error {}

/** Parses and validates the environment; names every bad variable in one message. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // remix-serve serves a production build only with NODE_ENV=production (or test); `npm start`
  // then says the app's own mode in APP_ENV (docs/decisions/111).
  const result = schema.safeParse({ ...source, NODE_ENV: source.APP_ENV || source.NODE_ENV });
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  const secrets = { SESSION_SECRET: env.SESSION_SECRET, PORTAL_TOKEN_SECRET: env.PORTAL_TOKEN_SECRET };
  const missing = Object.entries(secrets)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length && env.NODE_ENV === "production") {
    throw new ConfigError(`Invalid configuration:\n${missing.map((k) => `  ${k}: required in production`).join("\n")}`);
  }
  if (env.NODE_ENV === "production" && env.SMTP_URL && !env.MAIL_FROM) {
    throw new ConfigError(
      "Invalid configuration:\n  MAIL_FROM: required in production when SMTP_URL is set (the address e-mails come from)",
    );
  }
  const generated = missing.length ? devSecrets(env.DATA_DIR) : {};
  return {
    ...env,
    SESSION_SECRET: env.SESSION_SECRET ?? [generated.SESSION_SECRET!],
    PORTAL_TOKEN_SECRET: env.PORTAL_TOKEN_SECRET ?? [generated.PORTAL_TOKEN_SECRET!],
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
  };
}

/** Development secrets: generated once, kept in DATA_DIR/secrets.json so sessions survive restarts. */
function devSecrets(dataDir: string): Record<string, string> {
  const file = path.resolve(dataDir, "secrets.json");
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    const secrets = {
      SESSION_SECRET: randomBytes(32).toString("base64url"),
      PORTAL_TOKEN_SECRET: randomBytes(32).toString("base64url"),
    };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    return secrets;
  }
}

let cached: Env | undefined;
/** The validated environment of this process (parsed once). */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
/** For tests that change variables between calls. */
export function resetEnvCache() {
  cached = undefined;
}

/** The database options of a checked configuration (db/ reads no environment itself). */
export function databaseOptions(e: Env): DbOptions | undefined {
  if (!e.DATABASE_URL) return undefined;
  return {
    url: e.DATABASE_URL,
    poolMax: e.DB_POOL_MAX,
    acquireMs: e.DB_POOL_ACQUIRE_MS,
    applicationName: e.DB_APPLICATION_NAME,
    setRole: e.DB_SET_ROLE,
    logSql: e.LOG_SQL,
  };
}

/** The billing variables as the intake's parser reads them (secrets as their comma list). */
export function billingVariables(e: Env): Record<string, string | undefined> {
  return {
    BILLING_STRIPE_WEBHOOK_SECRET: e.BILLING_STRIPE_WEBHOOK_SECRET?.join(","),
    BILLING_STRIPE_PRICE_PLANS: e.BILLING_STRIPE_PRICE_PLANS,
    BILLING_PADDLE_WEBHOOK_SECRET: e.BILLING_PADDLE_WEBHOOK_SECRET?.join(","),
    BILLING_PADDLE_PRICE_PLANS: e.BILLING_PADDLE_PRICE_PLANS,
  };
}
