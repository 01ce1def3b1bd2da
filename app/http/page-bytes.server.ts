/**
 * A rendered page's bytes without the NUL bytes React 18.3's node renderer can leave in them.
 *
 * Its `writeStringChunk` (react-dom/server.node) encodes text into a 2,048-byte view; when a
 * multi-byte character ("–", "é") does not fit at the view's end, it writes the whole view,
 * unused zero bytes included, and continues in a new one. A page whose text puts such a
 * character on a view boundary therefore carries NUL bytes (seen as "1:30\0–3:30 PM" in a
 * job's history). In UTF-8 a 0x00 byte is only ever U+0000, which no page text holds
 * (PostgreSQL text cannot store it and the forms refuse it), so dropping every 0x00 restores
 * the page exactly. `includes` is a memchr: pages without one cost nothing more. Decision 225.
 */
export function withoutNulBytes(body: ReturnType<typeof Buffer.concat>): ReturnType<typeof Buffer.concat> {
  return body.includes(0) ? Buffer.from(body.filter((byte) => byte !== 0)) : body;
}
