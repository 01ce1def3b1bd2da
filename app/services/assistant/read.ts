// Reading a request: which job kind the words select, and what they say about it (where it
// is, what state it is in, sizes, age, access, urgency), with the effects each finding has on
// that kind of job. Pure: the same words always give the same reading.

import {
  AGE_RULES,
  FIXTURES,
  HOUSE_WORDS,
  JOB_MODIFIERS,
  JOB_RULES,
  MEASURE_RULES,
  MEASURE_UNITS,
  NUMBER_WORDS,
  QUANTITY_STOP,
  SUBJECTS,
  TRADE_GENERAL,
  WORDING,
  type EffectWhen,
  type JobModifier,
  type JobRule,
  type MeasureId,
  type ModifierEffect,
  type ModifierKind,
  type QuantityRule,
  type Trade,
} from "./rules";
import { DETAILS_MAX, JOB_TITLE_MAX } from "./schema";
import {
  SEPARATOR,
  WordIndex,
  compilePhrases,
  normaliseSpace,
  phraseTokens,
  tokenize,
  type CompiledPhrase,
} from "./text";
import { fill, fmtNum } from "./format";

const TITLE_WEIGHT = 3;
const DETAILS_WEIGHT = 1;
/** How far from a condition word its subject may be ("existing venting corroded"). */
const SUBJECT_WINDOW = 3;

const COMPILED_RULES = JOB_RULES.map((rule, index) => ({
  rule,
  index,
  phrases: compilePhrases(rule.keywords),
  symptoms: compilePhrases(rule.symptoms),
  fixtures: [rule.fixture, ...(rule.alsoFixtures ?? [])],
}));
/** Fixture phrases by their first word (built once; a request looks only at its own words). */
const FIXTURE_PHRASES_BY_FIRST_WORD = new Map<string, Array<{ id: string; ph: CompiledPhrase }>>();
for (const fixture of FIXTURES) {
  for (const ph of compilePhrases(fixture.words)) {
    const list = FIXTURE_PHRASES_BY_FIRST_WORD.get(ph.parts[0]);
    if (list) list.push({ id: fixture.id, ph });
    else FIXTURE_PHRASES_BY_FIRST_WORD.set(ph.parts[0], [{ id: fixture.id, ph }]);
  }
}
const COMPILED_TRADES = TRADE_GENERAL.map((general) => ({ general, phrases: compilePhrases(general.words) }));

/** Below this confidence the answer is the trade's general checklist, not a kind's. */
export const CONFIDENCE_THRESHOLD = 0.5;
const COMPILED_MODIFIERS = JOB_MODIFIERS.map((modifier) => ({ modifier, phrases: compilePhrases(modifier.phrases) }));
const COMPILED_SUBJECTS = SUBJECTS.map((subject) => ({ subject, phrases: compilePhrases(subject.words) }));
const UNIT_OF = new Map<string, MeasureId>();
for (const m of MEASURE_UNITS) for (const u of m.units) for (const t of phraseTokens(u)) UNIT_OF.set(t, m.id);
const HOUSE = new Set(HOUSE_WORDS.flatMap(phraseTokens));
const STOP = new Set(QUANTITY_STOP.flatMap(phraseTokens));
const [YEAR, OLD, AGO, THOUSAND] = ["year", "old", "ago", "k"];

/** Phrases of effect conditions, compiled once on first use (same answer every time). */
const conditionPhrases = new Map<string, CompiledPhrase[]>();
function compiledCondition(phrases: readonly string[]): CompiledPhrase[] {
  const key = phrases.join("\u0000");
  let found = conditionPhrases.get(key);
  if (!found) {
    found = compilePhrases(phrases);
    conditionPhrases.set(key, found);
  }
  return found;
}

// ------------------------------------------------------------------ the request's words

export interface Words {
  readonly index: WordIndex;
  readonly tokens: readonly string[];
  /** Tokens before this position are the title's. */
  readonly titleLength: number;
  readonly empty: boolean;
}

export function readWords(jobTitle: string | undefined, details: string | undefined): Words {
  const title = tokenize(normaliseSpace(jobTitle, JOB_TITLE_MAX));
  const body = tokenize(normaliseSpace(details, DETAILS_MAX));
  const tokens = [...title, SEPARATOR, ...body];
  return { index: new WordIndex(tokens), tokens, titleLength: title.length, empty: title.length + body.length === 0 };
}

function mentions(words: Words, phrases: readonly string[]): boolean {
  return compiledCondition(phrases).some((p) => words.index.has(p.parts));
}

// ------------------------------------------------------------------ job kinds

