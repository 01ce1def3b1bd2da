// What a file's column can be mapped to, per import type. Plain data,
// safe in the browser: the mapping step renders these as the options of each column's select.
//
// The section 5 columns are the targets, plus a few that are combined into them:
// - customers: first_name + last_name -> name (when no column holds the whole name);
//   property_* -> one of the customer's service properties (`@N` picks the Nth property of the
//   row, for exports with numbered address groups).
import { IMPORT_COLUMNS, type ImportType } from "../columns";

export interface MappingTarget {
  name: string;
  label: string;
  required: boolean;
}

/** The value of a select that drops the column. */
export const IGNORE = "ignore";

const EXTRA: Partial<Record<ImportType, MappingTarget[]>> = {
  customers: [
    { name: "first_name", label: "First name (joined with last name into name)", required: false },
    { name: "last_name", label: "Last name (joined with first name into name)", required: false },
    { name: "property_label", label: "Service property: label", required: false },
    { name: "property_line1", label: "Service property: address line 1", required: false },
    { name: "property_line2", label: "Service property: address line 2", required: false },
    { name: "property_city", label: "Service property: city", required: false },
    { name: "property_region", label: "Service property: state / region", required: false },
    { name: "property_postal_code", label: "Service property: postal code", required: false },
    { name: "property_country", label: "Service property: country", required: false },
  ],
};

export function mappingTargets(type: ImportType): MappingTarget[] {
  const own = IMPORT_COLUMNS[type].map((c) => ({ name: c.name, label: c.name, required: c.required }));
  return [...own, ...(EXTRA[type] ?? [])];
}

/** `property_city@2` -> ["property_city", 2]; other targets have group 1. */
export function splitTarget(target: string): [string, number] {
  const at = target.indexOf("@");
  return at === -1 ? [target, 1] : [target.slice(0, at), Number(target.slice(at + 1)) || 1];
}

export function isTarget(type: ImportType, target: string): boolean {
  const [base] = splitTarget(target);
  return mappingTargets(type).some((t) => t.name === base);
}

/**
 * Required fields (or groups of which one is required) the mapping leaves without a column.
 * A customer's name is also satisfied by first_name or last_name.
 */
export function missingRequired(type: ImportType, mapped: Iterable<string>): string[] {
  const have = new Set([...mapped].map((t) => splitTarget(t)[0]));
  const missing: string[] = [];
  for (const c of IMPORT_COLUMNS[type]) {
    if (c.required) {
      if (have.has(c.name)) continue;
      if (type === "customers" && c.name === "name" && (have.has("first_name") || have.has("last_name"))) continue;
      missing.push(c.name);
    } else if (c.oneOf && c.oneOf[0] === c.name && !c.oneOf.some((n) => have.has(n))) {
      missing.push(c.oneOf.join(" or "));
    }
  }
  return missing;
}
