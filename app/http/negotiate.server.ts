/**
 * Content negotiation for routes that answer both a JavaScript client (JSON) and a browser
 * form post without JavaScript (a redirect to a page).
 */

type Range = { type: string; subtype: string; q: number };

function parseAccept(header: string): Range[] {
  const out: Range[] = [];
  for (const part of header.split(",")) {
    const [media, ...params] = part.trim().split(";");
    const [type, subtype] = media.trim().toLowerCase().split("/");
    if (!type || !subtype) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split("=");
      if (k?.trim().toLowerCase() === "q") {
        const n = Number(v);
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
      }
    }
    out.push({ type, subtype, q });
  }
  return out;
}

/** The quality an Accept list gives a media type: the most specific matching range wins (RFC 9110 12.5.1). */
function qualityOf(ranges: readonly Range[], mediaType: string): number {
  const [type, subtype] = mediaType.split("/");
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype
        ? 2
        : r.type === type && r.subtype === "*"
          ? 1
          : r.type === "*" && r.subtype === "*"
            ? 0
            : -1;
    if (specificity > best) {
      best = specificity;
      q = r.q;
    }
  }
  return q;
}

/**
 * True when the client ranks `text/html` strictly above `application/json`: a browser
 * navigation or form post. A missing Accept, `*\/*` (fetch, curl, load tools) or anything
 * preferring JSON is a data client.
 */
export function prefersHtml(request: Request): boolean {
  const header = request.headers.get("accept");
  if (!header) return false;
  const ranges = parseAccept(header);
  return qualityOf(ranges, "text/html") > qualityOf(ranges, "application/json");
}
