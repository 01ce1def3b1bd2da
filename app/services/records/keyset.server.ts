import { inTenant, one, rows, type Tx } from "../../../db/index";
import { isUuid } from "~/utils/crypto.server";

/**
 * Keyset pagination: a page is "the next N rows after (sort key, id)" in index order, so
 * page 2,000 costs what page 1 costs and no list ever counts all its rows. The cursor is
 * the sort key as PostgreSQL prints it (timestamps keep their microseconds) and the row id.
 */
export const PAGE_SIZE = 25;

export type PageCursor = { after?: string | null; before?: string | null };
export type Page<T> = { items: T[]; nextCursor: string | null; prevCursor: string | null };

/** A cursor: the sort key(s) as PostgreSQL prints them, and the row id. */
export const encodeCursor = (key: string | string[], id: string) =>
  Buffer.from(JSON.stringify([key, id])).toString("base64url");

/** The (key, id) a cursor names, or null for anything malformed (the list then starts at the top). */
export function decodeCursor(cursor: string | null | undefined): [string, string] | null {
  const decoded = decodeKeys(cursor);
  return decoded && decoded[0].length === 1 ? [decoded[0][0], decoded[1]] : null;
}

/** The keys and id a cursor names (one key, or several for a composite sort), or null. */
function decodeKeys(cursor: string | null | undefined): [string[], string] | null {
  if (!cursor || cursor.length > 1000) return null;
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(value) || value.length !== 2 || !isUuid(value[1])) return null;
    if (typeof value[0] === "string") return [[value[0]], value[1]];
    if (
      Array.isArray(value[0]) &&
      value[0].length >= 1 &&
      value[0].length <= 4 &&
      value[0].every((k: unknown) => typeof k === "string")
    )
      return [value[0], value[1]];
  } catch {
    /* not a cursor */
  }
  return null;
}

type SortKey = { expr: string; type: "text" | "timestamptz" | "date" };

export type KeysetQuery = {
  /** Columns to return (with table aliases). */
  select: string;
  /** FROM clause with joins. */
  from: string;
  /** Conditions ANDed together; they use $1.. of `bind`. */
  where: string[];
  bind: unknown[];
  /** The sort key (an indexed expression), its SQL type and direction; ties broken by `then`, then `id`. */
  key: SortKey & { dir: "asc" | "desc" };
  /** Further sort keys in the same direction (a document's date, then its number). */
  then?: SortKey[];
  id: string;
  cursor: PageCursor;
  limit?: number;
};

/** The statement of one page (also what the query-plan tests explain). */
export function keysetStatement(q: KeysetQuery) {
  const limit = q.limit ?? PAGE_SIZE;
  const keys: SortKey[] = [q.key, ...(q.then ?? [])];
  const valid = (c: [string[], string] | null) => (c && c[0].length === keys.length ? c : null);
  const after = valid(decodeKeys(q.cursor.after));
  const before = after ? null : valid(decodeKeys(q.cursor.before));
  const bound = after ?? before;
  // Going back reads the index the other way from the cursor, then flips the rows.
  const dir = before ? (q.key.dir === "asc" ? "desc" : "asc") : q.key.dir;
  const where = [...q.where];
  const bind = [...q.bind];
  if (bound) {
    const placeholders = keys.map((k, i) => {
      bind.push(bound[0][i]);
      return `$${bind.length}::${k.type}`;
    });
    bind.push(bound[1]);
    where.push(
      `(${keys.map((k) => k.expr).join(", ")}, ${q.id}) ${dir === "asc" ? ">" : "<"} (${placeholders.join(", ")}, $${bind.length}::uuid)`,
    );
  }
  bind.push(limit + 1);
  const sql = `SELECT ${q.select}, ARRAY[${keys.map((k) => `(${k.expr})::text`).join(", ")}] AS "_keys", ${q.id} AS "_id"
       FROM ${q.from}
      WHERE ${where.join(" AND ")}
      ORDER BY ${keys.map((k) => `${k.expr} ${dir}`).join(", ")}, ${q.id} ${dir}
      LIMIT $${bind.length}`;
  return { sql, bind, limit, after, before };
}

export async function keysetPage<T extends Record<string, unknown>>(q: KeysetQuery, t: Tx): Promise<Page<T>> {
  const { sql, bind, limit, after, before } = keysetStatement(q);
  const found = await rows<T & { _keys: string[]; _id: string }>(sql, bind, t);
  const more = found.length > limit;
  const page = found.slice(0, limit);
  if (before) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  const hasNext = before ? true : more;
  const hasPrev = before ? more : !!after;
  const cursorOf = (r: { _keys: string[]; _id: string }) =>
    encodeCursor(r._keys.length === 1 ? r._keys[0] : r._keys, r._id);
  return {
    items: page.map(({ _keys, _id, ...item }) => item as unknown as T),
    nextCursor: hasNext && last ? cursorOf(last) : null,
    prevCursor: hasPrev && first ? cursorOf(first) : null,
  };
}

export type RecordTable = "customers" | "jobs" | "quotes" | "invoices" | "booking_requests";

/** Whether the tenant has any row at all in a table (empty states: "nothing yet" vs "nothing matches"). */
export async function tenantHasAny(tenantId: string, table: RecordTable): Promise<boolean> {
  return inTenant(
    tenantId,
    async (t) => !!(await one(`SELECT 1 FROM ${table} WHERE tenant_id = $1 LIMIT 1`, [tenantId], t)),
  );
}
