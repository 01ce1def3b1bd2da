// Numbers and sentences. No locale, no Intl: numbers are written the same everywhere.

import type { HoursRange } from "./rules";

export function fmtNum(n: number): string {
  return String(Math.round(n * 100) / 100);
}

export function roundHalf(n: number): number {
  return Math.max(0.5, Math.round(n * 2) / 2);
}

export function fmtRange(r: HoursRange): string {
  return r.min === r.max ? fmtNum(r.min) : `${fmtNum(r.min)}-${fmtNum(r.max)}`;
}

/** "1-2 hour" as an adjective: "a 1-2 hour visit". */
export function fmtHoursAdj(r: HoursRange): string {
  return `${fmtRange(r)} hour`;
}

export function fmtHours(r: HoursRange): string {
  const unit = r.min === 1 && r.max === 1 ? "hour" : "hours";
  return `${fmtRange(r)} ${unit}`;
}

export function quoteList(phrases: readonly string[]): string {
  return phrases.map((p) => `"${p}"`).join(", ");
}

export function lowerFirst(s: string): string {
  return s.length === 0 ? s : s.charAt(0).toLowerCase() + s.slice(1);
}

/** A template split once into literal text (even indexes) and placeholder names (odd indexes). */
const parsedTemplates = new Map<string, readonly string[]>();

function parseTemplate(template: string): readonly string[] {
  let parts = parsedTemplates.get(template);
  if (!parts) {
    parts = template.split(/\{(\w+)\}/);
    parsedTemplates.set(template, parts);
  }
  return parts;
}

/** Fills `{name}` placeholders of a wording template; an unknown name is left as it is. */
export function fill(template: string, vars: Readonly<Record<string, string | number>>): string {
  const parts = parseTemplate(template);
  if (parts.length === 1) return template;
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i];
    const value = Object.hasOwn(vars, name) ? vars[name] : undefined;
    out += value === undefined ? `{${name}}` : typeof value === "number" ? fmtNum(value) : value;
    out += parts[i + 1];
  }
  return out;
}

export function uniqueStrings(items: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    if (seen.has(item)) continue;
    seen.add(item);
    out.push(item);
  }
  return out;
}
