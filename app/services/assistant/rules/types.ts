// The shapes of the assistant's knowledge. Everything the engine says comes from tables of
// these types (one file per trade, plus modifiers, vocabulary and wording); the engine only
// reads words, scales hours and fills in sentences. Only plain data: no functions, so the
// JSON of the tables is the whole of the knowledge and its hash is the engine version.

export type Trade =
  | "plumbing"
  | "drains"
  | "water-heating"
  | "electrical"
  | "hvac"
  | "appliances"
  | "handyman"
  | "roofing"
  | "garage-doors"
  | "irrigation";

/**
 * What a job kind is made of, so a modifier can say "for fuel-fired appliances" instead of
 * listing job ids. A job has every tag that can apply (a tank water heater may be gas).
 */
export type JobTag =
  | "fuel-fired" // burns gas, propane or oil
  | "vented" // has a flue or vent to the outside
  | "water-heater"
  | "water-piping" // supply piping (pressure)
  | "drain-line" // drain, waste or sewer piping
  | "fixture"
  | "wiring" // branch circuits, devices
  | "service-equipment" // panels, meters, service conductors
  | "air-handler" // furnace or indoor air handler / coil
  | "outdoor-unit" // condenser, heat pump, generator
  | "refrigerant" // refrigerant circuit
  | "appliance"
  | "structure" // walls, doors, decks, gutters
  | "roof"
  | "irrigation";

/** A material line for the quote. `perUnit` lines are multiplied by the counted quantity. */
export interface MaterialLine {
  readonly item: string;
  readonly qty: number;
  readonly qtyMax?: number;
  readonly unit: string;
  readonly perUnit?: boolean;
  /** Name on the draft quote; default: the item up to its first comma. */
  readonly draft?: string;
  /** A size read from the words replaces the stated size: `{n}` is the number read. */
  readonly sizedBy?: MeasureId;
  readonly sizedItem?: string;
  /** A length read from the words ("35 ft run") becomes this line's quantity. */
  readonly lengthFrom?: boolean;
}

export interface HoursRange {
  readonly min: number;
  readonly max: number;
}

/**
 * How a counted quantity in the text ("3 outlets", "two toilets") changes the job.
 * `nouns` are singular, lower case, one word each. The base hours cover `included` units;
 * every unit above that adds `hoursEach` to both labour and on-site duration.
 */
export interface QuantityRule {
  readonly nouns: readonly string[];
  readonly label: string;
  readonly labelPlural: string;
  readonly included: number;
  readonly hoursEach: number;
  readonly max: number;
}

export interface GoodBetterBest {
  readonly good: string;
  readonly better: string;
  readonly best: string;
}

export interface JobRule {
  readonly id: string;
  readonly name: string;
  readonly trade: Trade;
  readonly tags: readonly JobTag[];
  /** Phrases matched against title + details (case-insensitive, whole words). The first one names the job. */
  readonly keywords: readonly string[];
  /**
   * What the customer says is wrong ("keeps running", "not draining"). A symptom counts toward
   * this kind only when the request names this kind's fixture, or names no fixture at all: "not
   * cooling" is an AC's symptom or a refrigerator's depending on what is named.
   */
  readonly symptoms: readonly string[];
  /** The fixture or equipment this kind is about (an id of `FIXTURES`), and others it also covers. */
  readonly fixture: string;
  readonly alsoFixtures?: readonly string[];
  /** What a senior technician checks first, in order. */
  readonly firstChecks: readonly string[];
  /** What usually causes it, most likely first. */
  readonly likelyCauses: readonly string[];
  /** Code and safety notes of the trade for this kind, cited in trade words. */
  readonly code: readonly string[];
  readonly materials: readonly MaterialLine[];
  /** Person-hours to quote. */
  readonly labourHours: HoursRange;
  /** Elapsed hours on site for the crew. */
  readonly durationHours: HoursRange;
  readonly durationNote?: string;
  readonly crewSize: number;
  readonly crewNote: string;
  readonly disposal: string;
  readonly permit: string;
  readonly options: GoodBetterBest;
  /** 0 = no deposit, payment on completion. */
  readonly depositPercent: number;
  /** Equipment usually picked up from the supplier on the way. */
  readonly supplierPickup: boolean;
  readonly vanParts: readonly string[];
  readonly confirm: readonly string[];
  readonly safety: readonly string[];
  readonly followUp: readonly string[];
  readonly quantity?: QuantityRule;
  /** Modifier ids whose effect the base hours already include (e.g. an older home for a rewire). */
  readonly ignoreModifiers?: readonly string[];
}

