const PRELOAD = '<link rel="modulepreload" href="';
const LOW_PRELOAD = '<link rel="modulepreload" fetchpriority="low" href="';
/**
 * Preloads the browser does not act on yet: inside a `<template>`, whose content is inert (neither
 * the parser nor its preload scanner fetches what it holds), and which, unlike a `<link>` without
 * `rel`, may stand in the body.
 */
const HELD_OPEN = "<template data-held-preloads>";
const HELD_CLOSE = "</template>";
const MODULE_SCRIPT = /<script( nonce="[^"]*")? type="module" async="">([\s\S]*?)<\/script>/;

/**
 * Runs in the page, in place of Remix's module script, once the first paint is on the screen and
 * the frame after it (a big page may paint its first part before the parser reaches the end):
 * puts the held preload links back in the template's place (the browser fetches them then, in
 * parallel; eight per task, as starting 30 fetches took up to 20 ms here) and the module script
 * back where it was, with the page's nonce. The DOM is then what Remix rendered, so the page
 * hydrates without a difference. A page that is not shown (a background
 * tab) does not paint: it loads at once. Where paint timing is not observable, it loads after two
 * frames; and in any case after 3 s (a paint never reported does not leave the page inert).
 */
const LOADER = `(function (s, code) {
  var done = false;
  function load() {
    if (done) return;
    done = true;
    var held = document.querySelector("template[data-held-preloads]");
    var links = held ? [].slice.call(held.content.children) : [];
    // A few fetches started per task, so that none of them is a long one on a slow phone.
    (function next() {
      var batch = links.splice(0, 8);
      for (var i = 0; i < batch.length; i++) held.parentNode.insertBefore(document.importNode(batch[i], true), held);
      if (links.length) return setTimeout(next, 0);
      if (held) held.remove();
      var m = document.createElement("script");
      m.type = "module";
      m.async = true;
      m.nonce = s.nonce;
      m.textContent = code;
      s.replaceWith(m);
    })();
  }
  // The frame after the next: the whole document (parsed by now) has been painted and shown.
  function soon() {
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        setTimeout(load, 0);
      });
    });
  }
  if (document.visibilityState === "hidden") return load();
  setTimeout(load, 3000);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "hidden") load(); });
  var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;
  if (!types || types.indexOf("paint") < 0) return soon();
  new PerformanceObserver(function (list, observer) {
    if (!list.getEntriesByName("first-contentful-paint").length) return;
    observer.disconnect();
    soon();
  }).observe({ type: "paint", buffered: true });
})(document.currentScript, `;

/**
 * JavaScript text as a template literal that cannot close its script element. Not a JSON string:
 * its quotes stay as they are, so the paths keep their `"/build/..."` form that the field app's
 * service worker reads from the page to keep its copy (public/field-sw.js).
 */
const literal = (code: string) =>
  "`" +
  code
    .replace(/[\\`]/g, (c) => "\\" + c)
    .replace(/\$\{/g, "\\${")
    .replace(/</g, "\\u003c") +
  "`";

/**
 * The page's scripts are fetched only after its first paint
 * (docs/decisions/497-scripts-after-the-first-paint.md). The page is whole without them (it works
 * with JavaScript off), so nothing on the screen waits for them; fetched before the paint, as the
 * preload scanner does on a fast link, they compete with the HTML on a slow one, and Lighthouse's
 * simulation counts every one that finished before the largest paint as needed for it. The
 * preload links go out inside an inert `<template>` and Remix's module script (which imports the
 * routes and the entry) as a small inline loader that restores both after the first contentful
 * paint. The
 * preloads stay at low priority: after the paint, the page's images go first.
 *
 * `<Scripts>` writes its preload links in one run, then the handoff script and the module script;
 * no text of a record can spell one (React and the data's handoff escape "<"). So only that run
 * is rewritten, not the whole page: the week board's page is hundreds of kilobytes, and a replace
 * over all of it was a copy per request (docs/decisions/476-the-week-board-sends-its-data-short.md).
 */
export function scriptsAfterFirstPaint(html: string): string {
  const from = html.indexOf(PRELOAD);
  if (from < 0) return html;
  const to = html.indexOf("<script", from);
  const end = to < 0 ? html.length : to;
  const links = HELD_OPEN + html.slice(from, end).replaceAll(PRELOAD, LOW_PRELOAD) + HELD_CLOSE;
  const rest = html.slice(end);
  const module = MODULE_SCRIPT.exec(rest);
  if (!module) return html.slice(0, from) + links + rest;
  const loader = `<script${module[1] ?? ""}>${LOADER}${literal(module[2]!)});</script>`;
  return (
    html.slice(0, from) + links + rest.slice(0, module.index) + loader + rest.slice(module.index + module[0].length)
  );
}
