/*
 * Service worker of the field page (registered by /field with scope /field).
 * Keeps the page usable with no network: the last /field page the server sent is kept with
 * the /build assets it names; a visit with no network gets that copy. Queued actions live in
 * IndexedDB and are pushed by the page itself (docs/offline-sync.md).
 */
const CACHE = "fieldwork-field-v1";
const PAGE = "/field";

const assetsOf = (html) => [...new Set([...html.matchAll(/["'](\/build\/[^"'?#\s]+)["']/g)].map((m) => m[1]))];

/** Keeps a copy of a /field page and everything under /build it loads. */
async function keepPage(response) {
  const cache = await caches.open(CACHE);
  const html = await response.clone().text();
  await cache.put(PAGE, response);
  const missing = [];
  for (const url of assetsOf(html)) if (!(await cache.match(url))) missing.push(url);
  await cache.addAll(missing).catch(() => {});
}

async function forgetPage() {
  const cache = await caches.open(CACHE);
  await cache.delete(PAGE);
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      try {
        const res = await fetch(PAGE, { credentials: "same-origin", cache: "no-store" });
        if (res.ok && !res.redirected) await keepPage(res);
      } catch {
        /* offline while installing: the next visit fills the cache */
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

async function pageFromNetwork(request) {
  try {
    const res = await fetch(request);
    if (res.ok && !res.redirected && res.type === "basic") await keepPage(res.clone());
    // Signed out (sent to the login page): the copy of someone's day must not outlive the session.
    else if (res.redirected || res.type === "opaqueredirect" || res.status === 401 || res.status === 403)
      await forgetPage();
    return res;
  } catch {
    const cached = await caches.match(PAGE);
    return (
      cached ??
      new Response(
        "<!doctype html><title>Offline</title><p>You are offline and this page has not been saved on this device yet.</p>",
        {
          status: 503,
          headers: { "Content-Type": "text/html; charset=utf-8" },
        },
      )
    );
  }
}

async function assetFromCache(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const res = await fetch(request);
  // Files under /build are named by their content: a copy never goes stale.
  if (res.ok) (await caches.open(CACHE)).put(request, res.clone());
  return res;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && (url.pathname === PAGE || url.pathname === `${PAGE}/`)) {
    event.respondWith(pageFromNetwork(request));
  } else if (url.pathname.startsWith("/build/") || url.pathname === "/favicon.svg") {
    event.respondWith(assetFromCache(request));
  }
});
