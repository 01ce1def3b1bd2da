// How the trades write: shorthand, misspellings, numbers, sizes and ages, and what a size or
// an age means for a job.

import type { AgeRule, MeasureRule, MeasureUnit, Vocabulary } from "./types";

export const VOCABULARY: Vocabulary = {
  words: {
    wh: "water heater",
    hwh: "hot water heater",
    hwt: "hot water tank",
    wtr: "water",
    htr: "heater",
    heatr: "heater",
    hw: "hot water",
    acs: "ac",
    ahu: "air handler",
    tstat: "thermostat",
    thermo: "thermostat",
    furn: "furnace",
    flr: "floor",
    fl: "floor",
    "1st": "first",
    "2nd": "second",
    "3rd": "third",
    bsmt: "basement",
    bsmnt: "basement",
    gar: "garage",
    gfi: "gfci",
    gfic: "gfci",
    recep: "receptacle",
    recept: "receptacle",
    bkr: "breaker",
    brkr: "breaker",
    pnl: "panel",
    elec: "electric",
    svc: "service",
    repl: "replace",
    rplc: "replace",
    inst: "install",
    instl: "install",
    disposer: "disposal",
    dispo: "disposal",
    dw: "dishwasher",
    fridge: "refrigerator",
    frig: "refrigerator",
    lav: "bathroom sink",
    wc: "toilet",
    tankles: "tankless",
    ez: "easy",
    yo: "year old",
    yr: "year",
    yrs: "year",
    approx: "about",
    lk: "leak",
    lkg: "leaking",
    clgd: "clogged",
    emerg: "emergency",
  },
  keep: [
    "heated", "heats", "seated", "treated", "rated", "vented", "venting", "pipes", "piping", "leaked", "leaks",
    "coiled", "tanks", "tanked", "cooled", "cooler", "boiled", "boiling", "toiled", "panels", "paneled", "faucets",
    "switched", "outlets", "sinks", "drained", "draining", "drains", "pumps", "pumped", "water", "waters", "floors",
    "closed", "closer", "closest", "heaters", "later", "latest", "meters", "meter", "liner", "liners", "lines",
    "lined", "filter", "filters", "fitter", "fitted", "other", "there", "their", "these", "those", "where", "which",
    "while", "would", "could", "should", "about", "above", "after", "again", "below", "being", "every", "first",
    "found", "front", "house", "never", "place", "right", "since", "still", "thing", "think", "three", "under",
    "until", "using", "wants", "years", "today", "tried", "works", "worked", "working", "doesnt", "wont", "cant",
    "sewing", "sewers", "power", "tower", "lower", "shower", "flower", "mower", "dryer", "drier", "washer",
    "washers", "cooking", "broken", "smells", "smelly", "hotter", "colder", "noise", "noisy", "making",
  ],
};

/** Number words that count things ("two toilets"). */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
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
export const QUANTITY_STOP: readonly string[] = [
  "year", "yr", "old", "amp", "volt", "v", "a", "ft", "foot", "feet", "inch", "in", "gal", "gallon", "g",
  "minute", "min", "hour", "hr", "day", "week", "month", "story", "storey", "floor", "percent",
  "ton", "kw", "hp", "btu", "lb", "psi", "sq", "square", "mile", "x", "by", "of", "car", "person", "people",
];

/** Sizes and capacities read from a number and its unit. */
export const MEASURE_UNITS: readonly MeasureUnit[] = [
  { id: "gallons", label: "{n} gal", units: ["gallon", "gal", "g", "gl"], min: 2, max: 120 },
  { id: "tons", label: "{n} ton", units: ["ton", "tonne"], min: 0.5, max: 30 },
  { id: "btu", label: "{n} BTU/h", units: ["btu", "btuh", "mbh"], min: 5000, max: 1000000 },
  { id: "amps", label: "{n} A", units: ["amp", "ampere", "a"], min: 15, max: 1200 },
  { id: "feet", label: "{n} ft", units: ["ft", "foot", "feet", "lf"], min: 1, max: 1000 },
];

/** Words after an age that say it is the building's age, not the equipment's. */
export const HOUSE_WORDS: readonly string[] = ["house", "home", "building", "property", "condo", "apartment", "duplex"];

