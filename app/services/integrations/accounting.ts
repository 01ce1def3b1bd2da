/**
 * Accounting integration catalogue (spec item 4 / §4.3).
 *
 * Pure, typed data for `/settings/accounting`. Nothing here talks to a provider:
 * live connections are deferred until provider credentials, redirect URLs,
 * encryption keys and HTTPS callbacks exist, so every entry is "Not connected"
 * and carries the reason its connect button is disabled.
 *
 * Metadata was checked against the providers' public developer documentation
 * (see each `docsUrl`); where a provider is not plain OAuth 2.0 the auth entry
 * says so rather than pretending.
 */

export const ACCOUNTING_OBJECTS = ["customers", "items", "invoices", "payments"] as const;
export type AccountingObject = (typeof ACCOUNTING_OBJECTS)[number];

/** `to_ledger`: we create/update records in the accounting system; nothing is read back. */
export type SyncDirection = "to_ledger" | "from_ledger" | "two_way";

export const SYNC_DIRECTION_LABELS: Readonly<Record<SyncDirection, string>> = {
  to_ledger: "One-way: this app → accounting system",
  from_ledger: "One-way: accounting system → this app",
  two_way: "Two-way",
};

/**
 * One-way push is the default because the field-service app is where jobs,
 * quotes and invoices originate; the ledger stays the accountant's system of
 * record and is never overwritten from two sides (the approach Jobber and
 * Housecall Pro take for QuickBooks/Xero).
 */
export const DEFAULT_SYNC_DIRECTION: SyncDirection = "to_ledger";

export type AccountingAuthMethod = "oauth2" | "web_connector" | "token_based" | "web_services_credentials";

export const AUTH_METHOD_LABELS: Readonly<Record<AccountingAuthMethod, string>> = {
  oauth2: "OAuth 2.0",
  web_connector: "QuickBooks Web Connector",
  token_based: "Token-based authentication (TBA)",
  web_services_credentials: "Web Services sender credentials + company user",
};

export type ConnectionStatus = "Not connected";
export const NOT_CONNECTED: ConnectionStatus = "Not connected";

export type RequirementKind =
  "client_credentials" | "redirect_url" | "https_callback" | "encryption_key" | "sandbox" | "customer_setup";

export interface Requirement {
  readonly kind: RequirementKind;
  readonly text: string;
}

export interface Region {
  /** Short code, e.g. ISO country code or the provider's data-centre suffix. */
  readonly code: string;
  readonly name: string;
  /** Provider-specific host or domain for this region, when it differs per region. */
  readonly host?: string;
}

export interface SyncedObject {
  readonly object: AccountingObject;
  readonly direction: SyncDirection;
  /** What the record is called in the provider, when it differs. */
  readonly providerName: string;
}

export interface AccountingAuth {
  readonly method: AccountingAuthMethod;
  readonly label: string;
  readonly detail: string;
}

export interface AccountingProvider {
  readonly id: AccountingProviderId;
  readonly name: string;
  readonly vendor: string;
  readonly auth: AccountingAuth;
  readonly regions: readonly Region[];
  readonly regionNote: string;
  readonly objects: readonly SyncedObject[];
  readonly defaultDirection: SyncDirection;
  readonly status: ConnectionStatus;
  readonly requirements: readonly Requirement[];
  readonly disabledReason: string;
  /** Provider developer docs; shown as text, never fetched. */
  readonly docsUrl: string;
}

export const ACCOUNTING_PROVIDER_IDS = [
  "quickbooks-online",
  "quickbooks-desktop",
  "xero",
  "sage-business-cloud-accounting",
  "sage-intacct",
  "netsuite",
  "freshbooks",
  "zoho-books",
  "myob",
  "freeagent",
] as const;
export type AccountingProviderId = (typeof ACCOUNTING_PROVIDER_IDS)[number];

// Shared requirement wording, so the page reads consistently across providers.
const ENCRYPTION_KEY: Requirement = {
  kind: "encryption_key",
  text: "Server encryption key configured, so access/refresh tokens are stored encrypted (none is stored until then).",
};
const oauthRedirect = (provider: string): Requirement => ({
  kind: "redirect_url",
  text: `OAuth redirect URL over HTTPS registered in the ${provider} app settings.`,
});
const HTTPS_CALLBACK: Requirement = {
  kind: "https_callback",
  text: "Public HTTPS callback endpoint reachable by the provider.",
};

