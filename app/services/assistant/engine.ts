// The local, deterministic operational assistant.
//
// Pure: it reads the rule table in ./rules, matches words of the job title and details,
// scales hours and formats sentences. No clock, no randomness, no locale, no I/O, no network.
// Equal input (after whitespace and case normalisation) gives byte-identical output.

import type { z } from "zod";
import { ASSISTANT_MODES, DETAILS_MAX, JOB_TITLE_MAX, type AssistantMode, type assistantInputSchema } from "./form";
import {
  GENERIC_JOB,
  JOB_MODIFIERS,
  JOB_RULES,
  QUOTE_TERMS,
  SCHEDULE_DEFAULTS,
  TRADE_LABELS,
  type HoursRange,
  type JobModifier,
  type JobRule,
  type MaterialLine,
  type QuantityRule,
} from "./rules";

// ------------------------------------------------------------------ public types

// The form's schema and limits live in ./form (the page imports them without the rules).
export { ASSISTANT_MODES, DETAILS_MAX, JOB_TITLE_MAX, type AssistantMode } from "./form";

export interface GuidanceSection {
  heading: string;
  items: string[];
}

export interface Guidance {
  title: string;
  summary: string;
  sections: GuidanceSection[];
}

export interface AssistantData {
  mode: AssistantMode;
  engine: "local-rules";
  engineVersion: string;
  guidance: Guidance;
}

export interface GuidanceInput {
  mode: AssistantMode;
  jobTitle?: string;
  details?: string;
}


// ------------------------------------------------------------------ version

/** Bump when the engine's logic (not the rule data) changes what it says. */
const ENGINE_REVISION = 1;