/** What a size read from the words means for a job. `{n}` is the number read. */
export const MEASURE_RULES: readonly MeasureRule[] = [
  {
    measure: "gallons",
    when: { tags: ["water-heater"] },
    atLeast: 65,
    effect: {
      addHours: 1,
      hoursReason: "a tank of 65 gal or more: a three-person lift or a stair climber",
      code: ["A {n} gal gas tank often needs a 4 in vent and more gas than a 40-50 gal one: check the vent size and the pipe size for the new input."],
      risks: ["A {n} gal tank weighs well over 150 lb empty: confirm the path and bring a stair climber."],
    },
  },
  {
    measure: "gallons",
    when: { tags: ["water-heater"] },
    atLeast: 2,
    below: 65,
    effect: {
      code: ["Size the expansion tank for a {n} gal heater at the house's static pressure (most 40-50 gal heaters take a 2 gal tank at up to 80 psi)."],
    },
  },
  {
    measure: "tons",
    when: { tags: ["refrigerant"] },
    atLeast: 0.5,
    effect: {
      code: ["Match the line set, the coil and the airflow to {n} ton (about 400 CFM per ton; the maker's line-size table for the length)."],
    },
  },
  {
    measure: "tons",
    when: { tags: ["refrigerant"] },
    atLeast: 5.5,
    effect: {
      risks: ["Over 5 tons is light-commercial equipment or two systems: check the electrical supply and the equipment lead time."],
    },
  },
  {
    measure: "btu",
    when: { tags: ["fuel-fired"] },
    atLeast: 5000,
    effect: {
      code: ["Size the gas pipe for {n} BTU/h plus every other appliance on the line, at the length from the meter (the gas pipe sizing table)."],
    },
  },
  {
    measure: "amps",
    when: { jobs: ["ev-charger", "dedicated-circuit"] },
    atLeast: 15,
    below: 100,
    effect: {
      code: ["A {n} A load that runs 3 hours or more is continuous: breaker and wire at 125 % of it, rounded up to the next standard size (the 125 % continuous-load rule)."],
    },
  },
  {
    measure: "amps",
    when: { tags: ["service-equipment"] },
    atLeast: 100,
    effect: {
      code: ["A {n} A service: conductors, meter socket and main breaker all rated for {n} A, and a load calculation on file for the inspector."],
    },
  },
  {
    measure: "amps",
    when: { tags: ["service-equipment"] },
    atLeast: 300,
    effect: {
      risks: ["Over 200 A means a 320/400 A meter base or a CT cabinet: coordinate with the utility early; their lead time sets the date."],
    },
  },
  {
    measure: "feet",
    when: { tags: ["wiring"] },
    atLeast: 100,
    effect: {
      code: ["A {n} ft run: check voltage drop (keep it near 3 %) and upsize the wire where it is over."],
    },
  },
  {
    measure: "feet",
    when: { tags: ["refrigerant"] },
    atLeast: 26,
    effect: {
      code: ["A {n} ft line set is longer than most factory charges cover (15 or 25 ft): add refrigerant per foot from the maker's table and write it on the unit."],
    },
  },
  {
    measure: "feet",
    when: { tags: ["fuel-fired"] },
    atLeast: 40,
    effect: {
      code: ["A {n} ft gas run: size the pipe for the length as well as the load; long runs often need the next pipe size up."],
    },
  },
  {
    measure: "feet",
    when: { tags: ["drain-line"] },
    atLeast: 75,
    effect: {
      risks: ["A {n} ft line: bring a machine and camera with enough cable, and locate the run before promising a repair."],
    },
  },
];

/** What an age read from the words ("20 year old") means for a job. */
export const AGE_RULES: readonly AgeRule[] = [
  {
    when: { tags: ["water-heater"] },
    atLeast: 10,
    ofHouse: false,
    effect: {
      risks: ["A {n} year old heater is at or past the usual 8-12 year life of a tank: quote replacement beside any repair."],
    },
  },
  {
    when: { tags: ["air-handler", "fuel-fired"], jobs: ["furnace", "furnace-replacement", "boiler"] },
    atLeast: 15,
    ofHouse: false,
    effect: {
      risks: ["At {n} years the heating equipment is near the end of its life: inspect the heat exchanger and quote replacement as an option."],
    },
  },
  {
    when: { tags: ["refrigerant"] },
    atLeast: 12,
    ofHouse: false,
    effect: {
      risks: ["A {n} year old system may run on R-22, which is no longer made: repairs that need refrigerant get expensive, so quote replacement beside the repair."],
    },
  },
  {
    when: { tags: ["service-equipment"] },
    atLeast: 30,
    ofHouse: false,
    effect: {
      risks: ["A {n} year old panel: look for problem brands (Federal Pacific Stab-Lok, Zinsco), aluminium service conductors and overheated lugs."],
    },
  },
  {
    when: { tags: ["appliance"] },
    atLeast: 10,
    ofHouse: false,
    effect: {
      risks: ["At {n} years, a repair that costs more than half of a new unit is usually not worth it: give both prices."],
    },
  },
  {
    when: {},
    atLeast: 40,
    ofHouse: true,
    effect: {
      risks: ["A {n} year old house: test for lead paint and asbestos before cutting or sanding, and expect older pipe, wiring and framing sizes."],
    },
  },
];
