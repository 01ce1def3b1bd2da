// A compact way to write a job kind: what differs from kind to kind (words, first checks,
// causes, parts, hours, code notes) is written out; what a trade's kinds share (crew note,
// disposal, permit, options, van stock, questions, safety, follow-up) comes from the trade's
// defaults. `kinds()` runs once when the tables load and returns plain rows, so the knowledge
// stays plain data (its JSON is what the engine version hashes).

import type { GoodBetterBest, HoursRange, JobRule, JobTag, MaterialLine, QuantityRule, Trade } from "./types";

/** A part as `[item, qty, unit]`, or a full material line when it needs more. */
export type PartSpec = readonly [string, number, string] | MaterialLine;

export interface KindSpec {
  readonly id: string;
  readonly name: string;
  readonly fixture: string;
  readonly alsoFixtures?: readonly string[];
  readonly keywords: readonly string[];
  readonly symptoms?: readonly string[];
  readonly firstChecks: readonly string[];
  readonly likelyCauses: readonly string[];
  readonly parts: readonly PartSpec[];
  /** Person-hours to quote, [min, max]; on-site hours default to the same. */
  readonly labour: readonly [number, number];
  readonly onSite?: readonly [number, number];
  readonly crew?: number;
  readonly crewNote?: string;
  readonly code?: readonly string[];
  readonly safety?: readonly string[];
  readonly confirm?: readonly string[];
  readonly tags?: readonly JobTag[];
  readonly permit?: string;
  readonly disposal?: string;
  readonly options?: GoodBetterBest;
  readonly deposit?: number;
  readonly pickup?: boolean;
  readonly van?: readonly string[];
  readonly followUp?: readonly string[];
  readonly quantity?: QuantityRule;
  readonly ignoreModifiers?: readonly string[];
}

/** What a trade's kinds share (the fields of a kind they fill), plus its shop supplies line. */
export type TradeDefaults = Pick<
  JobRule,
  "tags" | "crewNote" | "disposal" | "permit" | "options" | "vanParts" | "confirm" | "safety" | "followUp"
> & {
  /** The shop supplies every job of the trade uses, quoted as one line on every kind. */
  readonly consumables: MaterialLine;
};

function range([min, max]: readonly [number, number]): HoursRange {
  return { min, max };
}

function part(p: PartSpec): MaterialLine {
  if (!Array.isArray(p)) return p as MaterialLine;
  const [item, qty, unit] = p as readonly [string, number, string];
  return qty === 0 ? { item, qty: 0, qtyMax: 1, unit } : { item, qty, unit };
}

export function kinds(trade: Trade, d: TradeDefaults, specs: readonly KindSpec[]): JobRule[] {
  return specs.map((s) => ({
    id: s.id,
    name: s.name,
    trade,
    tags: s.tags ?? d.tags,
    keywords: s.keywords,
    symptoms: s.symptoms ?? [],
    fixture: s.fixture,
    ...(s.alsoFixtures ? { alsoFixtures: s.alsoFixtures } : {}),
    firstChecks: s.firstChecks,
    likelyCauses: s.likelyCauses,
    code: s.code ?? [],
    materials: [...s.parts.map(part), d.consumables],
    labourHours: range(s.labour),
    durationHours: range(s.onSite ?? s.labour),
    crewSize: s.crew ?? 1,
    crewNote: s.crewNote ?? d.crewNote,
    disposal: s.disposal ?? d.disposal,
    permit: s.permit ?? d.permit,
    options: s.options ?? d.options,
    depositPercent: s.deposit ?? 0,
    supplierPickup: s.pickup ?? false,
    vanParts: s.van ?? d.vanParts,
    confirm: [...(s.confirm ?? []), ...d.confirm],
    safety: [...(s.safety ?? []), ...d.safety],
    followUp: s.followUp ?? d.followUp,
    ...(s.quantity ? { quantity: s.quantity } : {}),
    ...(s.ignoreModifiers ? { ignoreModifiers: s.ignoreModifiers } : {}),
  }));
}