// ------------------------------------------------------------------ what the words say

export type ModifierKind = "location" | "condition" | "access" | "urgency" | "site" | "timing";

/**
 * When an effect applies. Every given test must hold; an effect with no test always applies.
 * `subjects` are read next to the modifier's own word ("venting corroded", "corroded flue").
 */
export interface EffectWhen {
  readonly jobs?: readonly string[];
  readonly tags?: readonly JobTag[];
  readonly trades?: readonly Trade[];
  readonly subjects?: readonly string[];
  /** Any of these phrases anywhere in the request. */
  readonly words?: readonly string[];
  /** None of these phrases anywhere in the request. */
  readonly unlessWords?: readonly string[];
}

/** What a modifier adds to a particular kind of job. */
export interface ModifierEffect {
  readonly when: EffectWhen;
  /** Quote lines added to the materials (and to the draft quote). */
  readonly items?: readonly MaterialLine[];
  /** Labour and on-site hours added, with why. */
  readonly addHours?: number;
  readonly hoursReason?: string;
  /** Checks a rule of the trade asks for, cited the way a tradesperson says it. */
  readonly code?: readonly string[];
  /** What can go wrong or cost more. */
  readonly risks?: readonly string[];
  readonly confirm?: readonly string[];
}

/** Words in the title or details that change the job: where, in what state, how urgent. */
export interface JobModifier {
  readonly id: string;
  readonly kind: ModifierKind;
  /** How the summary names it ("garage", "corroded"). */
  readonly label: string;
  readonly phrases: readonly string[];
  /** Multiplies labour and duration. */
  readonly factor: number;
  /** Added to labour and duration after the factor. */
  readonly addHours: number;
  readonly reason: string;
  readonly travelMinutes: number;
  readonly emergency: boolean;
  /** Wants a visit today: a same-day slot, not an emergency dispatch. */
  readonly sameDay: boolean;
  readonly afterHours: boolean;
  readonly confirm?: string;
  readonly safety?: string;
  readonly effects?: readonly ModifierEffect[];
}

/** A thing a condition word can be about ("vent" for "venting corroded"). */
export interface Subject {
  readonly id: string;
  readonly label: string;
  readonly words: readonly string[];
}

// ------------------------------------------------------------------ sizes, ages, vocabulary

export type MeasureId = "gallons" | "tons" | "btu" | "amps" | "feet";

export interface MeasureUnit {
  readonly id: MeasureId;
  /** How the summary names a value: `{n}` is the number. */
  readonly label: string;
  /** Unit words as they follow a number ("50 gal", "3 ton", "200a" after splitting). */
  readonly units: readonly string[];
  /** Plausible values; anything outside is not read as this measure. */
  readonly min: number;
  readonly max: number;
}

/** What a size means for a job: inside [atLeast, below) the effect applies. */
export interface MeasureRule {
  readonly measure: MeasureId;
  readonly when: EffectWhen;
  readonly atLeast?: number;
  readonly below?: number;
  readonly effect: Omit<ModifierEffect, "when">;
}

/** What an age ("20 year old") means for a job; `ofHouse` when the age is the building's. */
export interface AgeRule {
  readonly when: EffectWhen;
  readonly atLeast: number;
  readonly ofHouse: boolean;
  readonly effect: Omit<ModifierEffect, "when">;
}

/** A fixture or piece of equipment a request can name ("toilet", "water heater", "garage door"). */
export interface Fixture {
  readonly id: string;
  readonly words: readonly string[];
}

/** What a trade's general checklist says when the kind of job is not certain. */
export interface TradeGeneral {
  readonly trade: Trade;
  /** Words that name the trade without naming a kind ("electrical", "plumbing problem"). */
  readonly words: readonly string[];
  readonly firstChecks: readonly string[];
  readonly quoteChecklist: readonly string[];
  readonly safety: readonly string[];
}

/** Shorthand and misspellings the trades write, mapped to the words the rules use. */
export interface Vocabulary {
  /** One word to one or more words ("wh" -> "water heater"). */
  readonly words: Readonly<Record<string, string>>;
  /** Words never corrected as typos (real words close to a rule word: "heated", "vent"). */
  readonly keep: readonly string[];
}
