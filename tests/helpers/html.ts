// Reading server-rendered pages in tests, the way a user reads them: text, links, headings.

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#x27;": "'",
  "&#39;": "'",
};
export const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (m) => ENTITIES[m]);

/** The page's visible text, roughly (tags removed, entities decoded, whitespace collapsed). */
export function textOf(html: string): string {
  // React's <!-- --> between adjacent text parts joins them, as the browser shows them.
  const body = html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<style[\s\S]*?<\/style>/g, " ")
    .replace(/<!-- -->/g, "");
  return decode(body.replace(/<[^>]+>/g, " "))
    .replace(/\s+/g, " ")
    .trim();
}

/** The href of the link with rel=<rel> (Next / Previous), or null. */
export function relLink(html: string, rel: "next" | "prev"): string | null {
  for (const tag of html.match(/<a\b[^>]*>/g) ?? []) {
    if (new RegExp(`\\brel="${rel}"`).test(tag)) return decode(tag.match(/href="([^"]*)"/)?.[1] ?? "");
  }
  return null;
}

/** Text of every link whose href starts with `prefix` followed by an id, in page order, with the id. */
export function recordLinks(html: string, prefix: string): Array<{ id: string; text: string }> {
  const re = new RegExp(`<a\\b[^>]*href="${prefix}([0-9a-f-]{36})"[^>]*>([\\s\\S]*?)</a>`, "g");
  return [...html.matchAll(re)].map((m) => ({ id: m[1], text: decode(m[2].replace(/<[^>]+>/g, "")).trim() }));
}

/** The value of the first input whose attributes match `attr` (e.g. aria-label="..."). */
export function inputValue(html: string, attr: RegExp): string | null {
  for (const tag of html.match(/<input\b[^>]*>/g) ?? [])
    if (attr.test(tag)) return decode(tag.match(/value="([^"]*)"/)?.[1] ?? "");
  return null;
}