/** cyrb53: a small, well-distributed, pure 53-bit string hash (not cryptographic). */
function cyrb53(str: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

const RULES_FINGERPRINT = JSON.stringify({
  revision: ENGINE_REVISION,
  rules: JOB_RULES,
  modifiers: JOB_MODIFIERS,
  generic: GENERIC_JOB,
  quoteTerms: QUOTE_TERMS,
  schedule: SCHEDULE_DEFAULTS,
  trades: TRADE_LABELS,
});

/** e.g. "1.0a3f9c2e7d41b5": engine revision, then a hash of the rule data. */
export const ENGINE_VERSION = `${ENGINE_REVISION}.${cyrb53(RULES_FINGERPRINT).toString(16).padStart(14, "0")}`;

export type AssistantFormInput = z.infer<typeof assistantInputSchema>;

/** Maps the parsed form to the engine's input. */
export function toGuidanceInput(form: AssistantFormInput): GuidanceInput {
  return { mode: form.mode, jobTitle: form.job_title, details: form.details };
}

// ------------------------------------------------------------------ text handling

function normaliseSpace(value: string | undefined, max: number): string {
  if (typeof value !== "string") return "";
  return value.replace(/\s+/g, " ").trim().slice(0, max);
}

/** Light, symmetric singularisation so "outlets" matches "outlet" and "switches" matches "switch". */
function stem(word: string): string {
  if (word.length <= 3) return word;
  if (/(ches|shes|xes|sses|zzes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Lower-case words of letters and digits; everything else separates words. */
function tokenize(text: string): string[] {
  const cleaned = text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2019']/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  return cleaned === "" ? [] : cleaned.split(" ").map(stem);
}

function phraseKey(phrase: string): string {
  return tokenize(phrase).join(" ");
}

/**
 * The words of a text with the positions of each word, so a phrase is found by looking up its
 * first word instead of scanning the whole text once per phrase (hundreds of phrases against
 * up to 5,000 characters of details). Same answer as searching " key " in the joined words.
 */
class WordIndex {
  private readonly positions = new Map<string, number[]>();
  constructor(private readonly words: readonly string[]) {
    for (let i = 0; i < words.length; i++) {
      const at = this.positions.get(words[i]);
      if (at) at.push(i);
      else this.positions.set(words[i], [i]);
    }
  }

  has(phrase: readonly string[]): boolean {
    const starts = this.positions.get(phrase[0]);
    if (!starts) return false;
    next: for (const start of starts) {
      for (let k = 1; k < phrase.length; k++) if (this.words[start + k] !== phrase[k]) continue next;
      return true;
    }
    return false;
  }
}

interface CompiledPhrase {
  readonly phrase: string;
  readonly key: string;
  readonly parts: readonly string[];
  readonly words: number;
}

function compilePhrases(phrases: readonly string[]): CompiledPhrase[] {
  const seen = new Set<string>();
  const out: CompiledPhrase[] = [];
  for (const phrase of phrases) {
    const key = phraseKey(phrase);
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    const parts = key.split(" ");
    out.push({ phrase, key, parts, words: parts.length });
  }
  return out;
}

const COMPILED_RULES = JOB_RULES.map((rule, index) => ({ rule, index, phrases: compilePhrases(rule.keywords) }));
const COMPILED_MODIFIERS = JOB_MODIFIERS.map((modifier) => ({ modifier, phrases: compilePhrases(modifier.phrases) }));

// ------------------------------------------------------------------ recognition

const TITLE_WEIGHT = 3;
const DETAILS_WEIGHT = 1;

interface RuleMatch {
  readonly rule: JobRule;
  readonly index: number;
  readonly score: number;
  readonly matched: readonly string[];
  readonly matchedKeys: ReadonlySet<string>;
}

interface Prepared {
  readonly title: WordIndex;
  readonly details: WordIndex;
  readonly tokens: readonly string[];
}

function prepare(jobTitle: string | undefined, details: string | undefined): Prepared {
  const title = normaliseSpace(jobTitle, JOB_TITLE_MAX);
  const body = normaliseSpace(details, DETAILS_MAX);
  const titleTokens = tokenize(title);
  const detailTokens = tokenize(body);
  // A separator token that no phrase contains keeps title and details from running together.
  const tokens = [...titleTokens, "|", ...detailTokens];
  return { title: new WordIndex(titleTokens), details: new WordIndex(detailTokens), tokens };
}

function rankRules(p: Prepared): RuleMatch[] {
  const matches: RuleMatch[] = [];
  for (const { rule, index, phrases } of COMPILED_RULES) {
    let score = 0;
    const matched: string[] = [];
    const matchedKeys = new Set<string>();
    for (const ph of phrases) {
      const inTitle = p.title.has(ph.parts);
      const inDetails = !inTitle && p.details.has(ph.parts);
      if (!inTitle && !inDetails) continue;
      score += ph.words * (inTitle ? TITLE_WEIGHT : DETAILS_WEIGHT);
      matched.push(ph.phrase);
      matchedKeys.add(ph.key);
    }
    if (score > 0) matches.push({ rule, index, score, matched, matchedKeys });
  }
  matches.sort((a, b) => b.score - a.score || a.index - b.index);
  return matches;
}

interface AppliedModifier {
  readonly modifier: JobModifier;
  readonly matched: readonly string[];
}

function findModifiers(p: Prepared, primary: RuleMatch | undefined): AppliedModifier[] {
  const out: AppliedModifier[] = [];
  for (const { modifier, phrases } of COMPILED_MODIFIERS) {
    if (primary?.rule.ignoreModifiers?.includes(modifier.id)) continue;
    const matched: string[] = [];
    for (const ph of phrases) {
      // A word that named the job kind itself ("knob and tube" for a rewire) is already in its
      // base hours; urgency ("no heat") still counts, because the base hours assume a booked visit.
      if (!modifier.emergency && primary?.matchedKeys.has(ph.key)) continue;
      if (p.title.has(ph.parts) || p.details.has(ph.parts)) matched.push(ph.phrase);
    }
    if (matched.length > 0) out.push({ modifier, matched });
  }
  return out;
}

/**
 * The runner-up worth mentioning: the best other rule that matched at least one phrase that is
 * not just part of a phrase the primary matched ("water heater" inside "tankless water heater").
 */
function alsoMentioned(ranked: readonly RuleMatch[]): RuleMatch | undefined {
  const primary = ranked[0];
  if (!primary) return undefined;
  const primaryKeys = [...primary.matchedKeys].map((k) => ` ${k} `);
  for (const candidate of ranked.slice(1)) {
    for (const key of candidate.matchedKeys) {
      if (!primaryKeys.some((pk) => pk.includes(` ${key} `))) return candidate;
    }
  }
  return undefined;
}

export interface Recognition {
  ruleId: string | null;
  name: string | null;
  trade: string | null;
  score: number;
  matched: string[];
  alsoMentioned: { ruleId: string; name: string; score: number } | null;
  modifiers: string[];
}

/** Which job kind (and which modifiers) the words select; exposed for tests and for the UI. */
export function recogniseJob(jobTitle?: string, details?: string): Recognition {
  const p = prepare(jobTitle, details);
  const ranked = rankRules(p);
  const primary = ranked[0];
  const second = alsoMentioned(ranked);
  return {
    ruleId: primary ? primary.rule.id : null,
    name: primary ? primary.rule.name : null,
    trade: primary ? primary.rule.trade : null,
    score: primary ? primary.score : 0,
    matched: primary ? [...primary.matched] : [],
    alsoMentioned: second ? { ruleId: second.rule.id, name: second.rule.name, score: second.score } : null,
    modifiers: findModifiers(p, primary).map((m) => m.modifier.id),
  };
}

// ------------------------------------------------------------------ quantities

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
};

/** Words between a number and a noun that mean the number is not a count of that noun. */
const QUANTITY_STOP = new Set([
  "year", "yr", "old", "amp", "volt", "v", "a", "ft", "foot", "feet", "inch", "in", "gal", "gallon",
  "minute", "min", "hour", "hr", "day", "week", "month", "story", "storey", "floor", "percent",
  "ton", "kw", "hp", "btu", "lb", "psi", "sq", "square", "mile", "x", "by", "of", "car", "person", "people",
]);

function parseCount(token: string | undefined): number | undefined {
  if (token === undefined) return undefined;
  if (/^\d{1,3}$/.test(token)) return Number(token);
  return Object.hasOwn(NUMBER_WORDS, token) ? NUMBER_WORDS[token] : undefined; // not "constructor"
}

interface QuantityCount {
  readonly total: number;
  readonly capped: boolean;
}

function countQuantity(tokens: readonly string[], q: QuantityRule): QuantityCount | undefined {
  const nouns = new Set(q.nouns);
  let total = 0;
  for (let i = 0; i < tokens.length; i++) {
    const n = parseCount(tokens[i]);
    if (n === undefined || n < 1) continue;
    for (let j = i + 1; j <= i + 3 && j < tokens.length; j++) {
      const t = tokens[j];
      if (nouns.has(t)) {
        if (n <= q.max) total += n;
        i = j;
        break;
      }
      if (t === "|" || parseCount(t) !== undefined || QUANTITY_STOP.has(t)) break;
    }
  }
  if (total === 0) return undefined;
  return total > q.max ? { total: q.max, capped: true } : { total, capped: false };
}

// ------------------------------------------------------------------ numbers and text

function fmtNum(n: number): string {
  return String(Math.round(n * 100) / 100);
}

function roundHalf(n: number): number {
  return Math.max(0.5, Math.round(n * 2) / 2);
}

function fmtRange(r: HoursRange): string {
  return r.min === r.max ? fmtNum(r.min) : `${fmtNum(r.min)}-${fmtNum(r.max)}`;
}

/** "1-2 hour" as an adjective: "a 1-2 hour visit". */
function fmtHoursAdj(r: HoursRange): string {
  return `${fmtRange(r)} hour`;
}

function fmtHours(r: HoursRange): string {
  const unit = r.min === 1 && r.max === 1 ? "hour" : "hours";
  return `${fmtRange(r)} ${unit}`;
}

function fmtMaterial(m: MaterialLine, multiplier: number): string {
  const qty = m.qty * multiplier;
  const qtyMax = m.qtyMax === undefined ? undefined : m.qtyMax * multiplier;
  let amount: string;
  if (qtyMax === undefined) amount = `${fmtNum(qty)} ${m.unit}`;
  else if (qty === 0) amount = `if needed, up to ${fmtNum(qtyMax)} ${m.unit}`;
  else amount = `${fmtNum(qty)}-${fmtNum(qtyMax)} ${m.unit}`;
  return `${m.item}: ${amount}`;
}

function shortItem(m: MaterialLine): string {
  const cut = m.item.indexOf(",");
  return cut === -1 ? m.item : m.item.slice(0, cut);
}

function quoteList(phrases: readonly string[]): string {
  return phrases.map((p) => `"${p}"`).join(", ");
}

function lowerFirst(s: string): string {
  return s.length === 0 ? s : s.charAt(0).toLowerCase() + s.slice(1);
}

// ------------------------------------------------------------------ estimate

interface Estimate {
  readonly labour: HoursRange;
  readonly duration: HoursRange;
  readonly steps: readonly string[];
  readonly quantity: QuantityCount | undefined;
}

function estimate(
  base: { labour: HoursRange; duration: HoursRange; what: string },
  quantityRule: QuantityRule | undefined,
  tokens: readonly string[],
  modifiers: readonly AppliedModifier[],
): Estimate {
  const steps: string[] = [
    `Base: ${fmtHours(base.duration)} on site (${fmtRange(base.labour)} person-hours) for ${base.what}.`,
  ];
  let extra = 0;
  const quantity = quantityRule ? countQuantity(tokens, quantityRule) : undefined;
  if (quantityRule && quantity) {
    const label = quantity.total === 1 ? quantityRule.label : quantityRule.labelPlural;
    const extraUnits = Math.max(0, quantity.total - quantityRule.included);
    const cappedNote = quantity.capped ? ` (counted up to ${quantityRule.max}; quote larger jobs after a site visit)` : "";
    if (extraUnits > 0) {
      extra = extraUnits * quantityRule.hoursEach;
      steps.push(
        `Quantity: ${quantity.total} ${label}${cappedNote}; the base covers ${quantityRule.included}, so +${extraUnits} x ${fmtNum(quantityRule.hoursEach)} h = +${fmtNum(extra)} h.`,
      );
    } else {
      steps.push(`Quantity: ${quantity.total} ${label}, covered by the base estimate.`);
    }
  }

  let factor = 1;
  let addHours = 0;
  for (const { modifier, matched } of modifiers) {
    if (modifier.factor !== 1) {
      factor *= modifier.factor;
      steps.push(`+${fmtNum(Math.round((modifier.factor - 1) * 100))} % for ${quoteList(matched)}: ${modifier.reason}.`);
    }
    if (modifier.addHours !== 0) {
      addHours += modifier.addHours;
      steps.push(`+${fmtNum(modifier.addHours)} h for ${quoteList(matched)}: ${modifier.reason}.`);
    }
  }
  if (factor > SCHEDULE_DEFAULTS.maxFactor) {
    steps.push(`Adjustments combined to x${fmtNum(factor)}; capped at x${fmtNum(SCHEDULE_DEFAULTS.maxFactor)}.`);
    factor = SCHEDULE_DEFAULTS.maxFactor;
  } else if (factor !== 1 && modifiers.filter((m) => m.modifier.factor !== 1).length > 1) {
    steps.push(`Adjustments combined: x${fmtNum(factor)}.`);
  }

  const scale = (r: HoursRange): HoursRange => {
    const min = roundHalf((r.min + extra) * factor + addHours);
    const max = Math.max(min, roundHalf((r.max + extra) * factor + addHours));
    return { min, max };
  };
  const duration = scale(base.duration);
  const labour = scale(base.labour);
  if (steps.length === 1) steps.push("No size, access or urgency words found that change the base.");
  return { labour, duration, steps, quantity };
}

function workdays(duration: HoursRange): string | undefined {
  const day = SCHEDULE_DEFAULTS.workdayHours;
  if (duration.max <= day) return undefined;
  const min = Math.max(1, Math.ceil(duration.min / day));
  const max = Math.max(min, Math.ceil(duration.max / day));
  return min === max ? `about ${min} workdays of ${day} hours` : `about ${min}-${max} workdays of ${day} hours`;
}

function arrivalWindow(duration: HoursRange, modifiers: readonly AppliedModifier[]): string[] {
  const lines: string[] = [];
  if (modifiers.some((m) => m.modifier.emergency)) lines.push(SCHEDULE_DEFAULTS.emergencyWindow);
  else if (duration.max > SCHEDULE_DEFAULTS.workdayHours) lines.push(SCHEDULE_DEFAULTS.multiDayWindow);
  else if (duration.max >= 6) lines.push(SCHEDULE_DEFAULTS.firstJobWindow);
  else if (duration.max > 3) lines.push(SCHEDULE_DEFAULTS.morningWindow);
  else lines.push(SCHEDULE_DEFAULTS.standardWindow);
  if (modifiers.some((m) => m.modifier.afterHours)) lines.push(SCHEDULE_DEFAULTS.afterHoursWindow);
  return lines;
}

function travelLines(supplierPickup: boolean, modifiers: readonly AppliedModifier[]): string[] {
  let total = SCHEDULE_DEFAULTS.baseTravelMinutes;
  const lines = [`Travel buffer: ${SCHEDULE_DEFAULTS.baseTravelMinutes} minutes between jobs in the same service area.`];
  if (supplierPickup) {
    total += SCHEDULE_DEFAULTS.supplierPickupMinutes;
    lines.push(
      `Supplier pickup: +${SCHEDULE_DEFAULTS.supplierPickupMinutes} minutes before the job unless the equipment is delivered or already on the van.`,
    );
  }
  for (const { modifier, matched } of modifiers) {
    if (modifier.travelMinutes > 0) {
      total += modifier.travelMinutes;
      lines.push(`+${modifier.travelMinutes} minutes for ${quoteList(matched)}: ${modifier.reason}.`);
    }
  }
  lines.push(`Block ${total} minutes of travel and preparation ahead of the arrival window.`);
  return lines;
}

function modifierConfirms(modifiers: readonly AppliedModifier[]): string[] {
  const out: string[] = [];
  for (const { modifier } of modifiers) if (modifier.confirm) out.push(modifier.confirm);
  return out;
}

function modifierSafety(modifiers: readonly AppliedModifier[]): string[] {
  const out: string[] = [];
  for (const { modifier } of modifiers) if (modifier.safety) out.push(modifier.safety);
  return out;
}

function depositText(percent: number): string {
  return percent > 0 ? `${percent} % ${QUOTE_TERMS.depositTerms}` : QUOTE_TERMS.depositNone;
}

function rateLines(modifiers: readonly AppliedModifier[]): string[] {
  const out: string[] = [];
  if (modifiers.some((m) => m.modifier.emergency)) out.push("Emergency call: show the emergency or after-hours rate as its own line, agreed before work starts.");
  else if (modifiers.some((m) => m.modifier.afterHours)) out.push("After-hours work: show the after-hours rate as its own line, agreed before work starts.");
  return out;
}

function termsSection(depositPercent: number, modifiers: readonly AppliedModifier[]): GuidanceSection {
  return {
    heading: "Validity, deposit and warranty",
    items: [
      `Valid for ${QUOTE_TERMS.validityDays} days from the issue date: ${QUOTE_TERMS.validityNote}.`,
      `Deposit: ${depositText(depositPercent)}.`,
      QUOTE_TERMS.warranty,
      ...rateLines(modifiers),
    ],
  };
}

function uniqueStrings(items: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    if (seen.has(item)) continue;
    seen.add(item);
    out.push(item);
  }
  return out;
}

// ------------------------------------------------------------------ builders for a recognised job

interface Context {
  readonly mode: AssistantMode;
  readonly primary: RuleMatch;
  readonly second: RuleMatch | undefined;
  readonly modifiers: readonly AppliedModifier[];
  readonly est: Estimate;
}

function alsoMentionedSection(ctx: Context): GuidanceSection[] {
  const s = ctx.second;
  if (!s) return [];
  const trade = TRADE_LABELS[s.rule.trade];
  const advice: Record<AssistantMode, string> = {
    quote: "price it as a separate line or a separate quote, and ask the customer which comes first.",
    schedule: `add ${fmtHours(s.rule.durationHours)} if it is done on the same visit, or book it separately.`,
    general: "confirm whether it is part of this job before quoting or booking.",
  };
  return [
    {
      heading: "Also mentioned",
      items: [`${s.rule.name} (${trade}, from ${quoteList(s.matched)}): ${advice[ctx.mode]}`],
    },
  ];
}

function recognisedFrom(ctx: Context): string {
  return `${TRADE_LABELS[ctx.primary.rule.trade]} job recognised: ${ctx.primary.rule.name} (from ${quoteList(ctx.primary.matched)}).`;
}

function quoteGuidance(ctx: Context): Guidance {
  const { rule } = ctx.primary;
  const multiplier = ctx.est.quantity ? Math.max(1, ctx.est.quantity.total) : 1;
  const materials = rule.materials.map((m) => fmtMaterial(m, m.perUnit ? multiplier : 1));
  const labour = [
    `Labour: ${fmtRange(ctx.est.labour)} person-hours, crew of ${rule.crewSize} (${rule.crewNote}).`,
    ...ctx.est.steps,
    "Flat rate: price from the upper figure; time and materials: state the range and the hourly rate.",
  ];
  const extras = [
    `Disposal: ${rule.disposal}`,
    `Permits: ${rule.permit}`,
    QUOTE_TERMS.travel,
    ...(rule.supplierPickup ? ["Supplier pickup or delivery of the equipment: include the run time or the delivery fee."] : []),
    ...ctx.modifiers.filter((m) => m.modifier.travelMinutes > 0).map((m) => `Extra travel for ${quoteList(m.matched)}: ${m.modifier.reason}.`),
  ];
  return {
    title: `Quote checklist: ${rule.name}`,
    summary: `${recognisedFrom(ctx)} Plan about ${fmtRange(ctx.est.labour)} labour hours with a crew of ${rule.crewSize}; deposit ${rule.depositPercent > 0 ? `${rule.depositPercent} %` : "none"}, valid ${QUOTE_TERMS.validityDays} days. Line items, options and terms below; confirm quantities on site.`,
    sections: [
      { heading: `Materials (${TRADE_LABELS[rule.trade].toLowerCase()})`, items: materials },
      { heading: "Labour", items: labour },
      { heading: "Disposal, permits and travel", items: extras },
      {
        heading: "Options: good / better / best",
        items: [`Good: ${rule.options.good}`, `Better: ${rule.options.better}`, `Best: ${rule.options.best}`],
      },
      termsSection(rule.depositPercent, ctx.modifiers),
      { heading: "Confirm with the customer", items: uniqueStrings([...rule.confirm, ...modifierConfirms(ctx.modifiers)]) },
      ...alsoMentionedSection(ctx),
    ],
  };
}

function scheduleGuidance(ctx: Context): Guidance {
  const { rule } = ctx.primary;
  const days = workdays(ctx.est.duration);
  const durationItems = [
    `Estimate: ${fmtHours(ctx.est.duration)} on site${days ? `, ${days}` : ""}.`,
    ...ctx.est.steps,
    ...(rule.durationNote ? [`Note: ${rule.durationNote}.`] : []),
    "Rounded to the half hour; book the upper figure if the next job is tight.",
  ];
  const window = arrivalWindow(ctx.est.duration, ctx.modifiers);
  return {
    title: `Schedule: ${rule.name}`,
    summary: `${recognisedFrom(ctx)} Book about ${fmtHours(ctx.est.duration)} on site with a crew of ${rule.crewSize}. ${window[0]}`,
    sections: [
      { heading: "Duration estimate", items: durationItems },
      { heading: "Arrival window and travel", items: [...window, ...travelLines(rule.supplierPickup, ctx.modifiers)] },
      {
        heading: "Crew",
        items: [
          `Crew of ${rule.crewSize}: ${rule.crewNote}.`,
          `Labour to plan: ${fmtRange(ctx.est.labour)} person-hours.`,
        ],
      },
      { heading: "Load on the van", items: [...rule.vanParts] },
      {
        heading: "Confirm before the visit",
        items: uniqueStrings([
          ...rule.confirm,
          ...modifierConfirms(ctx.modifiers),
          "Who will be home to let the crew in, parking for the van, and pets kept away from the work area.",
        ]),
      },
      ...alsoMentionedSection(ctx),
    ],
  };
}

function generalGuidance(ctx: Context): Guidance {
  const { rule } = ctx.primary;
  const mainItems = rule.materials.slice(0, 3).map(shortItem).join("; ");
  const window = arrivalWindow(ctx.est.duration, ctx.modifiers);
  return {
    title: `Next steps: ${rule.name}`,
    summary: `${recognisedFrom(ctx)} Next steps, safety notes and the follow-up after the job are below; use quote mode for line items and schedule mode for the duration reasoning.`,
    sections: [
      {
        heading: "Next steps",
        items: [
          `Confirm the scope with the customer: ${rule.confirm.slice(0, 2).join(" ")}`,
          `Price it: about ${fmtRange(ctx.est.labour)} person-hours plus materials (${mainItems}); deposit: ${depositText(rule.depositPercent)}.`,
          `Permits: ${rule.permit}`,
          `Book it: about ${fmtHours(ctx.est.duration)} on site with a crew of ${rule.crewSize}. ${window[0]}`,
          `Load the van: ${rule.vanParts.slice(0, 3).join("; ")}.`,
          "Before leaving: test the work with the customer, take after photos, clean up and collect payment or the signed completion.",
        ],
      },
      { heading: "Safety", items: uniqueStrings([...rule.safety, ...modifierSafety(ctx.modifiers)]) },
      { heading: "After the job", items: [...rule.followUp] },
      { heading: "Ask the customer", items: uniqueStrings([...rule.confirm, ...modifierConfirms(ctx.modifiers)]) },
      ...alsoMentionedSection(ctx),
    ],
  };
}

// ------------------------------------------------------------------ fallback

function fallbackGuidance(
  mode: AssistantMode,
  empty: boolean,
  modifiers: readonly AppliedModifier[],
  est: Estimate,
): Guidance {
  const opening = empty
    ? "No job title or details were given, so this is general guidance."
    : "No specific job kind was recognised in the title or details, so this is general guidance.";
  const hint =
    'Name the equipment, the problem and where it is (for example "replace 50 gallon gas water heater in garage" or "add 3 GFCI outlets in kitchen") to get trade-specific line items.';
  const helpful: GuidanceSection = { heading: "Information that would help", items: [...GENERIC_JOB.helpfulInfo] };
  const confirm = uniqueStrings([...GENERIC_JOB.confirm, ...modifierConfirms(modifiers)]);
  const window = arrivalWindow(est.duration, modifiers);

  if (mode === "quote") {
    return {
      title: "Quote checklist: job type not recognised",
      summary: `${opening} ${hint}`,
      sections: [
        { heading: "Line-item checklist", items: [...GENERIC_JOB.quoteChecklist, ...est.steps.slice(1).filter((s) => !s.startsWith("No size"))] },
        {
          heading: "Options: good / better / best",
          items: [`Good: ${GENERIC_JOB.options.good}`, `Better: ${GENERIC_JOB.options.better}`, `Best: ${GENERIC_JOB.options.best}`],
        },
        termsSection(0, modifiers),
        { heading: "Confirm with the customer", items: confirm },
        helpful,
      ],
    };
  }
  if (mode === "schedule") {
    return {
      title: "Schedule: job type not recognised",
      summary: `${opening} Book a ${fmtHoursAdj(est.duration)} service call to diagnose and quote. ${hint}`,
      sections: [
        {
          heading: "Duration estimate",
          items: [
            `Estimate: ${fmtHours(est.duration)} on site for a diagnostic or service visit.`,
            ...est.steps,
            "If the visit turns into a larger job, quote it and book a separate visit.",
          ],
        },
        { heading: "Arrival window and travel", items: [...window, ...travelLines(false, modifiers)] },
        {
          heading: "Crew",
          items: [`Crew of ${GENERIC_JOB.crewSize}: one technician; send two if heavy equipment or ladder work over one storey is involved.`],
        },
        { heading: "Load on the van", items: [...GENERIC_JOB.vanParts] },
        { heading: "Confirm before the visit", items: confirm },
        helpful,
      ],
    };
  }
  return {
    title: "Next steps: job type not recognised",
    summary: `${opening} ${hint}`,
    sections: [
      {
        heading: "Next steps",
        items: [
          "Call the customer to pin down the job: what, where, and how urgent.",
          "Ask for photos of the problem and of any equipment labels.",
          `Book a ${fmtHoursAdj(est.duration)} diagnostic visit, or an estimate visit for larger work. ${window[0]}`,
          "Quote after the visit with materials, labour, disposal, permits and travel as separate lines.",
        ],
      },
      { heading: "Safety", items: uniqueStrings([...GENERIC_JOB.safety, ...modifierSafety(modifiers)]) },
      { heading: "After the job", items: [...GENERIC_JOB.followUp] },
      helpful,
    ],
  };
}

// ------------------------------------------------------------------ entry point

/** Deterministic guidance for a job: equal input gives byte-identical JSON. */
export function generateGuidance(input: GuidanceInput): AssistantData {
  const mode = input.mode;
  if (!ASSISTANT_MODES.includes(mode)) {
    throw new RangeError("mode must be quote, schedule or general");
  }
  const p = prepare(input.jobTitle, input.details);
  const ranked = rankRules(p);
  const primary = ranked[0];
  const modifiers = findModifiers(p, primary);

  let guidance: Guidance;
  if (primary) {
    const { rule } = primary;
    const est = estimate(
      { labour: rule.labourHours, duration: rule.durationHours, what: lowerFirst(rule.name) },
      rule.quantity,
      p.tokens,
      modifiers,
    );
    const ctx: Context = { mode, primary, second: alsoMentioned(ranked), modifiers, est };
    guidance = mode === "quote" ? quoteGuidance(ctx) : mode === "schedule" ? scheduleGuidance(ctx) : generalGuidance(ctx);
  } else {
    const est = estimate(
      { labour: GENERIC_JOB.labourHours, duration: GENERIC_JOB.durationHours, what: "a general service call (diagnosis and a simple repair)" },
      undefined,
      p.tokens,
      modifiers,
    );
    const empty = p.tokens.length === 1; // only the title/details separator
    guidance = fallbackGuidance(mode, empty, modifiers, est);
  }

  return {
    mode,
    engine: "local-rules",
    engineVersion: ENGINE_VERSION,
    guidance: {
      title: guidance.title,
      summary: guidance.summary,
      sections: guidance.sections
        .filter((s) => s.items.length > 0)
        .map((s) => ({ heading: s.heading, items: [...s.items] })),
    },
  };
}
