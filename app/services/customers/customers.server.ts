import { z } from "zod";
import { inTenant, one, rows } from "../../../db/index";
import { notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { keysetPage, type KeysetQuery, type PageCursor } from "~/services/records/keyset.server";
import {
  containsPattern,
  CUSTOMER_SEARCH,
  customerPrefixSearch,
  invoiceOverdue,
  prefixPattern,
  quoteStatus,
  SHORT_SEARCH_CHARS,
} from "~/services/records/sql.server";
import { listSchemaBase } from "~/services/records/list-params";
import { CUSTOMER_FILTERS } from "~/services/records/statuses";
import { CUSTOMER_FIELDS, type CustomerField } from "./fields";
import { CUSTOMER_LIST_COLUMNS } from "./schema";

// The list page takes its columns from here: a `.server` module stays out of the browser bundle,
// and with it the field list and its schema library.
export { CUSTOMER_LIST_COLUMNS };

export const customerListSchema = listSchemaBase.extend({
  filter: z.enum(CUSTOMER_FILTERS).catch("all"),
});
export type CustomerListParams = z.infer<typeof customerListSchema> & PageCursor;

/** A field's value as a read gives it, by the field's column name (text columns: string or null). */
type ColumnValues<F extends CustomerField> = {
  [E in F as E["column"]]: E extends { required: true } ? string : string | null;
};
/** A list row: the id and the list's columns (CUSTOMER_LIST_COLUMNS). */
export type CustomerListItem = { id: string } & ColumnValues<Extract<CustomerField, { list?: true }>>;
/** The customers list's SELECT: the id, then each list column of the field list. */
const LIST_SELECT = ["c.id", ...CUSTOMER_LIST_COLUMNS.map((c) => `c.${c.column}`)].join(", ");
/** Every column of the field list, for the record page. */
const RECORD_SELECT = CUSTOMER_FIELDS.map((f) => `c.${f.column}`).join(", ");

/** The query of a customers page: by name, searched by name, email, phone or company. */
export function customerListQuery(tenantId: string, p: CustomerListParams): KeysetQuery {
  const where = ["c.tenant_id = $1"];
  const bind: unknown[] = [tenantId];
  if (p.q && p.q.length < SHORT_SEARCH_CHARS) {
    bind.push(prefixPattern(p.q));
    where.push(customerPrefixSearch(bind.length));
  } else if (p.q) {
    bind.push(containsPattern(p.q));
    where.push(`${CUSTOMER_SEARCH} LIKE $${bind.length}`);
  }
  if (p.filter === "open_jobs") {
    where.push(
      `EXISTS (SELECT 1 FROM jobs j WHERE j.tenant_id = c.tenant_id AND j.customer_id = c.id AND j.status NOT IN ('completed', 'cancelled'))`,
    );
  } else if (p.filter === "unpaid") {
    where.push(
      `EXISTS (SELECT 1 FROM invoices i WHERE i.tenant_id = c.tenant_id AND i.customer_id = c.id AND i.status IN ('sent', 'partial'))`,
    );
  }
  return {
    select: LIST_SELECT,
    from: "customers c",
    where,
    bind,
    key: { expr: "c.name", type: "text", dir: "asc" },
    id: "c.id",
    cursor: p,
  };
}

/** Customers by name, searched by name, email, phone or company. */
export async function listCustomers(actor: Actor, p: CustomerListParams) {
  return inTenant(actor.tenantId, (t) => keysetPage<CustomerListItem>(customerListQuery(actor.tenantId, p), t));
}

const RELATED = 10;

/** A customer with their latest jobs, quotes, invoices and booking requests (404 for another tenant's id). */
export async function getCustomer(actor: Actor, id: string) {
  if (!isUuid(id)) throw notFound("Customer not found.");
  return inTenant(actor.tenantId, async (t) => {
    const customer = await one<
      ColumnValues<CustomerField> & {
        id: string;
        created_at: string;
        jobs_count: number;
        quotes_count: number;
        invoices_count: number;
        unpaid: Array<{ currency: string; cents: number }> | null;
        auto_reminders: boolean;
      }
    >(
      `SELECT c.id, ${RECORD_SELECT}, c.created_at, c.auto_reminders,
              (SELECT count(*) FROM jobs WHERE tenant_id = $1 AND customer_id = c.id)::int AS jobs_count,
              (SELECT count(*) FROM quotes WHERE tenant_id = $1 AND customer_id = c.id)::int AS quotes_count,
              (SELECT count(*) FROM invoices WHERE tenant_id = $1 AND customer_id = c.id)::int AS invoices_count,
              (SELECT json_agg(json_build_object('currency', currency, 'cents', cents) ORDER BY currency)
                 FROM (SELECT currency, sum(total_cents - amount_paid_cents)::bigint AS cents FROM invoices
                        WHERE tenant_id = $1 AND customer_id = c.id AND status IN ('sent', 'partial') GROUP BY currency) u) AS unpaid
         FROM customers c WHERE c.tenant_id = $1 AND c.id = $2`,
      [actor.tenantId, id],
      t,
    );
    if (!customer) throw notFound("Customer not found.");
    const bind = [actor.tenantId, id, RELATED];
    const [jobs, quotes, invoices, requests] = [
      await rows<{
        id: string;
        title: string;
        status: string;
        scheduled_start: string | null;
        assignee_name: string | null;
      }>(
        `SELECT j.id, j.title, j.status, j.scheduled_start, u.name AS assignee_name
           FROM jobs j LEFT JOIN users u ON u.tenant_id = j.tenant_id AND u.id = j.assignee_id
          WHERE j.tenant_id = $1 AND j.customer_id = $2
          ORDER BY coalesce(j.scheduled_start, j.created_at) DESC, j.id LIMIT $3`,
        bind,
        t,
      ),
      await rows<{
        id: string;
        number: string;
        title: string | null;
        status: string;
        total_cents: number;
        currency: string;
        valid_until: string | null;
      }>(
        `SELECT q.id, q.number, q.title, ${quoteStatus("q")} AS status, q.total_cents, q.currency, q.valid_until::text
           FROM quotes q WHERE q.tenant_id = $1 AND q.customer_id = $2
          ORDER BY q.issue_date DESC NULLS LAST, q.number DESC, q.id DESC LIMIT $3`,
        bind,
        t,
      ),
      await rows<{
        id: string;
        number: string;
        status: string;
        overdue: boolean;
        total_cents: number;
        amount_paid_cents: number;
        currency: string;
        due_date: string | null;
      }>(
        `SELECT i.id, i.number, i.status, ${invoiceOverdue("i")} AS overdue, i.total_cents, i.amount_paid_cents, i.currency, i.due_date::text
           FROM invoices i WHERE i.tenant_id = $1 AND i.customer_id = $2
          ORDER BY i.issue_date DESC NULLS LAST, i.number DESC, i.id DESC LIMIT $3`,
        bind,
        t,
      ),
      await rows<{ id: string; service: string; status: string; preferred_date: string | null; created_at: string }>(
        `SELECT r.id, r.service, r.status, r.preferred_date::text, r.created_at
           FROM booking_requests r WHERE r.tenant_id = $1 AND r.customer_id = $2 ORDER BY r.created_at DESC, r.id LIMIT $3`,
        bind,
        t,
      ),
    ];
    return { customer: { ...customer, unpaid: customer.unpaid ?? [] }, jobs, quotes, invoices, requests };
  });
}

/** A customer's name, or 404 (for pages that only need to say whose record it is). */
export async function customerName(actor: Actor, id: string): Promise<{ id: string; name: string }> {
  if (!isUuid(id)) throw notFound("Customer not found.");
  const found = await inTenant(actor.tenantId, (t) =>
    one<{ id: string; name: string }>(
      `SELECT id, name FROM customers WHERE tenant_id = $1 AND id = $2`,
      [actor.tenantId, id],
      t,
    ),
  );
  if (!found) throw notFound("Customer not found.");
  return found;
}