export interface RuleMatch {
  readonly rule: JobRule;
  readonly index: number;
  readonly score: number;
  readonly matched: readonly string[];
  readonly matchedKeys: ReadonlySet<string>;
  /** The kind's fixtures (its own first). */
  readonly fixtures: readonly string[];
}

/**
 * Fixtures the request names, with the weight of the strongest mention (title 3, details 1).
 * A mention inside a longer one of another fixture does not count: "garage door opener" names
 * the opener, not the door; "heat pump water heater" names a water heater, not a heat pump.
 */
export function namedFixtures(words: Words): Map<string, number> {
  const hits: Array<{ id: string; start: number; end: number }> = [];
  for (const word of words.index.distinct()) {
    for (const { id, ph } of FIXTURE_PHRASES_BY_FIRST_WORD.get(word) ?? []) {
      for (const at of words.index.find(ph.parts)) hits.push({ id, start: at, end: at + ph.words - 1 });
    }
  }
  const out = new Map<string, number>();
  for (const h of hits) {
    const inside = hits.some(
      (o) => o.id !== h.id && o.start <= h.start && o.end >= h.end && o.end - o.start > h.end - h.start,
    );
    if (inside) continue;
    const weight = h.start < words.titleLength ? TITLE_WEIGHT : DETAILS_WEIGHT;
    out.set(h.id, Math.max(out.get(h.id) ?? 0, weight));
  }
  return out;
}

/** A phrase of a kind (keyword or symptom), found through its first word. */
interface PhraseRef {
  readonly entry: (typeof COMPILED_RULES)[number];
  readonly ph: CompiledPhrase;
  readonly symptom: boolean;
  /** Its place among the kind's phrases, so matches are listed in the table's order. */
  readonly ordinal: number;
}

/**
 * The kinds' phrases by their first word, and the kinds by their own fixture: built once, so a
 * request only looks at the phrases whose first word it contains (a few dozen of ~1,350).
 */
const PHRASES_BY_FIRST_WORD = new Map<string, PhraseRef[]>();
const RULES_BY_FIXTURE = new Map<string, Array<(typeof COMPILED_RULES)[number]>>();
for (const entry of COMPILED_RULES) {
  const refs = [
    ...entry.phrases.map((ph) => ({ ph, symptom: false })),
    ...entry.symptoms.map((ph) => ({ ph, symptom: true })),
  ];
  refs.forEach(({ ph, symptom }, ordinal) => {
    const list = PHRASES_BY_FIRST_WORD.get(ph.parts[0]);
    const ref = { entry, ph, symptom, ordinal };
    if (list) list.push(ref);
    else PHRASES_BY_FIRST_WORD.set(ph.parts[0], [ref]);
  });
  const byFixture = RULES_BY_FIXTURE.get(entry.rule.fixture);
  if (byFixture) byFixture.push(entry);
  else RULES_BY_FIXTURE.set(entry.rule.fixture, [entry]);
}

interface Hit {
  readonly entry: (typeof COMPILED_RULES)[number];
  score: number;
  readonly found: Array<{ phrase: string; ordinal: number }>;
  readonly keys: Set<string>;
}

/**
 * Every kind the words point to, best first. A kind scores its keywords (words in the phrase x
 * 3 in the title, x 1 in the details), its symptoms when the request names its fixture or no
 * fixture at all, and the weight of its own fixture when the request names it. Ties go to the
 * earlier kind in the tables.
 */
export function rankRules(words: Words, named: ReadonlyMap<string, number>): RuleMatch[] {
  const hits = new Map<number, Hit>();
  const hitOf = (entry: (typeof COMPILED_RULES)[number]): Hit => {
    let hit = hits.get(entry.index);
    if (!hit) {
      hit = { entry, score: 0, found: [], keys: new Set() };
      hits.set(entry.index, hit);
    }
    return hit;
  };
  for (const word of words.index.distinct()) {
    for (const { entry, ph, symptom, ordinal } of PHRASES_BY_FIRST_WORD.get(word) ?? []) {
      if (symptom && named.size > 0 && !entry.fixtures.some((f) => named.has(f))) continue;
      const at = words.index.first(ph.parts);
      if (at === -1) continue;
      const hit = hitOf(entry);
      if (hit.keys.has(ph.key)) continue;
      hit.score += ph.words * (at < words.titleLength ? TITLE_WEIGHT : DETAILS_WEIGHT);
      hit.found.push({ phrase: ph.phrase, ordinal });
      hit.keys.add(ph.key);
    }
  }
  for (const [fixture, weight] of named) {
    for (const entry of RULES_BY_FIXTURE.get(fixture) ?? []) hitOf(entry).score += weight;
  }
  const matches: RuleMatch[] = [];
  for (const { entry, score, found, keys } of hits.values()) {
    found.sort((a, b) => a.ordinal - b.ordinal);
    matches.push({
      rule: entry.rule,
      index: entry.index,
      score,
      matched: found.map((f) => f.phrase),
      matchedKeys: keys,
      fixtures: entry.fixtures,
    });
  }
  matches.sort((a, b) => b.score - a.score || a.index - b.index);
  return matches;
}

