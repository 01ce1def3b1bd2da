/**
 * Whether an Accept-Encoding header takes gzip: named (or `x-gzip`) with a quality above 0, or
 * not named and `*` above 0 (RFC 9110 12.5.3). No header: no (the answer goes as it is).
 */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  let any = false;
  for (const part of header.split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split("=");
      if (k === "q") q = Number(v);
    }
    const takes = Number.isFinite(q) && q > 0;
    const name = coding.trim();
    if (name === "gzip" || name === "x-gzip") return takes;
    if (name === "*") any = takes;
  }
  return any;
}
