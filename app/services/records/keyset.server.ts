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

export const encodeCursor = (key: string, id: string) => Buffer.from(JSON.stringify([key, id])).toString("base64url");

/** The (key, id) a cursor names, or null for anything malformed (the list then starts at the top). */
export function decodeCursor(cursor: string | null | undefined): [string, string] | null {
  if (!cursor || cursor.length > 1000) return null;
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && isUuid(value[1])) return [value[0], value[1]];
  } catch {
    /* not a cursor */
  }
  return null;
}

export type KeysetQuery = {
  /** Columns to return (with table aliases). */
  select: string;
  /** FROM clause with joins. */
  from: string;
  /** Conditions ANDed together; they use $1.. of `bind`. */
  where: string[];
  bind: unknown[];
  /** The sort key (an indexed expression), its SQL type and direction; ties broken by `id`. */
  key: { expr: string; type: "text" | "timestamptz"; dir: "asc" | "desc" };
  id: string;
  cursor: PageCursor;
  limit?: number;
};

/** The statement of one page (also what the query-plan tests explain). */
export function keysetStatement(q: KeysetQuery) {
  const limit = q.limit ?? PAGE_SIZE;
  const after = decodeCursor(q.cursor.after);
  const before = after ? null : decodeCursor(q.cursor.before);
  const bound = after ?? before;
  // Going back reads the index the other way from the cursor, then flips the rows.
  const dir = before ? (q.key.dir === "asc" ? "desc" : "asc") : q.key.dir;
  const where = [...q.where];
  const bind = [...q.bind];
  if (bound) {
    bind.push(bound[0], bound[1]);
    where.push(`(${q.key.expr}, ${q.id}) ${dir === "asc" ? ">" : "<"} ($${bind.length - 1}::${q.key.type}, $${bind.length}::uuid)`);
  }
  bind.push(limit + 1);
  const sql = `SELECT ${q.select}, (${q.key.expr})::text AS "_key", ${q.id} AS "_id"
       FROM ${q.from}
      WHERE ${where.join(" AND ")}
      ORDER BY ${q.key.expr} ${dir}, ${q.id} ${dir}
      LIMIT $${bind.length}`;
  return { sql, bind, limit, after, before };
}

export async function keysetPage<T extends Record<string, unknown>>(q: KeysetQuery, t: Tx): Promise<Page<T>> {
  const { sql, bind, limit, after, before } = keysetStatement(q);
  const found = await rows<T & { _key: string; _id: string }>(sql, bind, t);
  const more = found.length > limit;
  const page = found.slice(0, limit);
  if (before) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  const hasNext = before ? true : more;
  const hasPrev = before ? more : !!after;
  return {
    items: page.map(({ _key, _id, ...item }) => item as unknown as T),
    nextCursor: hasNext && last ? encodeCursor(last._key, last._id) : null,
    prevCursor: hasPrev && first ? encodeCursor(first._key, first._id) : null,
  };
}

export type RecordTable = "customers" | "jobs" | "quotes" | "invoices" | "booking_requests";

/** Whether the tenant has any row at all in a table (empty states: "nothing yet" vs "nothing matches"). */
export async function tenantHasAny(tenantId: string, table: RecordTable): Promise<boolean> {
  return inTenant(tenantId, async (t) => !!(await one(`SELECT 1 FROM ${table} WHERE tenant_id = $1 LIMIT 1`, [tenantId], t)));
}