/** What the engine settled on: a kind it is sure enough of, or only what it understood. */
export interface Choice {
  /** The kind answered, when confidence reaches the threshold. */
  readonly primary: RuleMatch | undefined;
  /** The best kind about a named fixture (or the best overall when none is named). */
  readonly candidate: RuleMatch | undefined;
  /** 0-1, two decimals. */
  readonly confidence: number;
  readonly named: ReadonlyMap<string, number>;
  /** The trade the request is about, when it can tell. */
  readonly trade: Trade | undefined;
}

function wordsOf(m: RuleMatch): Set<string> {
  return new Set([...m.matchedKeys].flatMap((k) => k.split(" ")));
}

function aboutNamed(m: RuleMatch, named: ReadonlyMap<string, number>): boolean {
  return m.fixtures.some((f) => named.has(f));
}

/**
 * How sure the engine is of a kind: stronger matches are surer (score / (score + 3)), a rival
 * kind about another fixture with a close score makes it less sure (by up to a half, with the
 * square of the rivals' score ratio), and naming the kind's fixture makes it surer.
 */
function confidenceOf(pick: RuleMatch, ranked: readonly RuleMatch[], named: ReadonlyMap<string, number>): number {
  let c = pick.score / (pick.score + 3);
  // A rival is a kind about another fixture that claims some of the same words: two problems
  // named in separate words ("toilet running and faucet drips") are two jobs, not a doubt.
  const own = wordsOf(pick);
  const rival = ranked.find(
    (m) => m !== pick && !m.fixtures.some((f) => pick.fixtures.includes(f)) && [...wordsOf(m)].some((w) => own.has(w)),
  );
  if (rival) c *= 1 - 0.5 * Math.min(1, rival.score / pick.score) ** 2;
  if (aboutNamed(pick, named)) c += 0.1;
  return Math.round(Math.min(0.99, c) * 100) / 100;
}

function tradeOf(
  words: Words,
  candidate: RuleMatch | undefined,
  named: ReadonlyMap<string, number>,
): Trade | undefined {
  if (candidate) return candidate.rule.trade;
  for (const [id] of named) {
    const rule = JOB_RULES.find((r) => r.fixture === id);
    if (rule) return rule.trade;
  }
  for (const { general, phrases } of COMPILED_TRADES)
    if (phrases.some((p) => words.index.has(p.parts))) return general.trade;
  return undefined;
}

/**
 * The kind to answer. When the request names fixtures, the kind must be about one of them
 * (never another fixture's guidance): the best kind that is takes the place of one that is not.
 * Below the confidence threshold no kind is answered; the trade's general checklist is.
 */
export function choose(words: Words): Choice & { ranked: readonly RuleMatch[] } {
  const named = namedFixtures(words);
  const ranked = rankRules(words, named);
  let candidate: RuleMatch | undefined = ranked[0];
  if (candidate && named.size > 0 && !aboutNamed(candidate, named)) {
    candidate = ranked.find((m) => aboutNamed(m, named));
  }
  const confidence = candidate ? confidenceOf(candidate, ranked, named) : 0;
  const primary = candidate && confidence >= CONFIDENCE_THRESHOLD ? candidate : undefined;
  return { primary, candidate, confidence, named, trade: tradeOf(words, candidate, named), ranked };
}

/**
 * The runner-up worth mentioning: the best other rule that matched at least one phrase that is
 * not just part of a phrase the primary matched ("water heater" inside "tankless water heater").
 */
export function alsoMentioned(ranked: readonly RuleMatch[], primary: RuleMatch | undefined): RuleMatch | undefined {
  if (!primary) return undefined;
  const primaryKeys = [...primary.matchedKeys].map((k) => ` ${k} `);
  for (const candidate of ranked) {
    if (candidate === primary || candidate.fixtures.some((f) => primary.fixtures.includes(f))) continue;
    for (const key of candidate.matchedKeys) {
      if (!primaryKeys.some((pk) => pk.includes(` ${key} `))) return candidate;
    }
  }
  return undefined;
}

