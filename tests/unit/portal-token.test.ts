import assert from "node:assert/strict";
import { test } from "node:test";
import { resetEnvCache } from "../../app/utils/env.server";
import { signPortalToken, verifyPortalToken } from "../../app/services/portal/links.server";

const tenantId = "0b9f6c1e-8d4a-4a5e-9d1c-2f3e4a5b6c7d";
const linkId = "7c6b5a4e-3f2e-4d1c-9a8b-7e6d5c4b3a21";

test("a portal token names its tenant and link and verifies; forged, tampered and truncated tokens do not", () => {
  process.env.PORTAL_TOKEN_SECRET = "first-secret-0123456789abcdef";
  resetEnvCache();
  const token = signPortalToken(tenantId, linkId);
  assert.deepEqual(verifyPortalToken(token), { tenantId, linkId });
  const [payload, sig] = token.split(".");
  const flipped = payload.slice(0, -2) + (payload.at(-2) === "A" ? "B" : "A") + payload.at(-1);
  assert.equal(verifyPortalToken(`${flipped}.${sig}`), null, "tampered payload");
  assert.equal(verifyPortalToken(`${payload}.${sig.slice(0, -1)}x`), null, "tampered signature");
  assert.equal(verifyPortalToken(payload), null, "no signature");
  assert.equal(verifyPortalToken(`${token}.x`), null, "extra part");
  assert.equal(verifyPortalToken(""), null);
  assert.ok(!token.includes(tenantId) && !token.includes(linkId));
});

test("portal tokens survive a secret rotation and die with a removed secret", () => {
  process.env.PORTAL_TOKEN_SECRET = "first-secret-0123456789abcdef";
  resetEnvCache();
  const old = signPortalToken(tenantId, linkId);
  process.env.PORTAL_TOKEN_SECRET = "second-secret-0123456789abcdef,first-secret-0123456789abcdef";
  resetEnvCache();
  assert.deepEqual(verifyPortalToken(old), { tenantId, linkId });
  process.env.PORTAL_TOKEN_SECRET = "second-secret-0123456789abcdef";
  resetEnvCache();
  assert.equal(verifyPortalToken(old), null);
});
