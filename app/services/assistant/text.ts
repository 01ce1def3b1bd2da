// Words: normalising, shorthand and typos, singular forms, and finding phrases fast.
//
// The request is read as a list of tokens. Shorthand the trades write ("wtr htr", "50g",
// "2nd flr", "w/", "ckt", "disposer") is mapped to the words the rules use, and a misspelt word
// is read as the nearest rule word ("furnance", "toliet"; see the typos section). Rule phrases
// go through the same steps (without the correction), so both sides meet in the same form.

import { distance as levenshtein } from "fastest-levenshtein";
import { KNOWLEDGE, VOCABULARY } from "./rules";

/** Separates the title's tokens from the details' tokens; no phrase contains it. */
export const SEPARATOR = "|";

export function normaliseSpace(value: string | undefined, max: number): string {
  if (typeof value !== "string") return "";
  return value.replace(/\s+/g, " ").trim().slice(0, max);
}

/** Light, symmetric singularisation so "outlets" matches "outlet" and "switches" matches "switch". */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (/(ches|shes|xes|sses|zzes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

// Ordinals stay whole ("2nd"), decimals stay whole ("3.5"), a number glued to a unit splits
// ("50g" -> "50 g", "200a" -> "200 a"), and words keep their digits ("r22", "r410a").
const RAW_TOKEN = /\d+(?:st|nd|rd|th)\b|\d+(?:\.\d+)?|\p{L}[\p{L}\p{N}]*/gu;

function rawTokens(text: string): string[] {
  const cleaned = text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2019']/g, "")
    // "w/o" and "w/" are how the trades write without and with ("faucet w/ sprayer").
    .replace(/\bw\/o\b/g, " without ")
    .replace(/\bw\//g, " with ")
    .replace(/\ba\s*[/.]\s*c\b\.?/g, "ac")
    .replace(/(\d),(?=\d{3}(?!\d))/g, "$1");
  return cleaned.match(RAW_TOKEN) ?? [];
}

const SHORTHAND = new Map<string, readonly string[]>(
  Object.entries(VOCABULARY.words).map(([from, to]) => [from, to.split(" ")]),
);

function expand(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of raw) {
    const to = Object.hasOwn(VOCABULARY.words, token) ? SHORTHAND.get(token) : undefined;
    if (to) out.push(...to);
    else out.push(token);
  }
  return out;
}

/** Tokens of a rule phrase or a known word: no typo correction (they are the reference). */
export function phraseTokens(text: string): string[] {
  return expand(rawTokens(text)).map(stem);
}

// ------------------------------------------------------------------ typos

/**
 * Spelling correction against the rules' own vocabulary. A word of 5+ letters that no table
 * uses anywhere is compared with the words of the phrases that select jobs, fixtures and
 * modifiers: the nearest one within the allowed distance wins (1 edit up to 8 letters, 2 from
 * 9; a swap of two neighbouring letters counts as one edit, as in "toliet"). Ties go to the
 * word that comes first in the knowledge, so the same typo always maps to the same word.
 * Distances come from `fastest-levenshtein`; candidates share the first letter (or are a swap
 * of the first two), which keeps the search small and avoids far-fetched corrections.
 */
const TYPO_MIN = 5;

/** Every word the knowledge uses anywhere: such a word is never "corrected". */
const KNOWN = new Set<string>();
for (const word of JSON.stringify(KNOWLEDGE)
  .toLowerCase()
  .match(/\p{L}+/gu) ?? []) {
  KNOWN.add(word);
  KNOWN.add(stem(word));
}
for (const word of VOCABULARY.keep) {
  KNOWN.add(word);
  KNOWN.add(stem(word));
}

/** Correction targets by first letter, in knowledge order (the tie-break order). */
const TARGETS = new Map<string, string[]>();
function addTarget(word: string): void {
  if (word.length < TYPO_MIN - 1 || !/^\p{L}+$/u.test(word)) return;
  const list = TARGETS.get(word[0]);
  if (!list) TARGETS.set(word[0], [word]);
  else if (!list.includes(word)) list.push(word);
}
for (const phrase of [
  ...KNOWLEDGE.rules.flatMap((r) => [...r.keywords, ...r.symptoms]),
  ...KNOWLEDGE.fixtures.flatMap((f) => f.words),
  ...KNOWLEDGE.modifiers.flatMap((m) => m.phrases),
  ...KNOWLEDGE.subjects.flatMap((s) => s.words),
]) {
  for (const word of phraseTokens(phrase)) addTarget(word);
}

/** True when b is a with two neighbouring letters swapped. */
function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i < a.length - 1 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

function editDistance(a: string, b: string): number {
  return isSwap(a, b) ? 1 : levenshtein(a, b);
}

/** Corrections already worked out (pure, so caching cannot change an answer); bounded. */
const CORRECTED = new Map<string, string>();
const CORRECTED_MAX = 20_000;

function nearest(word: string): string {
  const allowed = word.length >= 9 ? 2 : 1;
  let best = word;
  let bestDistance = allowed + 1;
  const candidates = [...(TARGETS.get(word[0]) ?? []), ...(TARGETS.get(word[1]) ?? [])];
  for (const target of candidates) {
    if (Math.abs(target.length - word.length) > allowed) continue;
    if (target[0] !== word[0] && !(target[0] === word[1] && target[1] === word[0])) continue;
    const d = editDistance(word, target);
    if (d < bestDistance) {
      best = target;
      bestDistance = d;
    }
  }
  return best;
}

export function correct(word: string): string {
  if (word.length < TYPO_MIN || KNOWN.has(word) || !/^\p{L}+$/u.test(word)) return word;
  let found = CORRECTED.get(word);
  if (found === undefined) {
    found = nearest(word);
    if (CORRECTED.size >= CORRECTED_MAX) CORRECTED.clear();
    CORRECTED.set(word, found);
  }
  return found;
}

/** Tokens of the user's text: shorthand expanded, singular, typos of rule words corrected. */
export function tokenize(text: string): string[] {
  return expand(rawTokens(text)).map((t) => correct(stem(t)));
}

// ------------------------------------------------------------------ phrases

export interface CompiledPhrase {
  readonly phrase: string;
  readonly key: string;
  readonly parts: readonly string[];
  readonly words: number;
}

export function compilePhrases(phrases: readonly string[]): CompiledPhrase[] {
  const seen = new Set<string>();
  const out: CompiledPhrase[] = [];
  for (const phrase of phrases) {
    const parts = phraseTokens(phrase);
    const key = parts.join(" ");
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    out.push({ phrase, key, parts, words: parts.length });
  }
  return out;
}

/**
 * The words of a request with the positions of each word, so a phrase is found by looking up
 * its first word instead of scanning the whole text once per phrase (hundreds of phrases
 * against up to 5,000 characters of details).
 */
export class WordIndex {
  private readonly positions = new Map<string, number[]>();
  constructor(readonly words: readonly string[]) {
    for (let i = 0; i < words.length; i++) {
      const at = this.positions.get(words[i]);
      if (at) at.push(i);
      else this.positions.set(words[i], [i]);
    }
  }

  /** Each distinct word of the request once, in order of first occurrence. */
  distinct(): IterableIterator<string> {
    return this.positions.keys();
  }

  /** Start positions of every occurrence of the phrase, in order. */
  find(phrase: readonly string[]): number[] {
    const starts = this.positions.get(phrase[0]);
    if (!starts) return [];
    const out: number[] = [];
    next: for (const start of starts) {
      for (let k = 1; k < phrase.length; k++) if (this.words[start + k] !== phrase[k]) continue next;
      out.push(start);
    }
    return out;
  }

  /** Position of the first occurrence, or -1 (no array built: this runs for every phrase). */
  first(phrase: readonly string[]): number {
    const starts = this.positions.get(phrase[0]);
    if (!starts) return -1;
    next: for (const start of starts) {
      for (let k = 1; k < phrase.length; k++) if (this.words[start + k] !== phrase[k]) continue next;
      return start;
    }
    return -1;
  }

  has(phrase: readonly string[]): boolean {
    return this.first(phrase) !== -1;
  }
}