const oauthDisabledReason = (provider: string, credentials: string): string =>
  `Connecting ${provider} is disabled: live OAuth waits for ${credentials}, a registered HTTPS redirect URL, a token encryption key and an HTTPS callback.`;

/** Every object pushed from this app to the ledger: the safe one-way default. */
function pushAll(names: Readonly<Record<AccountingObject, string>>): readonly SyncedObject[] {
  return ACCOUNTING_OBJECTS.map((object) => ({
    object,
    direction: DEFAULT_SYNC_DIRECTION,
    providerName: names[object],
  }));
}

export const ACCOUNTING_OBJECT_LABELS: Readonly<Record<AccountingObject, string>> = {
  customers: "Customers",
  items: "Items",
  invoices: "Invoices",
  payments: "Payments",
};

const base = {
  defaultDirection: DEFAULT_SYNC_DIRECTION,
  status: NOT_CONNECTED,
} as const;

export const ACCOUNTING_PROVIDERS: readonly AccountingProvider[] = [
  {
    ...base,
    id: "quickbooks-online",
    name: "QuickBooks Online",
    vendor: "Intuit",
    auth: {
      method: "oauth2",
      label: "OAuth 2.0 (Intuit)",
      detail:
        "Authorization-code flow against Intuit's OAuth 2.0 server with the com.intuit.quickbooks.accounting scope; the company is identified by its realm ID.",
    },
    regions: [
      { code: "US", name: "United States" },
      { code: "CA", name: "Canada" },
      { code: "GB", name: "United Kingdom" },
      { code: "AU", name: "Australia" },
    ],
    regionNote:
      "One global Accounting API (quickbooks.api.intuit.com; sandbox at sandbox-quickbooks.api.intuit.com); tax handling differs by country edition.",
    objects: pushAll({ customers: "Customer", items: "Item", invoices: "Invoice", payments: "Payment" }),
    requirements: [
      { kind: "client_credentials", text: "Intuit Developer account and app (client ID and client secret)." },
      oauthRedirect("Intuit"),
      ENCRYPTION_KEY,
      { kind: "sandbox", text: "QuickBooks Online sandbox company from the Intuit Developer portal." },
    ],
    disabledReason: oauthDisabledReason("QuickBooks Online", "Intuit app credentials"),
    docsUrl: "https://developer.intuit.com/app/developer/qbo/docs/get-started",
  },
  {
    ...base,
    id: "quickbooks-desktop",
    name: "QuickBooks Desktop",
    vendor: "Intuit",
    auth: {
      method: "web_connector",
      label: "QuickBooks Web Connector (no OAuth)",
      detail:
        "QuickBooks Desktop has no cloud API. The Windows Web Connector (QBWC) on the customer's QuickBooks PC is set up from a .qwc file and polls our SOAP endpoint with a per-company password; requests and responses are qbXML.",
    },
    regions: [
      { code: "US", name: "United States" },
      { code: "CA", name: "Canada" },
    ],
    regionNote:
      "Runs wherever the customer's QuickBooks Desktop (Pro, Premier, Enterprise) is installed; data moves only while that Windows PC and the Web Connector are running.",
    objects: pushAll({
      customers: "Customer",
      items: "Item (service / non-inventory)",
      invoices: "Invoice",
      payments: "ReceivePayment",
    }),
    requirements: [
      {
        kind: "https_callback",
        text: "Web Connector SOAP endpoint served over HTTPS (QBWC refuses plain HTTP except for localhost).",
      },
      {
        kind: "client_credentials",
        text: "Per-tenant .qwc file (AppID, OwnerID, FileID) and Web Connector password.",
      },
      {
        kind: "encryption_key",
        text: "Server encryption key configured, so the Web Connector password is stored encrypted (none is stored until then).",
      },
      {
        kind: "sandbox",
        text: "Test QuickBooks Desktop company file on a Windows machine with the Web Connector installed.",
      },
    ],
    disabledReason:
      "Connecting QuickBooks Desktop is disabled: the Web Connector link waits for an HTTPS SOAP endpoint, a generated .qwc file, an encryption key for its password and a test company file.",
    docsUrl:
      "https://developer.intuit.com/app/developer/qbdesktop/docs/get-started/get-started-with-quickbooks-web-connector",
  },
  {
    ...base,
    id: "xero",
    name: "Xero",
    vendor: "Xero Limited",
    auth: {
      method: "oauth2",
      label: "OAuth 2.0 (Xero Identity)",
      detail:
        "Authorization-code flow with accounting scopes plus offline_access for refresh tokens; each connected organisation is a tenant ID sent as the xero-tenant-id header.",
    },
    regions: [
      { code: "AU", name: "Australia" },
      { code: "NZ", name: "New Zealand" },
      { code: "GB", name: "United Kingdom" },
      { code: "US", name: "United States" },
      { code: "GLOBAL", name: "Other countries (global edition)" },
    ],
    regionNote: "One global Accounting API (api.xero.com); tax rates and reports follow the organisation's country.",
    objects: pushAll({ customers: "Contacts", items: "Items", invoices: "Invoices (ACCREC)", payments: "Payments" }),
    requirements: [
      { kind: "client_credentials", text: "Xero developer app (client ID and client secret)." },
      oauthRedirect("Xero"),
      ENCRYPTION_KEY,
      { kind: "sandbox", text: "Xero Demo Company connected to the developer app." },
    ],
    disabledReason: oauthDisabledReason("Xero", "Xero app credentials"),
    docsUrl: "https://developer.xero.com/documentation/",
  },
  {
    ...base,
    id: "sage-business-cloud-accounting",
    name: "Sage Business Cloud Accounting",
    vendor: "Sage",
    auth: {
      method: "oauth2",
      label: "OAuth 2.0 (Sage ID)",
      detail:
        "Authorization-code flow (the only flow Sage offers for this API); the user's country routes the sign-in, and the X-Business header picks which business is written.",
    },
    regions: [
      { code: "GB", name: "United Kingdom" },
      { code: "IE", name: "Ireland" },
      { code: "CA", name: "Canada" },
    ],
    regionNote:
      "Accounting API v3.1 serves UK, Ireland and Canada businesses; the product is no longer sold in Germany, France, Spain or the USA, and other regional Sage editions use different APIs.",
    objects: pushAll({
      customers: "Contacts (customer)",
      items: "Products / services",
      invoices: "Sales invoices",
      payments: "Contact payments",
    }),
    requirements: [
      { kind: "client_credentials", text: "Sage Developer app registration (client ID and client secret)." },
      oauthRedirect("Sage"),
      ENCRYPTION_KEY,
      { kind: "sandbox", text: "Sage Accounting trial business, extended for development, in each target country." },
    ],
    disabledReason: oauthDisabledReason("Sage Business Cloud Accounting", "Sage app credentials"),
    docsUrl: "https://developer.sage.com/accounting/",
  },
  {
    ...base,
    id: "sage-intacct",
    name: "Sage Intacct",
    vendor: "Sage",
    auth: {
      method: "web_services_credentials",
      label: "Web Services sender credentials + company user (not OAuth)",
      detail:
        "The XML Web Services API authenticates twice: our Web Services sender ID and password (from a Sage Web Services developer licence), which the customer authorises in Company > Security, plus a Web Services user ID, password and company ID created by the customer. Sage's newer REST API uses OAuth 2.0 and may replace this later.",
    },
    regions: [{ code: "GLOBAL", name: "Global (single Web Services endpoint)", host: "api.intacct.com" }],
    regionNote:
      "One endpoint for every market; multi-entity companies also need the entity (location) ID to post to a specific entity.",
    objects: pushAll({
      customers: "Customers (AR)",
      items: "Items",
      invoices: "AR invoices",
      payments: "AR payments",
    }),
    requirements: [
      {
        kind: "client_credentials",
        text: "Sage Intacct Web Services developer licence (sender ID and sender password).",
      },
      {
        kind: "customer_setup",
        text: "Customer authorises our sender ID and creates a Web Services user with AR permissions.",
      },
      {
        kind: "encryption_key",
        text: "Server encryption key configured, so the sender and Web Services user passwords are stored encrypted (none is stored until then).",
      },
      HTTPS_CALLBACK,
      { kind: "sandbox", text: "Sage Intacct sandbox or implementation company." },
    ],
    disabledReason:
      "Connecting Sage Intacct is disabled: it uses Web Services sender credentials and a company user, not OAuth, and waits for a developer licence, an encryption key for those passwords and HTTPS endpoints.",
    docsUrl: "https://developer.intacct.com/web-services/",
  },
  {
    ...base,
    id: "netsuite",
    name: "NetSuite",
    vendor: "Oracle",
    auth: {
      method: "token_based",
      label: "Token-based authentication (TBA)",
      detail:
        "OAuth 1.0a-signed requests using the consumer key/secret of an integration record plus a token ID/secret issued for a user in a TBA-enabled role. Works for SuiteTalk SOAP, REST and RESTlets; Oracle recommends OAuth 2.0 for new REST-only integrations.",
    },
    regions: [
      {
        code: "ACCOUNT",
        name: "Per-account data centre (account-specific domain)",
        host: "<accountId>.suitetalk.api.netsuite.com",
      },
    ],
    regionNote:
      "Oracle assigns each NetSuite account to a data centre; always use the account-specific domain rather than a regional host.",
    objects: pushAll({
      customers: "Customer",
      items: "Service / non-inventory item",
      invoices: "Invoice",
      payments: "Customer payment",
    }),
    requirements: [
      {
        kind: "client_credentials",
        text: "Integration record with Token-based Authentication enabled (consumer key and consumer secret).",
      },
      {
        kind: "customer_setup",
        text: "Customer enables the TBA feature, grants a role with TBA permission and issues an access token (token ID and secret).",
      },
      {
        kind: "encryption_key",
        text: "Server encryption key configured, so consumer and token secrets are stored encrypted (none is stored until then).",
      },
      HTTPS_CALLBACK,
      { kind: "sandbox", text: "NetSuite sandbox or developer account (production tokens do not work in sandbox)." },
    ],
    disabledReason:
      "Connecting NetSuite is disabled: token-based authentication waits for integration-record credentials, customer-issued tokens, an encryption key for those secrets and HTTPS endpoints.",
    docsUrl: "https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/chapter_4247329078.html",
  },
  {
    ...base,
    id: "freshbooks",
    name: "FreshBooks",
    vendor: "FreshBooks",
    auth: {
      method: "oauth2",
      label: "OAuth 2.0 (FreshBooks)",
      detail: "Authorization-code flow; the account ID of the connected business scopes every accounting call.",
    },
    regions: [
      { code: "US", name: "United States" },
      { code: "CA", name: "Canada" },
      { code: "GB", name: "United Kingdom" },
      { code: "AU", name: "Australia" },
      { code: "GLOBAL", name: "Other countries" },
    ],
    regionNote: "One global API (api.freshbooks.com) for all countries.",
    objects: pushAll({ customers: "Clients", items: "Items", invoices: "Invoices", payments: "Payments" }),
    requirements: [
      { kind: "client_credentials", text: "FreshBooks developer app (client ID and client secret)." },
      oauthRedirect("FreshBooks"),
      ENCRYPTION_KEY,
      { kind: "sandbox", text: "FreshBooks test account (FreshBooks has no separate sandbox host)." },
    ],
    disabledReason: oauthDisabledReason("FreshBooks", "FreshBooks app credentials"),
    docsUrl: "https://www.freshbooks.com/api/start",
  },
  {
    ...base,
    id: "zoho-books",
    name: "Zoho Books",
    vendor: "Zoho Corporation",
    auth: {
      method: "oauth2",
      label: "OAuth 2.0 (Zoho Accounts)",
      detail:
        "Authorization-code flow against the Zoho Accounts server of the customer's data centre; every call also needs the organization_id of the chosen organisation.",
    },
    regions: [
      { code: "com", name: "United States", host: "www.zohoapis.com" },
      { code: "eu", name: "Europe", host: "www.zohoapis.eu" },
      { code: "in", name: "India", host: "www.zohoapis.in" },
      { code: "com.au", name: "Australia", host: "www.zohoapis.com.au" },
      { code: "jp", name: "Japan", host: "www.zohoapis.jp" },
      { code: "ca", name: "Canada", host: "www.zohoapis.ca" },
      { code: "sa", name: "Saudi Arabia", host: "www.zohoapis.sa" },
      { code: "com.cn", name: "China", host: "www.zohoapis.com.cn" },
    ],
    regionNote:
      "Data is held in the data centre the organisation signed up in; tokens and API calls must use that data centre's domain (multi-DC must be enabled on the client).",
    objects: pushAll({
      customers: "Contacts (customer)",
      items: "Items",
      invoices: "Invoices",
      payments: "Customer payments",
    }),
    requirements: [
      {
        kind: "client_credentials",
        text: "Zoho API Console server-based client (client ID and client secret) with multi-DC enabled.",
      },
      oauthRedirect("Zoho API Console"),
      ENCRYPTION_KEY,
      { kind: "sandbox", text: "Zoho Books test organisation." },
    ],
    disabledReason: oauthDisabledReason("Zoho Books", "Zoho client credentials"),
    docsUrl: "https://www.zoho.com/books/api/v3/",
  },
  {
    ...base,
    id: "myob",
    name: "MYOB",
    vendor: "MYOB",
    auth: {
      method: "oauth2",
      label: "OAuth 2.0 (my.MYOB) + company file sign-in",
      detail:
        "Cloud company files: OAuth 2.0 via secure.myob.com with our API key, then the company file's own user credentials in the x-myobapi-cftoken header. The MYOB Business API and the older AccountRight API are the same API; locally hosted (desktop) files are not supported.",
    },
    regions: [
      { code: "AU", name: "Australia" },
      { code: "NZ", name: "New Zealand" },
    ],
    regionNote: "MYOB Business / AccountRight is sold in Australia and New Zealand; one API host (api.myob.com).",
    objects: pushAll({
      customers: "Customer contacts",
      items: "Items",
      invoices: "Sale invoices",
      payments: "Customer payments",
    }),
    requirements: [
      { kind: "client_credentials", text: "MYOB developer partner registration (API key and secret)." },
      oauthRedirect("MYOB developer"),
      {
        kind: "encryption_key",
        text: "Server encryption key configured, so OAuth tokens and company file credentials are stored encrypted (none is stored until then).",
      },
      { kind: "sandbox", text: "Developer sandbox company file supplied by MYOB." },
    ],
    disabledReason: oauthDisabledReason("MYOB", "MYOB API keys"),
    docsUrl: "https://developer.myob.com/api/myob-business-api/",
  },
  {
    ...base,
    id: "freeagent",
    name: "FreeAgent",
    vendor: "FreeAgent (NatWest Group)",
    auth: {
      method: "oauth2",
      label: "OAuth 2.0 (FreeAgent)",
      detail: "Authorization-code flow; one app works for production and the sandbox (api.sandbox.freeagent.com).",
    },
    regions: [{ code: "GB", name: "United Kingdom", host: "api.freeagent.com" }],
    regionNote: "Built for UK freelancers and small businesses (MTD VAT, Self Assessment).",
    objects: pushAll({
      customers: "Contacts",
      items: "Price list items",
      invoices: "Invoices",
      payments: "Bank transaction explanations",
    }),
    requirements: [
      { kind: "client_credentials", text: "FreeAgent Developer Dashboard app (OAuth identifier and secret)." },
      oauthRedirect("FreeAgent"),
      ENCRYPTION_KEY,
      { kind: "sandbox", text: "FreeAgent sandbox account (api.sandbox.freeagent.com)." },
    ],
    disabledReason: oauthDisabledReason("FreeAgent", "FreeAgent app credentials"),
    docsUrl: "https://dev.freeagent.com/docs",
  },
];

const BY_ID: ReadonlyMap<string, AccountingProvider> = new Map(ACCOUNTING_PROVIDERS.map((p) => [p.id, p]));

export function isAccountingProviderId(value: unknown): value is AccountingProviderId {
  return typeof value === "string" && BY_ID.has(value);
}

export function getAccountingProvider(id: string): AccountingProvider | undefined {
  return BY_ID.get(id);
}
