// What the customer field list (./fields.ts) gives the browser and the import: the one row
// schema of the customer form and the customer import, and the list's columns. Pure.
import { listColumnsOf, rowSchemaOf, specOf } from "~/services/import/field-list";
import { CUSTOMER_FIELDS, type CustomerRow } from "./fields";

/** The customer import's cell checks by CSV name, which are also the form's field names. */
export const CUSTOMER_SPEC = specOf(CUSTOMER_FIELDS);

/** One schema for the customer import's rows and the customer form, in the browser and on the server. */
export const customerSchema = rowSchemaOf<typeof CUSTOMER_FIELDS, CustomerRow>(CUSTOMER_FIELDS);

/** The customers list's columns after the id: SQL name (the list item's key) and header. */
export const CUSTOMER_LIST_COLUMNS = listColumnsOf(CUSTOMER_FIELDS);
