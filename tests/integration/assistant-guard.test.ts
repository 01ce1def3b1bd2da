// Every role has `use_ai_assistant`, so no real user can be refused. To prove the page and the
// route still check it, this file loads both route modules in the test process, takes the
// permission away from the technician role in the (in-memory) matrix, and calls them with a
// real signed-in technician's request (session row and CSRF token as the server makes them).
import assert from "node:assert/strict";
import { register } from "node:module";
import { after, before, describe, test } from "node:test";
import { ROLE_PERMISSIONS, type Permission } from "../../app/utils/permissions";
import { BASE_URL, clientFor, type Client } from "../helpers/client";
import { createTenantWithUsers } from "../helpers/fixtures";

// The page module reaches the root route, which imports the stylesheet: give Node an empty module for it.
register(
  `data:text/javascript,${encodeURIComponent(
    `export async function resolve(s, c, next) { return s.endsWith(".css") ? { url: "data:text/javascript,export default ''", shortCircuit: true } : next(s, c); }`,
  )}`,
);

type RouteArgs = { request: Request; params: Record<string, string>; context: Record<string, unknown> };
type RouteFn = (args: RouteArgs) => Promise<Response | unknown>;

describe("the use_ai_assistant permission guards the page and the route", () => {
  let generate: RouteFn;
  let page: RouteFn;
  let c: Client;
  let csrf: string;
  const technician = ROLE_PERMISSIONS.technician as Set<Permission>;

  before(async () => {
    generate = (await import("../../app/routes/ai-assistant.generate")).action as RouteFn;
    page = (await import("../../app/routes/ai-assistant._index")).loader as RouteFn;
    const t = await createTenantWithUsers();
    c = await clientFor(t.users.technician);
    csrf = await c.csrf();
  });
  after(() => {
    technician.add("use_ai_assistant");
  });

  const post = () =>
    new Request(new URL("/ai-assistant/generate", BASE_URL), {
      method: "POST",
      headers: {
        cookie: c.cookieHeader(),
        origin: new URL(BASE_URL).origin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ _csrf: csrf, mode: "quote", job_title: "Water heater" }),
    });
  const get = () => new Request(new URL("/ai-assistant", BASE_URL), { headers: { cookie: c.cookieHeader() } });
  const call = (fn: RouteFn, request: Request) =>
    fn({ request, params: {}, context: {} }).catch((thrown: unknown) => thrown);

  test("with the permission, the technician is served", async () => {
    const res = (await call(generate, post())) as Response;
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { data: { engine: string } }).data.engine, "local-rules");
    const pageRes = (await call(page, get())) as Response;
    assert.equal(pageRes.status, 200);
  });

  test("without it, the route answers 403 FORBIDDEN and the page throws the 403 page", async () => {
    technician.delete("use_ai_assistant");
    try {
      const res = (await call(generate, post())) as Response;
      assert.equal(res.status, 403);
      const body = (await res.json()) as { success: boolean; error: { code: string; fields: object } };
      assert.equal(body.success, false);
      assert.equal(body.error.code, "FORBIDDEN");
      assert.deepEqual(body.error.fields, {});

      const thrown = await call(page, get());
      assert.ok(thrown instanceof Response, "the page loader throws a response");
      assert.equal(thrown.status, 403);
    } finally {
      technician.add("use_ai_assistant");
    }
  });
});