// ------------------------------------------------------------------ findings

export type FindingKind = ModifierKind | "size" | "age";

/** One thing read from the request, with what it adds to this job. */
export interface Finding {
  readonly kind: FindingKind;
  /** How the answer names it: a rule phrase or a number with its unit, never the user's text. */
  readonly label: string;
  readonly modifier?: JobModifier;
  /** Rule phrases that selected it (modifiers only). */
  readonly matched: readonly string[];
  readonly effects: readonly ResolvedEffect[];
}

/** An effect with its `{n}` filled in. */
export interface ResolvedEffect extends Omit<ModifierEffect, "when"> {
  readonly label: string;
}

interface Situation {
  readonly rule: JobRule | undefined;
  readonly words: Words;
  readonly subject?: string;
}

function applies(when: EffectWhen, s: Situation): boolean {
  if (when.jobs && !(s.rule && when.jobs.includes(s.rule.id))) return false;
  if (when.tags && !(s.rule && when.tags.some((t) => s.rule!.tags.includes(t)))) return false;
  if (when.trades && !(s.rule && when.trades.includes(s.rule.trade))) return false;
  if (when.subjects && !(s.subject && when.subjects.includes(s.subject))) return false;
  if (when.words && !mentions(s.words, when.words)) return false;
  if (when.unlessWords && when.unlessWords.length > 0 && mentions(s.words, when.unlessWords)) return false;
  return true;
}

function resolve(effect: Omit<ModifierEffect, "when">, label: string, n?: number): ResolvedEffect {
  const vars = { n: n === undefined ? "" : fmtNum(n) };
  const f = (list: readonly string[] | undefined) => list?.map((t) => fill(t, vars));
  return {
    label,
    items: effect.items,
    addHours: effect.addHours,
    hoursReason: effect.hoursReason === undefined ? undefined : fill(effect.hoursReason, vars),
    code: f(effect.code),
    risks: f(effect.risks),
    confirm: f(effect.confirm),
  };
}

/** The subject nearest a condition word, within the same part (title or details). */
function subjectNear(words: Words, start: number, length: number): { id: string; label: string } | undefined {
  let best: { id: string; label: string; distance: number; size: number; after: boolean } | undefined;
  for (const { subject, phrases } of COMPILED_SUBJECTS) {
    for (const ph of phrases) {
      for (const at of words.index.find(ph.parts)) {
        const end = at + ph.parts.length - 1;
        const after = at >= start + length;
        const distance = after ? at - (start + length - 1) : start - end;
        if (distance < 1 || distance > SUBJECT_WINDOW) continue;
        const lo = Math.min(at, start);
        const hi = Math.max(end, start + length - 1);
        if (words.tokens.slice(lo, hi + 1).includes(SEPARATOR)) continue;
        const better =
          !best ||
          distance < best.distance ||
          (distance === best.distance &&
            (ph.parts.length > best.size || (ph.parts.length === best.size && after && !best.after)));
        if (better) best = { id: subject.id, label: subject.label, distance, size: ph.parts.length, after };
      }
    }
  }
  return best ? { id: best.id, label: best.label } : undefined;
}

/** Conditions whose effects depend on what they are about ("corroded vent" vs "corroded pipe"). */
const readsSubject = new Set(
  JOB_MODIFIERS.filter((m) => (m.effects ?? []).some((e) => e.when.subjects)).map((m) => m.id),
);

function modifierFindings(words: Words, primary: RuleMatch | undefined): Finding[] {
  const out: Finding[] = [];
  const rule = primary?.rule;
  for (const { modifier, phrases } of COMPILED_MODIFIERS) {
    if (rule?.ignoreModifiers?.includes(modifier.id)) continue;
    const matched: string[] = [];
    let subject: { id: string; label: string } | undefined;
    for (const ph of phrases) {
      // A word that named the job kind itself ("knob and tube" for a rewire) is already in its
      // base hours; conditions and urgency still count, because the base assumes a sound,
      // booked job.
      if (modifier.kind !== "condition" && !modifier.emergency && primary?.matchedKeys.has(ph.key)) continue;
      if (words.index.first(ph.parts) === -1) continue;
      matched.push(ph.phrase);
      if (readsSubject.has(modifier.id) && !subject) {
        for (const start of words.index.find(ph.parts)) {
          subject = subjectNear(words, start, ph.parts.length);
          if (subject) break;
        }
      }
    }
    if (matched.length === 0) continue;
    const label = subject ? `${modifier.label} ${subject.label}` : modifier.label;
    const situation: Situation = { rule, words, subject: subject?.id };
    const effects = (modifier.effects ?? []).filter((e) => applies(e.when, situation)).map((e) => resolve(e, label));
    out.push({ kind: modifier.kind, label, modifier, matched, effects });
  }
  return out;
}

