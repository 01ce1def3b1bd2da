// Loaded into the remix-serve process (NODE_OPTIONS=--import, set by scripts/start.ts and the
// test helper) before remix-serve creates its HTTP server. It does only what a Remix app cannot
// do from inside, because remix-serve hands the app a Fetch Request and nothing of the
// connection (docs/decisions/111):
//
// - the peer address, as `x-client-ip` (a client's own header is dropped): the per-IP limits of
//   the rate limits and sign-in key on it;
// - the Origin of a non-GET request, before Remix's own check (which answers a bare 500 when
//   Origin and Host differ): a cross-site request is 403 (the page, or the envelope on JSON
//   routes); our public APP_URL behind a proxy that rewrote Host is passed on as
//   X-Forwarded-Host (a client's own X-Forwarded-Host is never trusted);
// - a request body still unread when the answer is sent (a 413, 401 or 403 refuses it unread)
//   is read and dropped, up to a bound, so the client finishes sending and reads the answer
//   instead of a connection reset;
// - keep-alive and request timeouts, and a graceful stop on SIGTERM / SIGINT (in-flight
//   requests finish, and the app's stop hooks such as the e-mail worker's; long-lived event
//   streams are cut after 5 s).
//
// The app's own guards (CSRF token with Origin, body limits, request id, CSP nonce) live in
// the app; this file holds no business rule.
import http from "node:http";
import { installRouteMatchCache } from "./route-match-cache.mjs";

// Route matching without re-ranking the route tree per request (docs/decisions/114).
installRouteMatchCache();

/**
 * remix-serve logs one line per request on stdout (morgan "tiny", not configurable), and a
 * process's stdout is written synchronously when it is a pipe or a file (a service manager,
 * a container, the test helper): one blocking write per request, and a slow reader of the log
 * stalls every request. Lines written in the same few milliseconds go out together instead
 * (at most STDOUT_DELAY_MS later, or at once past 64 KiB); what is pending is written before
 * any other kind of write (a Buffer, a write with a callback) and when the process exits.
 * Errors go to stderr, which stays as it is. docs/decisions/114.
 */
const STDOUT_DELAY_MS = 20;
function batchStdout(out) {
  const write = out.write.bind(out);
  let pending = "";
  let timer;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    const text = pending;
    pending = "";
    write(text);
  };
  out.write = function (chunk, encoding, callback) {
    if (typeof chunk !== "string" || encoding !== undefined || callback !== undefined) {
      flush();
      return write(chunk, encoding, callback);
    }
    pending += chunk;
    if (pending.length >= 64 * 1024) flush();
    else timer ??= setTimeout(flush, STDOUT_DELAY_MS).unref();
    return true;
  };
  process.on("exit", flush);
}
batchStdout(process.stdout);

const DRAIN_LIMIT = 16 * 1024 * 1024;
const appUrl = process.env.APP_URL || `http://localhost:${process.env.PORT ?? 3000}`;
const appOrigin = new URL(appUrl).origin;

/** "cross" for a state-changing request from another site; fixes up a proxied Host. */
function checkOrigin(req) {
  delete req.headers["x-forwarded-host"];
  // Portal forms and billing webhooks authenticate by token or signature, not by origin; a
  // portal page sends Referrer-Policy: no-referrer, which makes browsers post `Origin: null`.
  if (/^\/api\/(portal|billing)\//.test(req.url ?? "")) {
    delete req.headers.origin;
    return "same";
  }
  const method = req.method ?? "GET";
  const origin = req.headers.origin;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS" || origin === undefined || origin === "")
    return "same";
  if (origin === "null") return "cross";
  let originHost;
  try {
    originHost = new URL(origin).host;
  } catch {
    return "cross";
  }
  if (originHost === req.headers.host) return "same";
  if (origin === appOrigin) {
    req.headers["x-forwarded-host"] = originHost;
    return "same";
  }
  return "cross";
}

const MESSAGE = "Cross-site requests are not accepted.";
const isJsonRoute = (url) => /^\/(api\/(?!portal\/)|ai-assistant\/generate\b)/.test(url);

function refuseCrossSite(req, res) {
  const json = isJsonRoute(req.url ?? "/");
  const body = json
    ? JSON.stringify({
        success: false,
        error: { code: "CSRF_INVALID", message: MESSAGE, fields: {} },
        meta: { requestId: "" },
      })
    : `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Request refused</title></head>` +
      `<body><main><h1>Request refused</h1><p>${MESSAGE} Go back to the page and try again.</p></main></body></html>`;
  res.writeHead(403, {
    "content-type": json ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    connection: "close",
  });
  res.end(body);
  drain(req);
}

/** Reads and drops what is left of a request body (past the bound, the connection is cut). */
function drain(req) {
  if (req.complete) return;
  req.removeAllListeners("data");
  let discarded = 0;
  req.on("data", (chunk) => {
    discarded += chunk.byteLength;
    if (discarded > DRAIN_LIMIT) req.destroy();
  });
  req.resume();
}

function onRequest(req, res) {
  req.headers["x-client-ip"] = (req.socket.remoteAddress ?? "unknown").replace(/^::ffff:/, "");
  if (checkOrigin(req) === "cross") {
    // Answered here: no other listener sees this request.
    res.stopped = true;
    refuseCrossSite(req, res);
    return;
  }
  res.once("finish", () => drain(req));
}

const servers = new Set();
const createServer = http.createServer;
http.createServer = function (...args) {
  const server = createServer.apply(this, args);
  // Runs before express; a refused request is kept from it.
  const emit = server.emit;
  server.emit = function (event, req, res) {
    if (event === "request") {
      onRequest(req, res);
      if (res.stopped) return true;
    }
    return emit.apply(this, [event, req, res]);
  };
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 120_000;
  servers.add(server);
  return server;
};

// What the app must finish before the process ends (the e-mail worker's held messages): the
// app adds async functions to this set; a stop waits for them and for the HTTP servers.
const stopHooks = (globalThis.__stopHooks ??= new Set());

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  const closed = [...servers].map((server) => {
    const done = new Promise((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    return done;
  });
  const hooks = [...stopHooks].map((hook) =>
    Promise.resolve()
      .then(hook)
      .catch((error) => console.error("stop hook failed:", error)),
  );
  Promise.all([...closed, ...hooks]).then(() => process.exit(0));
  setTimeout(() => {
    for (const server of servers) server.closeAllConnections();
    process.exit(0);
  }, 5_000).unref();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
