// SQL fragments the back-office services share. Each assumes $1 is the tenant id.

/** The tenant's calendar date today, in its time zone. */
export const TENANT_TODAY = `(SELECT (now() AT TIME ZONE time_zone)::date FROM tenants WHERE id = $1)`;

/** A quote's status as staff see it: a sent quote whose validity has passed shows `expired`. */
export const quoteStatus = (q: string) =>
  `(CASE WHEN ${q}.status = 'sent' AND ${q}.valid_until < ${TENANT_TODAY} THEN 'expired' ELSE ${q}.status END)`;

/** An invoice is overdue when it is still owed and its due date has passed. */
export const invoiceOverdue = (i: string) => `(${i}.status IN ('sent', 'partial') AND ${i}.due_date < ${TENANT_TODAY})`;

/**
 * An address row (alias `a`, the customers / customer_properties columns) on one line as people
 * write it: "12 Main St, Unit 4, Denver, CO 80212" (no comma between region and postal code,
 * blanks skipped); NULL when there is none. The same rule as app/utils/address.ts.
 */
export const addressSql = (a: string) =>
  `nullif(concat_ws(', ', nullif(${a}.address_line1, ''), nullif(${a}.address_line2, ''), nullif(${a}.city, ''),
     nullif(concat_ws(' ', nullif(${a}.region, ''), nullif(${a}.postal_code, '')), '')), '')`;

/** A LIKE pattern matching `text` anywhere, lower-cased, with LIKE's own characters escaped. */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A LIKE pattern matching what starts with `text`, lower-cased, with LIKE's own characters escaped. */
export const prefixPattern = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A trigram index finds nothing for fewer than three characters, so such a search would read
 * every customer of the tenant: one or two characters search the start of the name or e-mail
 * instead, by the prefix indexes customers_name_prefix and customers_email_prefix (migration
 * 0013). `n` is the bind number of prefixPattern(q). Alias c.
 */
export const SHORT_SEARCH_CHARS = 3;
export const customerPrefixSearch = (n: number) => `(lower(c.name) LIKE $${n} OR lower(c.email) LIKE $${n})`;

/** The customer search expression of the trigram index customers_search (migration 0002), alias c. */
export const CUSTOMER_SEARCH = `lower(c.name || ' ' || coalesce(c.email, '') || ' ' || coalesce(c.phone, '') || ' ' || coalesce(c.company, ''))`;
