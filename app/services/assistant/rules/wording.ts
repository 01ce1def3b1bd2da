// The assistant's wording: quote terms, scheduling defaults, the answer for an unrecognised
// job, and every sentence the engine assembles. Sentences are templates: `{name}` is filled
// in by the engine with a number, a rule phrase or another sentence, never with the user's text.

export const QUOTE_TERMS = {
  validityDays: 30,
  validityNote:
    "equipment and material prices are held for that period; after it, re-price from the supplier before work starts",
  depositNone: "none; payment due on completion (card or check on site)",
  depositTerms: "on approval, to order equipment and book the crew; balance due on completion",
  warranty:
    "State the labour warranty (e.g. 1 year) separately from the manufacturer's parts warranty, and what voids it.",
  travel:
    "Travel: your standard trip charge for the service area, plus drive time for sites outside it; no charge per extra visit if the delay is ours.",
} as const;

export const SCHEDULE_DEFAULTS = {
  baseTravelMinutes: 30,
  supplierPickupMinutes: 45,
  workdayHours: 8,
  maxFactor: 2,
  standardWindow:
    "2-hour arrival window (8-10, 10-12, 12-2 or 2-4); call or text the customer 30 minutes before arriving.",
  morningWindow:
    "Morning slot: 8-10 arrival window so the work finishes the same day; call or text 30 minutes before arriving.",
  firstJobWindow: "First job of the day: 7:30-8:30 arrival so the crew has the full day; confirm the day before.",
  multiDayWindow:
    "Multi-day job: book consecutive days with a 7:30-8:30 arrival each day, and agree the daily finish time and clean-up with the customer.",
  emergencyWindow:
    "Emergency: send the next available technician, give a 2-hour-or-less ETA and call when en route; quote the emergency / after-hours rate before dispatching.",
  sameDayWindow:
    "Same day: offer the first open slot today with a 2-hour arrival window, and say plainly if it has to be first thing tomorrow instead.",
  afterHoursWindow: "Outside normal hours: confirm the after-hours rate in writing and who will let the technician in.",
} as const;

/** Used when no job kind is recognised. */
export const GENERIC_JOB = {
  name: "General service call",
  labourHours: { min: 1, max: 2 },
  durationHours: { min: 1, max: 2 },
  crewSize: 1,
  quoteChecklist: [
    "Materials: list every part with quantity and unit (each, ft, gal, box), brand and size, and mark-up.",
    "Labour: hours x rate, including diagnosis, set-up and clean-up time; say whether it is a flat rate or time and materials.",
    "Disposal: haul-away and recycling of the old equipment or debris as its own line.",
    "Permits: add the permit and inspection fee whenever the work changes plumbing, electrical, gas, HVAC or structure.",
    "Travel: trip charge for the service area, plus drive time for sites outside it.",
  ],
  options: {
    good: "Repair or replace like-for-like with standard-grade parts.",
    better: "Replace with a mid-grade product and renew the wear parts around it (valves, connectors, seals).",
    best: "Premium or higher-efficiency product, upgrades done while the area is open, and an extended labour warranty.",
  },
  vanParts: [
    "Standard service kit: fittings, fasteners, wire connectors, sealants, tape",
    "Meters and testers (multimeter, non-contact voltage tester, pressure gauge as the trade needs)",
    "Drop cloths, shoe covers, shop vacuum",
    "Ladder sized for the site",
    "Camera or phone for before and after photos",
  ],
  confirm: [
    "Address, access, parking and who will be home to let the technician in.",
    "Photos of the problem area and of any equipment labels (make, model, serial).",
    "When the problem started and what has been tried already.",
  ],
  safety: [
    "Isolate the energy source before work: power off and verified dead, water or gas shut off and pressure relieved.",
    "Wear eye protection and gloves; use a ladder rated for the load and set at a 4:1 angle.",
    "Protect the customer's floors and furnishings; keep the work area clear of children and pets.",
  ],
  followUp: [
    "Send the invoice with before and after photos the same day.",
    "Call or text after a week to confirm everything still works.",
    "Offer a maintenance visit if the equipment needs periodic service.",
  ],
  helpfulInfo: [
    "What the equipment or fixture is, and its make, model and age.",
    "What is wrong: the symptom, when it started, and whether it is getting worse.",
    "Where it is: room, floor, attic, crawlspace, basement, outside; and how to get to it.",
    "Quantities: how many fixtures, outlets, rooms or square feet.",
    "Whether the customer wants a repair, a like-for-like replacement or an upgrade.",
    "How urgent it is, and any access limits (condo rules, pets, business hours).",
  ],
} as const;

