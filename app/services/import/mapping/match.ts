// Header matching (docs/decisions/150): each header of a file is matched
// to a field of the import type: a product's preset (recognised by its headers), else exact
// (case, spaces, `_`, `-` ignored), else a known alias, else a close spelling (edit distance
// from fastest-levenshtein). A header that matches nothing as written is tried again without
// an entity prefix ("Client Name" -> "Name", "Contact Email" -> "Email"; docs/decisions/249).
// Pure and browser-safe.
import { distance } from "fastest-levenshtein";
import { IMPORT_COLUMNS, type ImportType } from "../columns";
import { ALIASES, AMBIGUOUS, PRESETS, type Preset } from "./known-headers";
import { mappingTargets, missingRequired } from "./targets";

/** How a column got its field. `none`: nothing like it, so it is ignored. */
export type MatchHow = "preset" | "remembered" | "exact" | "alias" | "close" | "ambiguous" | "none";

export interface ColumnMatch {
  index: number;
  header: string;
  /** The field, or null to ignore the column. */
  field: string | null;
  how: MatchHow;
}

export interface HeaderMatch {
  columns: ColumnMatch[];
  preset: Preset | null;
  /** Every column is matched without doubt and every required field has a column. */
  certain: boolean;
  /** Every header is a section 5 column name as written (trimmed, any case) or unknown: the
   * file previews exactly as before this feature. */
  canonical: boolean;
  missing: string[];
}

/** "Billing Zip-code" -> "billingzipcode": how headers are compared. */
export function normaliseHeader(header: string): string {
  return header
    .normalize("NFC")
    .toLowerCase()
    .replace(/[\s_-]+/g, "");
}

/** Words other products put before a field's header to say whose field it is. */
const ENTITY_PREFIX = /^(?:client|contact|customer)[\s_-]+(?=\S)/i;

/** "Client Address 1" -> "Address 1"; null when the header has no entity prefix. */
export function withoutEntityPrefix(header: string): string | null {
  const rest = header.trim().replace(ENTITY_PREFIX, "");
  return rest === header.trim() ? null : rest;
}

/** The key under which a tenant's mapping for a list of headers is remembered. */
export function headerKey(headers: readonly string[]): string {
  return headers.map(normaliseHeader).join("\u001f");
}

/** Fields that may take several columns (their cells are combined). */
const COMBINED = new Set(["email", "phone", "notes"]);

function presetFor(type: ImportType, normalised: Set<string>): Preset | null {
  return PRESETS.find((p) => p.type === type && p.signature.every((h) => normalised.has(normaliseHeader(h)))) ?? null;
}

/** The preset's field for a header as written, else for the header without its entity prefix. */
function presetField(preset: Preset, header: string): string | null {
  const bare = withoutEntityPrefix(header);
  return presetFieldOf(preset, header) ?? (bare === null ? null : presetFieldOf(preset, bare));
}

function presetFieldOf(preset: Preset, header: string): string | null {
  const n = normaliseHeader(header);
  for (const [h, field] of Object.entries(preset.columns)) if (normaliseHeader(h) === n) return field;
  for (const g of preset.numbered ?? []) {
    const [before, after] = g.header.split("{n}").map(normaliseHeader);
    if (n.startsWith(before) && n.endsWith(after)) {
      const number = n.slice(before.length, n.length - after.length);
      if (/^\d{1,3}$/.test(number) && Number(number) >= 1) return `${g.field}@${Number(number)}`;
    }
  }
  return null;
}

/** Candidate headers per field (its own name and its aliases), normalised. */
function vocabulary(type: ImportType): [string, string][] {
  const words: [string, string][] = mappingTargets(type).map((t) => [normaliseHeader(t.name), t.name]);
  for (const row of ALIASES)
    if (row.type === type) for (const a of row.aliases) words.push([normaliseHeader(a), row.field]);
  return words;
}

