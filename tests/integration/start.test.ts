import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { Client } from "../helpers/client";
import { startServer } from "../helpers/server";

test("with no DATABASE_URL the server starts an embedded PostgreSQL whose data survives a restart", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldservice-start-"));
  fs.chmodSync(dataDir, 0o755);
  const env = { DATABASE_URL: undefined, DATA_DIR: dataDir, SESSION_SECRET: undefined, PORTAL_TOKEN_SECRET: undefined };
  const email = `restart-${Date.now()}@example.test`;
  try {
    let server = await startServer(env);
    try {
      const health = await fetch(`${server.url}/healthz`);
      assert.equal(health.status, 200);
      assert.equal((await health.json()).data.status, "ok");
      const c = new Client(server.url);
      const res = await c.post("/signup", { businessName: "Persistent Plumbing", name: "Pat", email, password: "a-long-password-1" });
      assert.equal(res.status, 303);
    } finally {
      await server.stop();
    }
    assert.ok(fs.existsSync(path.join(dataDir, "pg", "PG_VERSION")), "the cluster lives in DATA_DIR/pg");
    assert.ok(fs.existsSync(path.join(dataDir, "secrets.json")), "development secrets are kept in DATA_DIR");
    server = await startServer(env);
    try {
      const c = new Client(server.url);
      const login = await c.post("/login", { email, password: "a-long-password-1" });
      assert.equal(login.status, 303, "the tenant signed up before the restart can sign in");
      const dash = await c.get("/");
      assert.match(await dash.text(), /Persistent Plumbing/);
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("in production the session cookie is Secure and __Host- prefixed; a missing secret stops the start", async () => {
  const server = await startServer({ NODE_ENV: "production" });
  try {
    const c = new Client(server.url);
    const res = await c.get("/login");
    const cookie = res.headers.getSetCookie().find((s) => s.startsWith("__Host-csrf="));
    assert.ok(cookie, "the pre-login cookie is __Host- prefixed");
    assert.match(cookie!, /Secure/);
    assert.match(cookie!, /HttpOnly/);
    assert.match(res.headers.get("strict-transport-security") ?? "", /max-age=/);
  } finally {
    await server.stop();
  }
  await assert.rejects(startServer({ NODE_ENV: "production", SESSION_SECRET: undefined }), /SESSION_SECRET: required in production/);
});