/** Sentences and headings of the answer. */
export const WORDING = {
  headings: {
    materials: "Materials ({trade})",
    labour: "Labour",
    extras: "Disposal, permits and travel",
    options: "Options: good / better / best",
    terms: "Validity, deposit and warranty",
    confirmQuote: "Confirm with the customer",
    confirmVisit: "Confirm before the visit",
    askCustomer: "Ask the customer",
    read: "What the request says",
    code: "Code checks for this site",
    risks: "Risks to price in",
    duration: "Duration estimate",
    window: "Arrival window and travel",
    crew: "Crew",
    van: "Load on the van",
    nextSteps: "Next steps",
    safety: "Safety",
    after: "After the job",
    also: "Also mentioned",
    firstChecks: "First checks on site",
    causes: "Likely causes",
    lineItems: "Line-item checklist",
    helpful: "Information that would help",
  },
  recognised: "{trade} job recognised: {name} (from {matched}); {sure} ({percent} %).",
  /** At or above this confidence the kind is "sure"; between the threshold and it, "fairly sure". */
  sureAt: 0.75,
  sure: "sure of the kind",
  fairlySure: "fairly sure of the kind",
  readSummary: "Read from the request: {findings}.",
  ageOfHouse: "{n} year old house",
  ageOfEquipment: "{n} years old",
  readNothing: "No location, condition, size, age, access or urgency words read, so the base estimate applies.",
  readLine: "{label} ({kind}): {reason}.",
  kinds: {
    location: "location",
    condition: "condition",
    access: "access",
    urgency: "urgency",
    site: "site",
    timing: "timing",
    size: "size",
    age: "age",
  },
  quoteSummary:
    "{recognised} {read} Plan about {labour} labour hours with a crew of {crew}; deposit {deposit}, valid {days} days. Line items, options and terms below; confirm quantities on site.",
  scheduleSummary: "{recognised} {read} Book about {duration} on site with a crew of {crew}. {window}",
  generalSummary:
    "{recognised} {read} Next steps, safety notes and the follow-up after the job are below; use quote mode for line items and schedule mode for the duration reasoning.",
  depositShort: "{percent} %",
  depositShortNone: "none",
  deposit: "Deposit: {deposit}.",
  depositWith: "{percent} % {terms}",
  validity: "Valid for {days} days from the issue date: {note}.",
  emergencyRate: "Emergency call: show the emergency or after-hours rate as its own line, agreed before work starts.",
  afterHoursRate: "After-hours work: show the after-hours rate as its own line, agreed before work starts.",
  labourLine: "Labour: {labour} person-hours, crew of {crew} ({note}).",
  flatRate: "Flat rate: price from the upper figure; time and materials: state the range and the hourly rate.",
  disposal: "Disposal: {text}",
  permits: "Permits: {text}",
  supplierPickupQuote: "Supplier pickup or delivery of the equipment: include the run time or the delivery fee.",
  extraTravelQuote: "Extra travel for {matched}: {reason}.",
  base: "Base: {duration} on site ({labour} person-hours) for {what}.",
  quantityExtra: "Quantity: {count} {label}{capped}; the base covers {included}, so +{extra} x {each} h = +{hours} h.",
  quantityCovered: "Quantity: {count} {label}, covered by the base estimate.",
  quantityCapped: " (counted up to {max}; quote larger jobs after a site visit)",
  factorStep: "+{percent} % for {matched}: {reason}.",
  hoursStep: "+{hours} h for {matched}: {reason}.",
  effectHoursStep: "+{hours} h for {label}: {reason}.",
  factorCapped: "Adjustments combined to x{factor}; capped at x{max}.",
  factorCombined: "Adjustments combined: x{factor}.",
  noChange: "No location, condition, size, access or urgency words found that change the base.",
  noChangeRead: "What was read ({labels}) does not change the base hours for this job.",
  estimate: "Estimate: {duration} on site{days}.",
  workdays: "about {count} workdays of {day} hours",
  durationNote: "Note: {note}.",
  rounding: "Rounded to the half hour; book the upper figure if the next job is tight.",
  travelBuffer: "Travel buffer: {minutes} minutes between jobs in the same service area.",
  supplierPickup:
    "Supplier pickup: +{minutes} minutes before the job unless the equipment is delivered or already on the van.",
  extraTravel: "+{minutes} minutes for {matched}: {reason}.",
  travelTotal: "Block {minutes} minutes of travel and preparation ahead of the arrival window.",
  crewLine: "Crew of {crew}: {note}.",
  labourToPlan: "Labour to plan: {labour} person-hours.",
  homeAndParking: "Who will be home to let the crew in, parking for the van, and pets kept away from the work area.",
  nextConfirm: "Confirm the scope with the customer: {confirm}",
  nextPrice: "Price it: about {labour} person-hours plus materials ({materials}); deposit: {deposit}.",
  nextBook: "Book it: about {duration} on site with a crew of {crew}. {window}",
  nextVan: "Load the van: {parts}.",
  nextLeave:
    "Before leaving: test the work with the customer, take after photos, clean up and collect payment or the signed completion.",
  alsoLine: "{name} ({trade}, from {matched}): first checks: {checks}; {advice}",
  alsoAdvice: {
    quote: "price it as a separate line or a separate quote, and ask the customer which comes first.",
    schedule: "add {duration} if it is done on the same visit, or book it separately.",
    general: "confirm whether it is part of this job before quoting or booking.",
  },
  draftLabour: "Labour, {trade} (person-hours)",
  draftDisposal: "Disposal and haul-away",
  draftPermit: "Permit and inspection",
  draftTrip: "Trip charge",
  draftEmergency: "Emergency / after-hours call-out",
  draftNote:
    "These lines prefill a new quote; each is priced from your price book when its name matches an item, otherwise at zero.",
  fallback: {
    openingEmpty: "No job title or details were given, so this is general guidance.",
    opening: "No specific job kind was recognised in the title or details, so this is general guidance.",
    openingTrade: "{understood} This is the general {trade} checklist.",
    understood:
      "Understood: {trade} work{fixtures}; not sure enough of the kind of job ({percent} %) to give one kind's checklist.",
    understoodFixtures: " on {fixtures}",
    tradeQuoteTitle: "Quote checklist: {trade} job, kind not certain",
    tradeScheduleTitle: "Schedule: {trade} job, kind not certain",
    tradeGeneralTitle: "Next steps: {trade} job, kind not certain",
    hint: "Name the equipment, the problem and where it is (what it is, what is wrong with it, which room or floor) to get the line items of that kind of job.",
    baseWhat: "a general service call (diagnosis and a simple repair)",
    quoteTitle: "Quote checklist: job type not recognised",
    scheduleTitle: "Schedule: job type not recognised",
    generalTitle: "Next steps: job type not recognised",
    scheduleSummary: "{opening} {read} Book a {duration} service call to diagnose and quote. {hint}",
    summary: "{opening} {read} {hint}",
    estimate: "Estimate: {duration} on site for a diagnostic or service visit.",
    larger: "If the visit turns into a larger job, quote it and book a separate visit.",
    crew: "Crew of {crew}: one technician; send two if heavy equipment or ladder work over one storey is involved.",
    steps: [
      "Call the customer to pin down the job: what, where, and how urgent.",
      "Ask for photos of the problem and of any equipment labels.",
      "Book a {duration} diagnostic visit, or an estimate visit for larger work. {window}",
      "Quote after the visit with materials, labour, disposal, permits and travel as separate lines.",
    ],
  },
  titles: {
    quote: "Quote checklist: {name}",
    schedule: "Schedule: {name}",
    general: "Next steps: {name}",
  },
} as const;
