import { createCookie } from "@remix-run/node";
import { createSession } from "../../app/services/accounts/sessions.server";

/** The shared server the runner started (tests/run.ts sets BASE_URL). */
export const BASE_URL = process.env.BASE_URL ?? "http://localhost:3000";

type Body = Record<string, string | number | boolean | undefined | null> | FormData | string;

/**
 * A small HTTP client with a cookie jar, like a browser without JavaScript: redirects are
 * not followed (tests assert them), POSTs carry a same-origin Origin header unless told not to.
 */
export class Client {
  cookies = new Map<string, string>();
  /** When set, every request is aborted after this long (fault tests: no request may hang). */
  timeoutMs?: number;
  constructor(readonly base = BASE_URL) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private store(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    method: string,
    path: string,
    init: { body?: Body; headers?: Record<string, string>; json?: unknown } = {},
  ) {
    const headers = new Headers(init.headers);
    if (this.cookies.size && !headers.has("cookie")) headers.set("cookie", this.cookieHeader());
    let body: BodyInit | undefined;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    } else if (typeof init.body === "string") {
      body = init.body;
    } else if (init.body instanceof FormData) {
      body = init.body;
    } else if (init.body) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(init.body)) if (v !== undefined && v !== null) params.append(k, String(v));
      body = params;
    }
    if (method !== "GET" && method !== "HEAD" && !headers.has("origin"))
      headers.set("origin", new URL(this.base).origin);
    const signal = this.timeoutMs ? AbortSignal.timeout(this.timeoutMs) : undefined;
    const res = await fetch(new URL(path, this.base), { method, headers, body, redirect: "manual", signal });
    this.store(res);
    return res;
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request("GET", path, { headers });
  }

  /** A form post; `_csrf` is added from a page of this session unless the body sets it. */
  async post(path: string, body: Body = {}, opts: { headers?: Record<string, string>; csrf?: boolean } = {}) {
    if (opts.csrf !== false && !(body instanceof FormData) && typeof body !== "string" && !("_csrf" in body)) {
      body = { ...body, _csrf: await this.csrf() };
    }
    if (opts.csrf !== false && body instanceof FormData && !body.has("_csrf")) body.set("_csrf", await this.csrf());
    return this.request("POST", path, { body, headers: opts.headers });
  }

  postJson(path: string, json: unknown, headers?: Record<string, string>) {
    return this.request("POST", path, { json, headers });
  }

  /** The CSRF token the app renders for this browser (taken from the login page's form). */
  async csrf(): Promise<string> {
    const html = await (await this.get("/login")).text();
    const m = html.match(/name="_csrf" value="([^"]+)"/);
    if (m) return m[1];
    const page = await (await this.get("/ai-assistant")).text();
    const m2 = page.match(/name="_csrf" value="([^"]+)"/);
    if (!m2) throw new Error("no CSRF token found on the page");
    return m2[1];
  }
}

export const SESSION_SECRET = process.env.SESSION_SECRET ?? "test-session-secret-0123456789abcdef";

/**
 * A client already signed in as `user` (a session row made directly, as login would). A
 * production server names the cookie with the `__Host-` prefix (app/utils/cookies.server.ts).
 */
export async function clientFor(
  user: { tenantId: string; id: string },
  base = BASE_URL,
  opts: { production?: boolean } = {},
): Promise<Client> {
  const token = await createSession(user.tenantId, user.id);
  const secrets = (process.env.SESSION_SECRET ?? SESSION_SECRET).split(",");
  const name = opts.production ? "__Host-session" : "__session";
  const cookie = createCookie(name, { secrets, path: "/" });
  const c = new Client(base);
  const serialized = await cookie.serialize(token);
  c.cookies.set(name, serialized.split(";")[0].split("=").slice(1).join("="));
  return c;
}

/** The JSON envelope of a response. */
export async function envelope(res: Response) {
  return (await res.json()) as {
    success: boolean;
    data?: any;
    error?: { code: string; message: string; fields: Record<string, string[]> };
    meta: { requestId: string };
  };
}
