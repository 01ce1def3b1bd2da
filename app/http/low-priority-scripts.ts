const PRELOAD = '<link rel="modulepreload" href="';
const LOW_PRELOAD = '<link rel="modulepreload" fetchpriority="low" href="';

/**
 * The page's scripts are fetched at low priority: the page is whole without them (it works with
 * JavaScript off), so on a slow network its HTML and images go first and the first paint does
 * not wait behind the scripts that only make it interactive. An attribute React does not render
 * for these links, and one it leaves alone when it hydrates.
 *
 * `<Scripts>` writes its preload links in one run, before its first script; no text of a record
 * can spell one (React and the data's handoff escape "<"). So only that run is rewritten, not the
 * whole page: the week board's page is hundreds of kilobytes, and a replace over all of it was a
 * copy per request (docs/decisions/476-the-week-board-sends-its-data-short.md).
 */
export function lowPriorityScripts(html: string): string {
  const from = html.indexOf(PRELOAD);
  if (from < 0) return html;
  const to = html.indexOf("<script", from);
  const end = to < 0 ? html.length : to;
  return html.slice(0, from) + html.slice(from, end).replaceAll(PRELOAD, LOW_PRELOAD) + html.slice(end);
}
