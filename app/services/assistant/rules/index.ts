// The assistant's knowledge, as data: one table of job kinds per trade, the modifiers, the
// vocabulary and the wording. The engine imports this module only; editing any row changes
// the guidance and, because the version is a hash of these tables, the engine version.

import { APPLIANCE_RULES } from "./appliances";
import { DRAINS_RULES } from "./drains";
import { ELECTRICAL_RULES } from "./electrical";
import { FIXTURES, TRADE_GENERAL } from "./fixtures";
import { GARAGE_DOOR_RULES } from "./garage-doors";
import { HANDYMAN_RULES } from "./handyman";
import { HVAC_RULES } from "./hvac";
import { IRRIGATION_RULES } from "./irrigation";
import { JOB_MODIFIERS, SUBJECTS } from "./modifiers";
import { PLUMBING_RULES } from "./plumbing";
import { ROOFING_RULES } from "./roofing";
import type { JobRule, Trade } from "./types";
import {
  AGE_RULES,
  HOUSE_WORDS,
  MEASURE_RULES,
  MEASURE_UNITS,
  NUMBER_WORDS,
  QUANTITY_STOP,
  VOCABULARY,
} from "./vocabulary";
import { WATER_HEATING_RULES } from "./water-heating";
import { GENERIC_JOB, QUOTE_TERMS, SCHEDULE_DEFAULTS, WORDING } from "./wording";

export type * from "./types";
export {
  AGE_RULES,
  FIXTURES,
  TRADE_GENERAL,
  GENERIC_JOB,
  HOUSE_WORDS,
  JOB_MODIFIERS,
  MEASURE_RULES,
  MEASURE_UNITS,
  NUMBER_WORDS,
  QUANTITY_STOP,
  QUOTE_TERMS,
  SCHEDULE_DEFAULTS,
  SUBJECTS,
  VOCABULARY,
  WORDING,
};

export const TRADE_LABELS: Readonly<Record<Trade, string>> = {
  plumbing: "Plumbing",
  drains: "Drains",
  "water-heating": "Water heating",
  electrical: "Electrical",
  hvac: "HVAC",
  appliances: "Appliances",
  handyman: "Handyman",
  roofing: "Roofing and gutters",
  "garage-doors": "Garage doors",
  irrigation: "Irrigation",
};

/** Whose labour a kind's draft quote line names, so it meets the price book's labour items. */
export const LABOUR_NAMES: Readonly<Record<Trade, string>> = {
  plumbing: "plumbing",
  drains: "drains",
  "water-heating": "plumbing",
  electrical: "electrical",
  hvac: "hvac",
  appliances: "appliances",
  handyman: "handyman",
  roofing: "roofing",
  "garage-doors": "garage doors",
  irrigation: "irrigation",
};

/**
 * Every job kind, in the order ties are broken (earlier wins): the trade tables in this order,
 * each table in its own order.
 */
export const JOB_RULES: readonly JobRule[] = [
  ...WATER_HEATING_RULES,
  ...PLUMBING_RULES,
  ...DRAINS_RULES,
  ...ELECTRICAL_RULES,
  ...HVAC_RULES,
  ...APPLIANCE_RULES,
  ...HANDYMAN_RULES,
  ...ROOFING_RULES,
  ...GARAGE_DOOR_RULES,
  ...IRRIGATION_RULES,
];

/** All the knowledge in one value: its JSON is what the engine version hashes. */
export const KNOWLEDGE = {
  trades: TRADE_LABELS,
  labourNames: LABOUR_NAMES,
  rules: JOB_RULES,
  modifiers: JOB_MODIFIERS,
  subjects: SUBJECTS,
  fixtures: FIXTURES,
  tradeGeneral: TRADE_GENERAL,
  vocabulary: VOCABULARY,
  numberWords: NUMBER_WORDS,
  quantityStop: QUANTITY_STOP,
  measures: MEASURE_UNITS,
  measureRules: MEASURE_RULES,
  ageRules: AGE_RULES,
  houseWords: HOUSE_WORDS,
  generic: GENERIC_JOB,
  quoteTerms: QUOTE_TERMS,
  schedule: SCHEDULE_DEFAULTS,
  wording: WORDING,
} as const;
