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

/**
 * Where the app's build (app/server.ts) registers what the early checks need to know of its
 * routes (each URL's route rules: the `handle` of the route it reaches) and its background work
 * (the e-mail worker, reminders, cleanup), which this process starts once, when its HTTP server
 * listens. The build stops the process when this is missing, so the server never runs without
 * these checks. Under `npm run dev` a new build registers again: its rules replace the old.
 */
const app = { rulesFor: () => ({}), startBackground: () => {}, admitWork: async () => null };
let backgroundStarted = false;
globalThis[Symbol.for("fieldwork.serve-hooks")] = {
  register(registered) {
    app.rulesFor = registered.rulesFor;
    app.startBackground = registered.startBackground;
    app.admitWork = registered.admitWork;
  },
};

const DRAIN_LIMIT = 16 * 1024 * 1024;
const appUrl = process.env.APP_URL || `http://localhost:${process.env.PORT ?? 3000}`;
const appOrigin = new URL(appUrl).origin;

/** "cross" for a state-changing request from another site; fixes up a proxied Host. */
function checkOrigin(req) {
  delete req.headers["x-forwarded-host"];
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

/** The path of a request's URL (the router decodes it as it matches). */
function pathOf(req) {
  const url = req.url ?? "/";
  const end = url.search(/[?#]/);
  return end < 0 ? url : url.slice(0, end);
}

function refuseCrossSite(req, res, rules) {
  const json = rules.reply === "json";
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

const LEASE_HEADER = "x-fieldwork-work-lease";

function onRequest(req, res) {
  req.headers["x-client-ip"] = (req.socket.remoteAddress ?? "unknown").replace(/^::ffff:/, "");
  // Set only by the share check below (the app's boundary trusts it).
  delete req.headers[LEASE_HEADER];
  const rules = app.rulesFor(pathOf(req));
  if (checkOrigin(req) === "cross") {
    if (rules.csrf) {
      // The route authenticates by a token or a signature, not by origin (a portal page sends
      // Referrer-Policy: no-referrer, which makes browsers post `Origin: null`).
      delete req.headers.origin;
    } else {
      // Answered here: no other listener sees this request.
      res.stopped = true;
      refuseCrossSite(req, res, rules);
      return;
    }
  }
  res.once("finish", () => drain(req));
  return rules;
}

/**
 * A request whose route declares expensive work takes its tenant's share here, before express
 * and Remix see it: over the share it is answered 429 at once (the app builds the answer), so
 * a flood of refusals costs a session lookup and one statement each, not a page render. The
 * lease is released when the answer ends. Returns true when the request was answered here.
 */
async function admit(req, res, rules) {
  let admission;
  try {
    admission = await app.admitWork(req, rules);
  } catch (error) {
    // The boundary takes the share itself (and maps an outage to its page).
    console.error("share check failed:", error);
    return false;
  }
  if (!admission) return false;
  if (admission.kind === "admit") {
    if (req.socket.destroyed) {
      // The client left while its share was taken (after waiting in its tenant's line, say):
      // the answer's "close" has already fired, so the slot and the lease are freed here.
      void admission.release().catch(() => {});
      return true;
    }
    // The app's boundary releases the lease when the loader or action ends; this covers a
    // request that never reached it (released twice is harmless).
    res.once("close", () => void admission.release().catch(() => {}));
    return false;
  }
  res.writeHead(admission.status, { ...admission.headers, "content-length": Buffer.byteLength(admission.body) });
  res.end(admission.body);
  return true;
}

const servers = new Set();
const createServer = http.createServer;
http.createServer = function (...args) {
  const server = createServer.apply(this, args);
  // Runs before express; a refused request is kept from it.
  const emit = server.emit;
  server.emit = function (event, req, res) {
    if (event === "request") {
      const rules = onRequest(req, res);
      if (res.stopped) return true;
      if (rules && rules.work) {
        // The body waits unread (paused) while the share is checked.
        void admit(req, res, rules).then((answered) => {
          if (!answered) emit.apply(this, [event, req, res]);
        });
        return true;
      }
    }
    return emit.apply(this, [event, req, res]);
  };
  server.once("listening", () => {
    if (backgroundStarted) return;
    backgroundStarted = true;
    app.startBackground();
  });
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