// ------------------------------------------------------------------ numbers

function parseNumber(token: string | undefined): number | undefined {
  if (token === undefined || !/^\d+(?:\.\d+)?$/.test(token)) return undefined;
  return Number(token);
}

/** The first value of each measure in the request ("50 gal", "3 ton", "80k btu", "200 amp"). */
export function readMeasures(tokens: readonly string[]): Map<MeasureId, number> {
  const out = new Map<MeasureId, number>();
  for (let i = 0; i < tokens.length; i++) {
    let n = parseNumber(tokens[i]);
    if (n === undefined) continue;
    let j = i + 1;
    if (tokens[j] === THOUSAND) {
      n *= 1000;
      j++;
    }
    const id = UNIT_OF.get(tokens[j] ?? "");
    if (!id || out.has(id)) continue;
    const unit = MEASURE_UNITS.find((m) => m.id === id)!;
    if (n >= unit.min && n <= unit.max) out.set(id, n);
  }
  return out;
}

export interface Age {
  readonly years: number;
  readonly ofHouse: boolean;
}

/** Ages written as "20 year old", "20 yr old heater", "house is 60 years old", "installed 15 years ago". */
export function readAges(tokens: readonly string[]): Age[] {
  const out: Age[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    const n = parseNumber(tokens[i]);
    if (n === undefined || n < 1 || n > 150 || tokens[i + 1] !== YEAR) continue;
    const next = tokens[i + 2];
    if (next !== OLD && next !== AGO) continue;
    const around = [...tokens.slice(Math.max(0, i - 3), i), ...tokens.slice(i + 3, i + 6)];
    const cut = around.indexOf(SEPARATOR);
    const near = cut === -1 ? around : around.slice(0, cut);
    const ofHouse = near.some((t) => HOUSE.has(t));
    if (!out.some((a) => a.ofHouse === ofHouse)) out.push({ years: n, ofHouse });
  }
  return out;
}

function sizeFindings(words: Words, rule: JobRule | undefined): Finding[] {
  const out: Finding[] = [];
  const measures = readMeasures(words.tokens);
  for (const unit of MEASURE_UNITS) {
    const n = measures.get(unit.id);
    if (n === undefined) continue;
    const label = fill(unit.label, { n: fmtNum(n) });
    const situation: Situation = { rule, words };
    const effects = MEASURE_RULES.filter(
      (m) =>
        m.measure === unit.id &&
        (m.atLeast === undefined || n >= m.atLeast) &&
        (m.below === undefined || n < m.below) &&
        applies(m.when, situation),
    ).map((m) => resolve(m.effect, label, n));
    out.push({ kind: "size", label, matched: [], effects });
  }
  for (const age of readAges(words.tokens)) {
    const label = fill(age.ofHouse ? WORDING.ageOfHouse : WORDING.ageOfEquipment, { n: fmtNum(age.years) });
    const situation: Situation = { rule, words };
    const effects = AGE_RULES.filter(
      (a) => a.ofHouse === age.ofHouse && age.years >= a.atLeast && applies(a.when, situation),
    ).map((a) => resolve(a.effect, label, age.years));
    out.push({ kind: "age", label, matched: [], effects });
  }
  return out;
}

/** Everything read from the request, in table order: modifiers, then sizes, then ages. */
export function readFindings(words: Words, primary: RuleMatch | undefined): Finding[] {
  return [...modifierFindings(words, primary), ...sizeFindings(words, primary?.rule)];
}

export function measuresOf(words: Words): Map<MeasureId, number> {
  return readMeasures(words.tokens);
}

// ------------------------------------------------------------------ counted quantities

function parseCount(token: string | undefined): number | undefined {
  if (token === undefined) return undefined;
  if (/^\d{1,3}$/.test(token)) return Number(token);
  return Object.hasOwn(NUMBER_WORDS, token) ? NUMBER_WORDS[token] : undefined; // not "constructor"
}

export interface QuantityCount {
  readonly total: number;
  readonly capped: boolean;
}

export function countQuantity(tokens: readonly string[], q: QuantityRule): QuantityCount | undefined {
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
      if (t === SEPARATOR || parseCount(t) !== undefined || STOP.has(t)) break;
    }
  }
  if (total === 0) return undefined;
  return total > q.max ? { total: q.max, capped: true } : { total, capped: false };
}