/** The field whose name or alias is within a small edit distance, if only one field is. */
function closeField(type: ImportType, n: string): { field: string; tie: boolean } | null {
  if (n.length < 4) return null;
  const limit = Math.max(1, Math.floor(n.length / 5));
  let best = Infinity;
  let fields = new Set<string>();
  for (const [word, field] of vocabulary(type)) {
    if (Math.abs(word.length - n.length) > limit) continue;
    const d = distance(n, word);
    if (d > limit) continue;
    if (d < best) {
      best = d;
      fields = new Set([field]);
    } else if (d === best) fields.add(field);
  }
  if (fields.size === 0) return null;
  return { field: [...fields][0], tie: fields.size > 1 };
}

export function matchHeaders(
  type: ImportType,
  headers: readonly string[],
  remembered?: readonly (string | null)[] | null,
): HeaderMatch {
  const normalised = headers.map(normaliseHeader);
  const canonicalNames = new Set(IMPORT_COLUMNS[type].map((c) => c.name));
  const targetByNorm = new Map(mappingTargets(type).map((t) => [normaliseHeader(t.name), t.name]));
  const aliasByNorm = new Map<string, string>();
  for (const row of ALIASES)
    if (row.type === type) for (const a of row.aliases) aliasByNorm.set(normaliseHeader(a), row.field);
  const ambiguousByNorm = new Map(
    AMBIGUOUS.filter((a) => a.type === type).map((a) => [normaliseHeader(a.header), a.fields]),
  );
  const bare = headers.map((h) => {
    const rest = withoutEntityPrefix(h);
    return rest === null ? null : normaliseHeader(rest);
  });
  // A product's signature may be met by its headers as written or without their entity prefix.
  const preset = remembered
    ? null
    : presetFor(type, new Set([...normalised, ...bare.filter((b): b is string => b !== null)]));

  /** A header's field by name: exact, ambiguous or alias, as written. */
  const byName = (n: string): { field: string; how: MatchHow } | null => {
    if (targetByNorm.has(n)) return { field: targetByNorm.get(n)!, how: "exact" };
    if (ambiguousByNorm.has(n)) return { field: ambiguousByNorm.get(n)![0], how: "ambiguous" };
    if (aliasByNorm.has(n)) return { field: aliasByNorm.get(n)!, how: "alias" };
    return null;
  };

  const taken = new Set<string>();
  const columns: ColumnMatch[] = headers.map((header, index) => {
    const n = normalised[index];
    const b = bare[index];
    let field: string | null = null;
    let how: MatchHow = "none";
    const named = byName(n) ?? (b === null ? null : byName(b));
    if (remembered) {
      field = remembered[index] ?? null;
      how = "remembered";
    } else if (preset) {
      field = presetField(preset, header);
      how = "preset";
    } else if (named) {
      ({ field, how } = named);
    } else {
      const close = closeField(type, n) ?? (b === null ? null : closeField(type, b));
      if (close) {
        field = close.field;
        how = close.tie ? "ambiguous" : "close";
      }
    }
    // A second column for a single-valued field is a doubt (which one holds it?).
    if (field && how !== "preset" && how !== "remembered" && !field.includes("@") && !COMBINED.has(field)) {
      if (taken.has(field)) how = "ambiguous";
      taken.add(field);
    }
    return { index, header, field, how };
  });

  const missing = missingRequired(
    type,
    columns.flatMap((c) => (c.field ? [c.field] : [])),
  );
  const sure = (c: ColumnMatch) => c.how !== "close" && c.how !== "ambiguous";
  const canonical =
    !preset &&
    !remembered &&
    columns.every((c, i) => c.how === "none" || canonicalNames.has(headers[i].trim().toLowerCase()));
  return { columns, preset, certain: missing.length === 0 && columns.every(sure), canonical, missing };
}

/** The fields of a match, per column (null = ignored). */
export function fieldsOf(match: HeaderMatch): (string | null)[] {
  return match.columns.map((c) => c.field);
}
