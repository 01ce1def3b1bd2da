// Customers by hand: the commands behind /customers/new and /customers/<id>/edit, given the row
// the customer schema made (the import's rules too). The columns come from the field list.
import { UniqueConstraintError } from "sequelize";
import { inTenant, type Tx } from "../../../db/index";
import { Customer } from "../../../db/models";
import { recordHistory } from "~/services/history/history.server";
import { nounOf } from "~/services/import/field-list";
import { CUSTOMER_FIELDS, type CustomerRow } from "./fields";
import { notFound, validationFailed } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";

/** The customer's own columns by code name (a service property list an import may carry is not one of them). */
const COLUMNS = CUSTOMER_FIELDS.map((f) => f.key);
type ColumnKey = (typeof COLUMNS)[number];
/** The word the history uses for each column. */
const NOUNS = Object.fromEntries(CUSTOMER_FIELDS.map((f) => [f.key, nounOf(f)])) as Record<ColumnKey, string>;

/** A duplicate email or external id, said beside its field (422) rather than as a crash. */
function duplicateField(error: unknown): never {
  if (error instanceof UniqueConstraintError) {
    // On Citus the error relayed from a worker carries no constraint field, and its message names
    // the shard's copy: the constraint's name and the shard id (customers_email_key_102044).
    const parent = error.parent as { constraint?: string; message?: string } | undefined;
    const named = parent?.constraint || /unique constraint "([^"]+)"/.exec(parent?.message ?? "")?.[1] || "";
    const constraint = named.replace(/_\d+$/, "");
    if (constraint === "customers_email_key")
      throw validationFailed({ email: ["Another customer already has this email address"] });
    if (constraint === "customers_external_id_key")
      throw validationFailed({ external_id: ["Another customer already has this external id"] });
  }
  throw error;
}

const valuesOf = (row: CustomerRow) =>
  Object.fromEntries(COLUMNS.map((c) => [c, row[c] ?? null])) as Partial<Record<ColumnKey, unknown>>;

export async function createCustomer(
  actor: Actor,
  row: CustomerRow,
  opts: { transaction?: Tx } = {},
): Promise<{ id: string }> {
  const run = async (t: Tx) => {
    const customer = await Customer.create({ tenantId: actor.tenantId, ...valuesOf(row) }, { transaction: t }).catch(
      duplicateField,
    );
    await recordHistory(t, actor, {
      recordType: "customer",
      recordId: customer.id,
      action: "created",
      summary: "Created",
    });
    return { id: customer.id };
  };
  return opts.transaction ? run(opts.transaction) : inTenant(actor.tenantId, run);
}

async function findCustomer(t: Tx, actor: Actor, id: string, lock = false) {
  if (!isUuid(id)) throw notFound("Customer not found.");
  const customer = await Customer.findOne({
    where: { tenantId: actor.tenantId, id },
    transaction: t,
    ...(lock ? { lock: t.LOCK.UPDATE } : {}),
  });
  if (!customer) throw notFound("Customer not found.");
  return customer;
}

/** The customer's fields as the form shows them (form names, empty for missing). */
export async function customerForEdit(
  actor: Actor,
  id: string,
): Promise<{ id: string; values: Record<string, string> }> {
  return inTenant(actor.tenantId, async (t) => {
    const c = await findCustomer(t, actor, id);
    return {
      id: c.id,
      values: Object.fromEntries(
        CUSTOMER_FIELDS.map((f) => [f.csv, (c.get(f.key) as string | number | null | undefined)?.toString() ?? ""]),
      ),
    };
  });
}

export async function updateCustomer(actor: Actor, id: string, row: CustomerRow): Promise<void> {
  await inTenant(actor.tenantId, async (t) => {
    const customer = await findCustomer(t, actor, id, true);
    const values = valuesOf(row);
    const changed = COLUMNS.filter((c) => (customer.get(c) ?? null) !== (values[c] ?? null));
    if (!changed.length) return;
    customer.set(values);
    await customer.save({ transaction: t }).catch(duplicateField);
    const what = [...new Set(changed.map((c) => NOUNS[c]))].join(", ");
    await recordHistory(t, actor, {
      recordType: "customer",
      recordId: id,
      action: "updated",
      summary: `Edited (${what})`,
      details: { fields: changed },
    });
  });
}
