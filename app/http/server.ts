/**
 * The production server: validates configuration, starts the embedded PostgreSQL when no
 * DATABASE_URL is set, applies migrations, then serves the Remix app on node:http.
 * Compiled together with the app into build/index.js (remix.config.js `server`).
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { createRequestHandler, json } from "@remix-run/node";
import * as build from "@remix-run/dev/server-build";
import serveStatic from "serve-static";
import { ConfigError, env } from "~/utils/env.server";
import { log } from "~/utils/log.server";
import { closeDb, db } from "../../db/index";
import { startEmbedded, type EmbeddedDb } from "../../db/embedded";
import { migrateUp } from "../../db/migrate";
import { APP_ROLE } from "../../db/migrations/0009-row-level-security";
import { drainRequest, toFetchRequest, sendFetchResponse } from "./node-adapter.server";
import { knownApiPath, unknownApiBody } from "./api-routes.server";
import { newNonce, securityHeaders } from "./security-headers.server";
import { apiFallback } from "./api-fallback.server";
import { withOutagePages } from "./page.server";
import { checkOrigin, crossSitePage, CROSS_SITE_MESSAGE, isJsonRoute } from "./origin.server";

const REQUEST_ID_RE = /^[\w.:-]{1,100}$/;

async function main() {
  let config;
  try {
    config = env();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let embedded: EmbeddedDb | undefined;
  if (!config.DATABASE_URL) {
    embedded = await startEmbedded(path.join(config.DATA_DIR, "pg"));
    process.env.DATABASE_URL = embedded.url;
  }
  // The migrator holds its lock on one connection and migrates on another: it needs a pool of
  // two even when DB_POOL_MAX is 1 (docs/decisions/081).
  const poolMax = process.env.DB_POOL_MAX;
  if (poolMax !== undefined && Number(poolMax) < 2) process.env.DB_POOL_MAX = "2";
  await migrateUp(db());
  // Migrations ran as the owner; requests run as the app role, under row-level security.
  await closeDb();
  if (poolMax !== undefined) process.env.DB_POOL_MAX = poolMax;
  process.env.DB_SET_ROLE = APP_ROLE;

  const handle = createRequestHandler(withOutagePages(build), build.mode);
  const isKnownApi = knownApiPath(build.routes);
  const production = config.NODE_ENV === "production";
  const assets = serveStatic("public/build", { immutable: true, maxAge: "1y", index: false, fallthrough: true });
  const publicFiles = serveStatic("public", { maxAge: "1h", index: false, fallthrough: true });
  const publicNames = new Set(
    fs.readdirSync("public", { withFileTypes: true }).filter((e) => e.isFile()).map((e) => `/${e.name}`),
  );
  const origin = `http://${config.HOST === "0.0.0.0" ? "localhost" : config.HOST}:${config.PORT}`;
  const appOrigin = new URL(config.APP_URL).origin;

  const server = http.createServer((req, res) => {
    const incoming = req.headers["x-request-id"];
    const requestId = typeof incoming === "string" && REQUEST_ID_RE.test(incoming) ? incoming : randomUUID();
    req.headers["x-request-id"] = requestId;
    req.headers["x-client-ip"] = (req.socket.remoteAddress ?? "unknown").replace(/^::ffff:/, "");
    res.setHeader("X-Request-Id", requestId);
    const nonce = newNonce();
    const headers = securityHeaders(nonce, production);

    const url = req.url ?? "/";
    if (checkOrigin(req, appOrigin) === "cross") {
      const api = isJsonRoute(url);
      const body = api
        ? JSON.stringify({ success: false, error: { code: "CSRF_INVALID", message: CROSS_SITE_MESSAGE, fields: {} }, meta: { requestId } })
        : crossSitePage();
      res.writeHead(403, { ...headers, "content-type": api ? "application/json; charset=utf-8" : "text/html; charset=utf-8", "cache-control": "no-store", connection: "close" });
      res.end(body);
      req.resume();
      return;
    }
    if (url.startsWith("/api/") && !isKnownApi(url.split("?", 1)[0])) {
      const body = req.method === "HEAD" ? "" : unknownApiBody(requestId);
      res.writeHead(404, {
        ...headers,
        "content-type": "application/json; charset=utf-8",
        "cache-control": "no-store",
        "content-length": Buffer.byteLength(body),
      });
      if (!req.complete) drainRequest(req);
      res.end(body);
      return;
    }
    const serveRemix = () => {
      const request = toFetchRequest(req, res, origin);
      handle(request, { nonce, requestId })
        .then((response) => apiFallback(request, response))
        .catch((error) => {
          log.error("request failed", { requestId, error });
          return apiFallback(request, json({ message: "Unexpected Server Error" }, { status: 500 }));
        })
        .then((response) => sendFetchResponse(res, response, headers))
        .catch((error) => {
          log.error("response failed", { requestId, error });
          if (!res.headersSent) res.writeHead(500).end();
          else res.destroy();
        });
    };
    if ((req.method === "GET" || req.method === "HEAD") && !url.startsWith("/api/")) {
      if (url.startsWith("/build/")) {
        req.url = url.slice("/build".length);
        return assets(req, res, () => {
          req.url = url;
          serveRemix();
        });
      }
      // Only the files public/ holds go through serve-static (a stat per request otherwise).
      if (publicNames.has(url.split("?", 1)[0])) return publicFiles(req, res, serveRemix);
    }
    serveRemix();
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 120_000;

  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const { port } = server.address() as { port: number };
  log.info("listening", { url: `http://localhost:${port}`, database: embedded ? "embedded" : "DATABASE_URL" });
  if (process.send) process.send({ ready: true, port });
  else console.log(`Field service app ready on http://localhost:${port}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("stopping", { signal });
    server.close();
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 5_000).unref();
    await closeDb().catch(() => {});
    await embedded?.stop().catch(() => {});
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error) => {
  console.error("The server could not start:", error);
  process.exit(1);
});
