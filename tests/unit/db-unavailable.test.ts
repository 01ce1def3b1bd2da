// Which database errors answer 503 (the client may retry) rather than 500 (docs/decisions/081).
import assert from "node:assert/strict";
import { test } from "node:test";
import { ConnectionAcquireTimeoutError, ConnectionRefusedError, DatabaseError, UniqueConstraintError } from "sequelize";
import { isDbUnavailable, toAppError } from "../../app/http/envelope.server";

/** An error as node-postgres raises it, wrapped as Sequelize wraps a failed query. */
const failedQuery = (message: string, code?: string) =>
  new DatabaseError(Object.assign(new Error(message), code ? { code } : {}) as never);

test("unreachable, shutting down, dropped or exhausted: unavailable (503 INTERNAL_ERROR with Retry-After)", () => {
  const refused = new ConnectionRefusedError(
    Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
  );
  const cases = [
    refused,
    new ConnectionAcquireTimeoutError(new Error("Operation timeout")),
    failedQuery("terminating connection due to administrator command", "57P01"),
    failedQuery("the database system is starting up", "57P03"),
    failedQuery("Connection terminated unexpectedly"),
    failedQuery("Client has encountered a connection error and is not queryable"),
    Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
  ];
  for (const error of cases) {
    assert.equal(isDbUnavailable(error), true, String(error));
    const mapped = toAppError(error);
    assert.equal(mapped.status, 503);
    assert.equal(mapped.code, "INTERNAL_ERROR");
    assert.ok(Number(new Headers(mapped.headers).get("retry-after")) > 0);
  }
});

test("an error of the query or the data is not an outage", () => {
  const cases = [
    failedQuery("duplicate key value violates unique constraint", "23505"),
    failedQuery("Connection terminated by a trigger", "P0001"), // a SQLSTATE: the database answered
    new UniqueConstraintError({}),
  ];
  for (const error of cases) assert.equal(isDbUnavailable(error), false, String(error));
  assert.equal(isDbUnavailable(new TypeError("x is undefined")), false);
});

test("every page loader and action of the build maps an outage to the 503 page; a JSON route answers the 503 envelope", async () => {
  const { withOutagePages } = await import("../../app/http/page.server");
  const outage = () => Promise.reject(failedQuery("Connection terminated unexpectedly"));
  const bug = () => Promise.reject(new Error("a bug"));
  const build = {
    routes: {
      "routes/customers._index": {
        id: "routes/customers._index",
        path: "customers",
        module: { loader: outage, action: outage },
      },
      "routes/jobs._index": { id: "routes/jobs._index", path: "jobs", module: { loader: bug } },
      "routes/api.offline-sync": {
        id: "routes/api.offline-sync",
        path: "api/offline-sync",
        // A JSON route says so in its handle (docs/decisions/265).
        module: { action: outage, handle: { reply: "json" } },
      },
    },
  } as never;
  const wrapped = withOutagePages(build) as unknown as {
    routes: Record<
      string,
      { module: { loader?: (a: unknown) => Promise<unknown>; action?: (a: unknown) => Promise<unknown> } }
    >;
  };
  const args = () => ({ request: new Request("http://localhost/x", { method: "POST" }), params: {}, context: {} });
  for (const fn of [
    wrapped.routes["routes/customers._index"].module.loader!,
    wrapped.routes["routes/customers._index"].module.action!,
  ]) {
    const thrown = await fn(args()).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(thrown instanceof Response, "a page answer, not a crash");
    assert.equal(thrown.status, 503);
    assert.match((await thrown.json()).message, /briefly unavailable/i);
  }
  await assert.rejects(wrapped.routes["routes/jobs._index"].module.loader!(args()), /a bug/, "other errors stay 500s");
  const api = (await wrapped.routes["routes/api.offline-sync"].module.action!(args())) as Response;
  assert.equal(api.status, 503);
  assert.equal((await api.json()).error.code, "INTERNAL_ERROR");
});
