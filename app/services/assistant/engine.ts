// The local, deterministic operational assistant.
//
// Pure: it reads the rule tables in ./rules, matches the words of the job title and details,
// reads what they say about the job (where, what state, sizes, age, access, urgency), scales
// hours and fills in sentences. No clock, no randomness, no locale, no I/O, no network. Equal
// input (after whitespace and case normalisation) gives byte-identical output.
//
//   text.ts     words, shorthand, typos, phrase lookup
//   read.ts     job kind, findings and their effects, sizes, ages, counts
//   estimate.ts hours with their reasoning
//   compose.ts  the quote, schedule and next-steps answers
//   version.ts  the engine version (a hash of the knowledge)
//   schema.ts   public shapes and the form schema

import { fallbackGuidance, recognisedGuidance } from "./compose";
import { alsoMentioned, choose, readFindings, readWords } from "./read";
import { ASSISTANT_MODES, type AssistantData, type Guidance, type GuidanceInput } from "./schema";
import { ENGINE_VERSION } from "./version";

export * from "./schema";
export { ENGINE_VERSION };

export interface Recognition {
  /** The kind answered: null when none was recognised or the engine is not sure enough. */
  ruleId: string | null;
  name: string | null;
  trade: string | null;
  /** The fixture the answered kind is about. */
  fixture: string | null;
  /** How sure the engine is of the best kind about what the request names (0-1). */
  confidence: number;
  /** That best kind, answered or not. */
  candidateId: string | null;
  /** Fixtures the request names. */
  fixturesNamed: string[];
  score: number;
  matched: string[];
  alsoMentioned: { ruleId: string; name: string; score: number } | null;
  modifiers: string[];
  /** What was read, as the answer names it ("garage", "corroded vent", "50 gal"). */
  findings: string[];
}

/** Which job kind (and which modifiers) the words select; exposed for tests and for the UI. */
export function recogniseJob(jobTitle?: string, details?: string): Recognition {
  const words = readWords(jobTitle, details);
  const choice = choose(words);
  const primary = choice.primary;
  const second = alsoMentioned(choice.ranked, primary);
  const findings = readFindings(words, primary);
  return {
    ruleId: primary ? primary.rule.id : null,
    name: primary ? primary.rule.name : null,
    trade: primary ? primary.rule.trade : (choice.trade ?? null),
    fixture: primary ? primary.rule.fixture : null,
    confidence: choice.confidence,
    candidateId: choice.candidate ? choice.candidate.rule.id : null,
    fixturesNamed: [...choice.named.keys()],
    score: primary ? primary.score : 0,
    matched: primary ? [...primary.matched] : [],
    alsoMentioned: second ? { ruleId: second.rule.id, name: second.rule.name, score: second.score } : null,
    modifiers: findings.flatMap((f) => (f.modifier ? [f.modifier.id] : [])),
    findings: findings.map((f) => f.label),
  };
}

/** Deterministic guidance for a job: equal input gives byte-identical JSON. */
export function generateGuidance(input: GuidanceInput): AssistantData {
  const mode = input.mode;
  if (!ASSISTANT_MODES.includes(mode)) {
    throw new RangeError("mode must be quote, schedule or general");
  }
  const words = readWords(input.jobTitle, input.details);
  const choice = choose(words);
  const primary = choice.primary;
  const findings = readFindings(words, primary);
  const guidance: Guidance = primary
    ? recognisedGuidance(mode, words, primary, alsoMentioned(choice.ranked, primary), findings, choice.confidence)
    : fallbackGuidance(mode, words, findings, choice);

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
