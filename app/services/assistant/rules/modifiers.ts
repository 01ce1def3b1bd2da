// Words that change a job: where it is, what state it is in, how hard it is to get to and how
// urgent it is. Each modifier scales the hours and, through its effects, adds quote lines,
// code checks (in the words a tradesperson uses, with no jurisdiction claimed) and risks for
// the kinds of job they apply to.

import type { JobModifier, ModifierEffect, Subject } from "./types";

/** The defaults of a modifier that changes nothing but what it adds through its effects. */
const QUIET = {
  factor: 1,
  addHours: 0,
  travelMinutes: 0,
  emergency: false,
  sameDay: false,
  afterHours: false,
} as const;

/** Things a condition word can be about, read within a few words of it. */
export const SUBJECTS: readonly Subject[] = [
  {
    id: "vent",
    label: "vent",
    words: [
      "vent",
      "venting",
      "vent pipe",
      "vent connector",
      "flue",
      "flue pipe",
      "chimney",
      "b vent",
      "draft hood",
      "exhaust",
    ],
  },
  { id: "heat-exchanger", label: "heat exchanger", words: ["heat exchanger", "firebox"] },
  { id: "tank", label: "tank", words: ["tank", "heater", "bottom of the tank"] },
  {
    id: "pipe",
    label: "pipe",
    words: [
      "pipe",
      "piping",
      "pipes",
      "fitting",
      "fittings",
      "valve",
      "shut off",
      "shutoff",
      "line",
      "copper",
      "galvanized",
      "nipple",
      "union",
      "connector",
      "supply line",
    ],
  },
  { id: "panel", label: "panel", words: ["panel", "breaker", "bus", "bus bar", "meter", "meter base", "main", "lug"] },
  {
    id: "wiring",
    label: "wiring",
    words: ["wire", "wiring", "terminal", "connection", "outlet", "receptacle", "switch", "plug"],
  },
  { id: "coil", label: "coil", words: ["coil", "evaporator", "condenser", "line set"] },
  { id: "drain", label: "drain", words: ["drain", "sewer", "trap", "main line", "floor drain"] },
  { id: "fixture", label: "fixture", words: ["toilet", "sink", "bowl", "basin", "tub"] },
];

// ------------------------------------------------------------------ shared effects

const VENT_FAILURE: ModifierEffect = {
  when: { tags: ["vented"], subjects: ["vent"] },
  items: [
    {
      item: "Vent replacement allowance: vent connector, elbows, collar and any corroded B-vent, in the existing size",
      qty: 1,
      unit: "allowance",
      draft: "Vent replacement allowance",
    },
    {
      item: "Combustion safety test at start-up: draft, spillage and CO, with the readings written on the invoice",
      qty: 1,
      unit: "test",
      draft: "Draft, spillage and CO test",
    },
  ],
  addHours: 1,
  hoursReason: "replacing the vent connector and testing draft, spillage and CO",
  code: [
    "Vent connector: rise at least 1/4 in per foot toward the chimney, three screws per joint, and the clearance to combustibles printed on the pipe (1 in for B-vent, 6 in for single-wall).",
    "Draft, spillage and CO test at start-up: draft at the draft hood, no spillage after 5 minutes of burner run with exhaust fans on and doors shut (worst case), CO checked in the flue and in the room.",
  ],
  risks: [
    "A corroded vent usually means condensation or weak draft (an oversized or unlined masonry chimney, a long horizontal run): a new appliance on a failing vent can spill CO. Look at the chimney liner before reusing it, and price a liner as an option.",
  ],
  confirm: [
    "A photo of the vent from the appliance to where it leaves the room, and of the chimney top if it is masonry.",
  ],
};

const PIPE_CORROSION: ModifierEffect = {
  when: { tags: ["water-piping", "water-heater", "fuel-fired", "drain-line", "fixture"], subjects: ["pipe"] },
  items: [
    {
      item: "Corroded fittings and valves replacement allowance (back to sound pipe)",
      qty: 1,
      unit: "allowance",
      draft: "Corroded fittings replacement allowance",
    },
  ],
  addHours: 0.5,
  hoursReason: "cutting back corroded fittings to sound pipe",
  code: [
    "Where copper meets steel or galvanized, use a dielectric union or a brass nipple (the dissimilar-metals rule).",
  ],
  risks: [
    "Corroded galvanized or steel fittings can snap when turned: plan to replace back to the next sound joint, and tell the customer before starting.",
  ],
};

const TANK_FAILURE: ModifierEffect = {
  when: { tags: ["water-heater"], subjects: ["tank"] },
  risks: [
    "Rust or corrosion on the tank itself means the glass lining has failed: replace the heater; do not repair it.",
  ],
};

const PANEL_CORROSION: ModifierEffect = {
  when: { tags: ["service-equipment", "wiring"], subjects: ["panel"] },
  items: [
    {
      item: "Replacement breakers and lugs for the corroded ones",
      qty: 1,
      unit: "allowance",
      draft: "Corroded breakers replacement allowance",
    },
  ],
  addHours: 1,
  hoursReason: "finding where the water gets in and replacing corroded breakers",
  code: [
    "Replace corroded breakers, bus or lugs rather than cleaning them; a panel that has been wet is usually replaced.",
  ],
  risks: [
    "Corrosion in a panel means water is getting in (a failed service-entrance seal or mast, condensation down an outdoor conduit): find and fix the source or it comes back.",
  ],
};

const WIRING_CORROSION: ModifierEffect = {
  when: { tags: ["wiring"], subjects: ["wiring"] },
  code: ["Cut corroded conductors back to clean metal; use antioxidant and rated connectors on aluminium."],
  risks: ["Corroded terminals run hot: check the whole circuit, not just the device that failed."],
};

const COIL_CORROSION: ModifierEffect = {
  when: { tags: ["refrigerant"], subjects: ["coil"] },
  items: [
    {
      item: "Refrigerant leak search (electronic detector, bubbles, nitrogen pressure test)",
      qty: 1,
      unit: "each",
      draft: "Refrigerant leak search",
    },
  ],
  risks: [
    "A corroded coil usually leaks (formicary corrosion): price the coil, and the whole system beside it when the unit is old.",
  ],
};

const GENERIC_CORROSION: ModifierEffect = {
  when: { unlessWords: [] },
  risks: ["Corroded parts break when disturbed: allow time and parts to replace what does not come apart cleanly."],
};

// ------------------------------------------------------------------ the table

export const JOB_MODIFIERS: readonly JobModifier[] = [
  // ---------------------------------------------------------------- locations
  {
    ...QUIET,
    id: "garage",
    kind: "location",
    label: "garage",
    phrases: ["garage", "carport"],
    reason: "garage install",
    confirm: "Where in the garage: on the floor or a stand, in the path of a car, and whether the garage is heated.",
    effects: [
      {
        when: { tags: ["fuel-fired"], unlessWords: ["electric"] },
        items: [
          {
            item: "Stand or platform raising the burner 18 in above the garage floor (unless the new unit is FVIR-listed and the inspector accepts it on the floor)",
            qty: 1,
            unit: "each",
            draft: "Appliance stand, 18 in",
          },
          {
            item: "Bollard or barrier protecting the appliance from vehicles",
            qty: 1,
            unit: "each",
            draft: "Vehicle impact barrier",
          },
        ],
        code: [
          "Garage ignition height: the burner, pilot or igniter of a gas or propane appliance sits at least 18 in above the garage floor (the 18-inch ignition-source rule); a water heater listed flammable-vapour-ignition-resistant (FVIR) may sit on the floor where the inspector allows it.",
          "Vehicle protection: where a car could hit the appliance, put it out of the path or behind a bollard or barrier (the protect-from-vehicles rule for garage appliances).",
          "Combustion air: the garage must give the appliance its air (about 50 cubic feet of room per 1,000 BTU/h, or openings to outside); a closed-up garage needs combustion-air openings.",
        ],
        risks: [
          "Gasoline vapour settles at the floor: never light or leave an ignition source low in a garage, and keep solvents and fuel cans away from the appliance.",
        ],
      },
      {
        when: { tags: ["wiring", "service-equipment"] },
        code: [
          "Garage receptacles: GFCI protection on every 125 V receptacle in a garage (the garage GFCI rule); newer codes also want a 20 A circuit for the garage receptacles.",
        ],
      },
      {
        when: { tags: ["water-piping", "water-heater"] },
        items: [
          {
            item: "Pipe insulation for exposed lines in the garage",
            qty: 6,
            qtyMax: 12,
            unit: "ft",
            draft: "Pipe insulation",
          },
        ],
        risks: ["An unheated garage freezes: insulate exposed supply pipe and keep the lines off outside walls."],
      },
    ],
  },
  {
    ...QUIET,
    id: "attic",
    kind: "location",
    label: "attic",
    phrases: ["attic"],
    factor: 1.25,
    reason: "attic work: tight framing and insulation, and heat limits safe working time",
    confirm: "Attic access: hatch or pull-down stairs, size of the opening, and whether there is a walkway and light.",
    safety:
      "Attic: step only on joists or boards, take water, limit time when it is above 90 F (32 C), and wear a respirator around insulation.",
    effects: [
      {
        when: { tags: ["water-heater", "air-handler"] },
        items: [
          {
            item: "Secondary drain pan with float (overflow) switch under the attic equipment",
            qty: 1,
            unit: "each",
            draft: "Secondary drain pan with float switch",
          },
          {
            item: "Service platform and walkway boards to the equipment",
            qty: 1,
            unit: "lot",
            draft: "Attic walkway and platform",
          },
        ],
        code: [
          "Attic equipment over a finished ceiling: a drain pan piped to where someone will see it, or a float switch that shuts the unit off (the secondary-drain rule).",
          "Attic access to equipment: a clear passage at least 22 in wide, a level 30 in deep service platform at the unit, a light switched at the opening and a receptacle within 25 ft (the attic-appliance access rule).",
          "The attic opening and passage must be big enough to take out the largest piece of the equipment.",
        ],
      },
      {
        when: { tags: ["wiring"] },
        code: [
          "Cable across the top of attic joists within 6 ft of the scuttle hole needs guard strips when there are no permanent stairs (the 6-ft scuttle rule).",
        ],
      },
      {
        when: { tags: ["water-piping"] },
        risks: [
          "Attic supply pipe freezes and bursts over ceilings: insulate it on the cold side and keep it under the insulation blanket.",
        ],
      },
    ],
  },
  {
    ...QUIET,
    id: "crawlspace",
    kind: "location",
    label: "crawlspace",
    phrases: ["crawlspace", "crawl space", "under the house", "crawl"],
    factor: 1.3,
    reason: "crawlspace work: slow movement on your back, limited headroom, hauling tools in and out",
    confirm: "Crawlspace access point and height; any standing water or pests down there.",
    safety:
      "Crawlspace: check for standing water, damaged wiring and pests before going in; wear coveralls and a respirator; tell someone you are going in.",
    effects: [
      {
        when: { tags: ["water-piping", "drain-line", "water-heater"] },
        items: [
          {
            item: "Vapour barrier patch, 6 mil poly and seam tape",
            qty: 1,
            unit: "lot",
            draft: "Vapour barrier patch",
          },
        ],
        risks: [
          "Standing water or sewage in the crawl: pump out and sanitise before the repair, and price it as its own line.",
        ],
      },
      {
        when: { tags: ["air-handler"] },
        code: [
          "Under-floor equipment: set level on a pad or blocks about 3 in above the ground, with a 22 x 30 in passage, a light and a receptacle near it (the under-floor appliance rule).",
        ],
      },
      {
        when: { tags: ["wiring"] },
        code: [
          "Receptacles in a crawlspace at or below grade need GFCI protection (the crawlspace GFCI rule); secure cable to the framing, not the dirt.",
        ],
      },
    ],
  },
  {
    ...QUIET,
    id: "basement",
    kind: "location",
    label: "basement",
    phrases: ["basement", "cellar"],
    reason: "basement install: carrying equipment down and up the stairs",
    confirm: "Basement stairs: width, turns and headroom, and whether there is an outside entrance.",
    effects: [
      {
        when: { tags: ["water-heater", "appliance", "air-handler"] },
        addHours: 0.5,
        hoursReason: "carrying the old unit up and the new one down the basement stairs",
        code: [
          "A water heater or boiler over a finished basement floor with no floor drain gets a drain pan piped to a drain or a leak shut-off.",
        ],
      },
      {
        when: { tags: ["wiring", "service-equipment"] },
        code: [
          "Basement receptacles need GFCI protection (unfinished basements under older codes, all basements under newer ones).",
        ],
      },
      {
        when: { tags: ["drain-line"] },
        risks: ["A basement below the street sewer backs up first: offer a backwater valve and a camera inspection."],
      },
    ],
  },
  {
    ...QUIET,
    id: "rooftop",
    kind: "location",
    label: "roof",
    phrases: ["roof", "rooftop", "on the roof"],
    factor: 1.2,
    reason: "rooftop work: ladder or lift set-up, fall protection, hoisting materials",
    confirm: "Roof pitch, height and roof access.",
    safety:
      "Roof: fall protection for work 6 ft or more above a lower level (OSHA); secure the ladder and extend it 3 ft above the edge.",
    effects: [
      {
        when: { tags: ["outdoor-unit"] },
        items: [
          {
            item: "Crane or hoist to lift equipment to the roof (replacement jobs)",
            qty: 0,
            qtyMax: 1,
            unit: "each",
            draft: "Crane or hoist",
          },
        ],
        code: [
          "Rooftop equipment: a service receptacle within 25 ft of the unit and a disconnect within sight of it (the rooftop service rules); permanent access where the roof is high.",
        ],
      },
      {
        when: { tags: ["vented"] },
        items: [
          {
            item: "Roof flashing and storm collar where the vent passes through",
            qty: 1,
            unit: "set",
            draft: "Vent roof flashing",
          },
        ],
        code: [
          "Vent termination: cap height above the roof and distance from walls per the vent maker's table (the vent termination rules).",
        ],
      },
    ],
  },
  {
    ...QUIET,
    id: "closet",
    kind: "location",
    label: "closet",
    phrases: ["closet", "utility closet", "hall closet", "mechanical closet"],
    reason: "closet install: tight working room",
    confirm: "Closet size and door width, and whether the closet opens off a bedroom or bathroom.",
    effects: [
      {
        when: { tags: ["fuel-fired"], unlessWords: ["electric"] },
        items: [
          {
            item: "Louvred door or combustion-air grilles, high and low",
            qty: 1,
            unit: "set",
            draft: "Combustion-air grilles or louvred door",
          },
        ],
        code: [
          "Closet install: combustion air through two openings, one within 12 in of the top and one within 12 in of the bottom (or a louvred door sized for the input), and the clearances on the rating plate (the confined-space rule).",
          "No gas appliance in a bedroom or bathroom closet unless it is direct-vent (sealed combustion) (the bedroom-and-bathroom rule).",
        ],
      },
      {
        when: { tags: ["service-equipment"] },
        code: [
          "Panels do not go in clothes closets or bathrooms; keep 30 in wide, 36 in deep working space in front (the panel working-space rule).",
        ],
      },
      {
        when: { tags: ["water-heater"] },
        risks: [
          "A closet install leaves no room to grow: measure the door and the new tank's diameter and height before ordering.",
        ],
      },
    ],
  },
  {
    ...QUIET,
    id: "outdoor",
    kind: "location",
    label: "outdoors",
    phrases: ["outdoor", "outdoors", "outside", "exterior", "backyard", "back yard", "patio", "yard"],
    reason: "outdoor work",
    confirm: "The weather forecast for the day and where outdoors the work is.",
    effects: [
      {
        when: { tags: ["wiring"] },
        items: [
          {
            item: "In-use (bubble) weatherproof cover",
            qty: 1,
            unit: "each",
            perUnit: true,
            draft: "In-use weatherproof cover",
          },
        ],
        code: [
          "Outdoor receptacles: weather-resistant (WR) GFCI with an in-use cover that stays closed with a cord plugged in (the wet-location rule).",
        ],
      },
      {
        when: { tags: ["outdoor-unit"] },
        code: [
          "A disconnect within sight of the outdoor unit and a service receptacle within 25 ft of it (the within-sight disconnect rule).",
        ],
      },
      {
        when: { tags: ["water-piping", "fixture"] },
        code: ["Hose connections need a vacuum breaker (the backflow rule); frost-free bibs where it freezes."],
      },
      {
        when: { tags: ["water-heater"] },
        risks: ["Outdoors the unit must be rated for it, or housed in an enclosure; protect the lines from freezing."],
      },
    ],
  },
  // ---------------------------------------------------------------- access
  {
    ...QUIET,
    id: "upper-floor",
    kind: "access",
    label: "upper floor",
    phrases: [
      "two-story",
      "two-storey",
      "2-story",
      "three-story",
      "multi-story",
      "second floor",
      "2nd floor",
      "third floor",
      "3rd floor",
      "upstairs",
      "second story",
      "2nd story",
    ],
    factor: 1.15,
    reason: "work on an upper floor: carrying tools, equipment and materials up stairs, ladder work",
    confirm: "Which floor the work is on, and whether large equipment fits up the stairs and through the doors.",
    effects: [
      {
        when: { tags: ["water-heater", "appliance"] },
        items: [
          {
            item: "Drain pan with a line to a drain, under the unit over finished space",
            qty: 1,
            unit: "each",
            draft: "Drain pan",
          },
        ],
        code: [
          "A water heater or washer over a finished floor gets a drain pan piped to a drain (the drain-pan rule).",
        ],
      },
      {
        when: { tags: ["refrigerant", "air-handler"], unlessWords: ["replace", "replacement", "install", "new"] },
        risks: [
          "Second floor hot while downstairs is fine is often airflow, not the equipment: compare the temperature split at the upstairs and downstairs registers, and check filters, dampers, return air and attic duct insulation before selling parts.",
        ],
      },
    ],
  },
  {
    ...QUIET,
    id: "tight-access",
    kind: "access",
    label: "tight access",
    phrases: [
      "tight space",
      "tight",
      "hard to reach",
      "limited access",
      "cramped",
      "cluttered",
      "narrow",
      "low clearance",
    ],
    factor: 1.2,
    reason: "difficult access: clearing the work area and working in a cramped space",
    confirm: "Ask for a photo of the work area and whether the customer will clear it before the visit.",
    effects: [
      {
        when: { tags: ["water-heater", "appliance", "air-handler", "outdoor-unit"] },
        risks: [
          "Measure the opening against the new unit before ordering: a taller, slimmer or different model may be the only one that fits.",
        ],
      },
    ],
  },
  {
    ...QUIET,
    id: "no-parking",
    kind: "access",
    label: "no parking",
    phrases: [
      "no parking",
      "street parking",
      "limited parking",
      "parking is tight",
      "permit parking",
      "no driveway",
      "hard to park",
    ],
    reason: "no parking at the door: finding a spot and carrying from the van",
    travelMinutes: 15,
    confirm: "Where the van can park or load (driveway, loading zone, permit), and how far the carry is.",
    effects: [
      {
        when: {},
        items: [{ item: "Parking: meter, permit or garage fees", qty: 1, unit: "allowance", draft: "Parking fees" }],
        risks: [
          "A long carry from the van adds time on every trip: bring a dolly and load everything on the first trip.",
        ],
      },
    ],
  },
  // ---------------------------------------------------------------- conditions
  {
    ...QUIET,
    id: "corroded",
    kind: "condition",
    label: "corroded",
    phrases: ["corroded", "corrosion", "corroding"],
    reason: "corroded parts",
    effects: [
      VENT_FAILURE,
      PIPE_CORROSION,
      TANK_FAILURE,
      PANEL_CORROSION,
      WIRING_CORROSION,
      COIL_CORROSION,
      GENERIC_CORROSION,
    ],
  },
  {
    ...QUIET,
    id: "rusted",
    kind: "condition",
    label: "rusted",
    phrases: ["rusted", "rusty", "rust", "rusting", "rusted out"],
    reason: "rusted parts",
    effects: [VENT_FAILURE, PIPE_CORROSION, TANK_FAILURE, PANEL_CORROSION, GENERIC_CORROSION],
  },
  {
    ...QUIET,
    id: "leaking",
    kind: "condition",
    label: "leaking",
    phrases: ["leaking", "leak", "leaks", "leaky", "dripping", "water on the floor", "puddle"],
    reason: "a leak",
    confirm: "Where the water shows, how much, and whether it is shut off now.",
    effects: [
      {
        when: { tags: ["water-heater"] },
        code: [
          "A tank that leaks is replaced; a T&P valve that drips points to high pressure or a missing expansion tank on a closed system (the thermal expansion rule).",
        ],
        risks: [
          "Check the floor and subfloor under a leaking heater for rot, and photograph the damage before you start.",
        ],
      },
      {
        when: { tags: ["refrigerant"], unlessWords: ["water"] },
        items: [
          {
            item: "Refrigerant leak search (electronic detector, bubbles, nitrogen pressure test)",
            qty: 1,
            unit: "each",
            draft: "Refrigerant leak search",
          },
        ],
        code: [
          "Find and fix a refrigerant leak before recharging (the EPA Section 608 leak-repair rules); record the refrigerant added.",
        ],
      },
      {
        when: { tags: ["air-handler"], words: ["water", "condensate"] },
        code: [
          "Water from the air handler is usually a blocked condensate drain: clear it, check the trap and the float switch (the condensate-disposal rule).",
        ],
      },
      {
        when: { tags: ["water-piping", "fixture", "drain-line"] },
        items: [
          {
            item: "Moisture readings and photos of the wet area for the customer's insurer",
            qty: 1,
            unit: "each",
            draft: "Moisture check and photos",
          },
        ],
        risks: ["Water in walls or under floors for more than 48 hours grows mould: dry it before closing up."],
      },
    ],
  },
  {
    ...QUIET,
    id: "cracked",
    kind: "condition",
    label: "cracked",
    phrases: ["cracked", "crack", "split", "broken"],
    reason: "a cracked part",
    effects: [
      {
        when: { tags: ["fuel-fired", "air-handler"], subjects: ["heat-exchanger"] },
        items: [
          {
            item: "Heat exchanger inspection with camera and CO test",
            qty: 1,
            unit: "test",
            draft: "Heat exchanger inspection and CO test",
          },
        ],
        code: [
          "A cracked heat exchanger: shut the furnace off and tag it out of service until it is replaced (the red-tag rule); it is replaced, never repaired.",
        ],
        risks: ["Carbon monoxide: make sure the house has working CO alarms before you leave."],
      },
      {
        when: { tags: ["fixture"], subjects: ["fixture"] },
        risks: ["Cracked porcelain is replaced, not patched: it fails without warning."],
      },
      {
        when: { tags: ["water-piping", "drain-line"], subjects: ["pipe", "drain"] },
        addHours: 0.5,
        hoursReason: "cutting out and replacing the cracked section",
        risks: ["Cracks in old pipe are rarely alone: camera or inspect the rest of the run."],
      },
    ],
  },
  {
    ...QUIET,
    id: "frozen",
    kind: "condition",
    label: "frozen",
    phrases: ["frozen", "froze", "freezing", "iced up", "ice on"],
    reason: "something frozen",
    effects: [
      {
        when: { tags: ["water-piping", "water-heater", "fixture"] },
        items: [
          {
            item: "Pipe insulation or heat cable for the run that froze",
            qty: 10,
            qtyMax: 20,
            unit: "ft",
            draft: "Pipe insulation or heat cable",
          },
        ],
        addHours: 1,
        hoursReason: "thawing the line slowly and checking for splits",
        code: [
          "Thaw frozen pipe with heat cable, a hair dryer or warm air from the open end, never an open flame; open a faucet first.",
        ],
        risks: ["A split shows only when pressure comes back: stand by at the shut-off while the water is turned on."],
      },
      {
        when: { tags: ["refrigerant", "air-handler"] },
        addHours: 1,
        hoursReason: "running the fan to thaw the coil before testing",
        risks: [
          "An iced coil must thaw (2-4 hours, fan on, cooling off) before the charge can be read; dirty filters and low airflow are the usual cause, not refrigerant.",
        ],
      },
    ],
  },
  {
    ...QUIET,
    id: "backed-up",
    kind: "condition",
    label: "backed up",
    phrases: ["backed up", "backing up", "backup", "overflowing", "sewage", "sewer smell"],
    reason: "a backed-up drain",
    effects: [
      {
        when: { tags: ["drain-line", "fixture"] },
        items: [
          {
            item: "Clean-up and disinfection of the backup area",
            qty: 1,
            unit: "lot",
            draft: "Backup clean-up and disinfection",
          },
          {
            item: "Camera inspection after clearing, to find the cause",
            qty: 1,
            unit: "each",
            draft: "Camera inspection",
          },
        ],
        code: [
          "Sewage is category 3 water: disinfect hard surfaces, and remove carpet, pad and drywall that it soaked.",
        ],
        risks: [
          "Backups that come back point to roots, a belly or a collapse: camera the line and offer a backwater valve where the drains sit below the street.",
        ],
      },
    ],
  },
  {
    ...QUIET,
    id: "tripping",
    kind: "condition",
    label: "tripping",
    phrases: ["tripping", "trips", "tripped", "keeps tripping", "nuisance tripping", "keeps popping"],
    reason: "a breaker or GFCI that trips",
    effects: [
      {
        when: { tags: ["wiring", "service-equipment"] },
        addHours: 1,
        hoursReason: "tracing the fault: insulation-resistance test and loads off one by one",
        items: [
          {
            item: "Fault finding: insulation-resistance test of the circuit and its loads",
            qty: 1,
            unit: "each",
            draft: "Circuit fault finding",
          },
        ],
        code: [
          "Never fit a bigger breaker than the wire allows: 15 A on 14 AWG copper, 20 A on 12 AWG (the wire-size rule).",
        ],
        risks: [
          "A GFCI that keeps tripping is usually doing its job: water in a box, a failing appliance or a shared neutral downstream; test every receptacle fed from it.",
        ],
      },
      {
        when: { tags: ["outdoor-unit", "refrigerant"] },
        risks: [
          "A condenser that trips its breaker: check the compressor windings to ground and the capacitor before resetting; a grounded compressor is a replacement quote.",
        ],
      },
    ],
  },
  {
    ...QUIET,
    id: "burning-smell",
    kind: "condition",
    label: "burning smell",
    phrases: [
      "burning smell",
      "smells burning",
      "smells like burning",
      "burning odor",
      "burning odour",
      "smell of burning",
      "smells burnt",
      "electrical smell",
      "scorched",
      "melted",
    ],
    reason: "a burning smell",
    emergency: true,
    confirm:
      "Tell the customer to switch off the breaker or the unit now, and to call the fire department if there is smoke or heat.",
    effects: [
      {
        when: { tags: ["wiring", "service-equipment"] },
        items: [
          {
            item: "Thermal (infrared) scan of the panel and the devices on the circuit",
            qty: 1,
            unit: "each",
            draft: "Thermal scan",
          },
        ],
        code: [
          "Burning smell at a device or panel: keep the circuit off, look for loose or back-stabbed connections and aluminium wiring, replace scorched devices and cut back to clean conductor.",
        ],
        risks: ["Heat damage travels along the circuit: open every box on it before calling it fixed."],
      },
      {
        when: { tags: ["air-handler"] },
        risks: [
          "First heat of the season smells of dust for an hour; a lasting hot or electrical smell points to the blower motor, a capacitor or wiring: leave it off until checked.",
        ],
      },
    ],
  },
  {
    ...QUIET,
    id: "no-heat",
    kind: "condition",
    label: "no heat",
    phrases: ["no heat", "not heating", "blowing cold", "heat not working", "furnace out"],
    reason: "no heat: extra time to diagnose and source parts without notice",
    addHours: 0.5,
    emergency: true,
    confirm:
      "Whether anyone at risk is in the house (elderly, infants) and whether pipes could freeze before the visit.",
    effects: [
      {
        when: { tags: ["air-handler", "fuel-fired"] },
        items: [{ item: "Diagnostic service call", qty: 1, unit: "each", draft: "Diagnostic service call" }],
        code: [
          "No-heat order: thermostat call, power and switch, filter, igniter and flame sensor, pressure and limit switches; check CO while the burner runs.",
        ],
      },
    ],
  },
  {
    ...QUIET,
    id: "no-hot-water",
    kind: "condition",
    label: "no hot water",
    phrases: ["no hot water", "hot water out", "water is cold", "cold showers", "not heating water"],
    reason: "no hot water",
    sameDay: true,
    effects: [
      {
        when: { tags: ["water-heater"] },
        items: [{ item: "Diagnostic service call", qty: 1, unit: "each", draft: "Diagnostic service call" }],
      },
      {
        when: { tags: ["water-heater"], unlessWords: ["gas", "electric", "propane"] },
        code: [
          "Before selling a heater: gas supply, pilot and thermocouple or igniter (gas), elements and thermostats (electric), and the breaker or the gas valve setting.",
        ],
      },
      {
        when: { tags: ["water-heater"], words: ["gas", "propane"], unlessWords: ["electric"] },
        code: [
          "Before selling a gas heater: gas supply, pilot and thermocouple or igniter, and the gas valve setting.",
        ],
      },
      {
        when: { tags: ["water-heater"], words: ["electric"], unlessWords: ["gas", "propane"] },
        code: [
          "Before selling an electric heater: the breaker, the high-limit reset, both elements and both thermostats.",
        ],
      },
    ],
  },
  // ---------------------------------------------------------------- urgency
  {
    ...QUIET,
    id: "emergency",
    kind: "urgency",
    label: "emergency",
    phrases: [
      "emergency",
      "urgent",
      "asap",
      "as soon as possible",
      "right away",
      "burst",
      "no power",
      "no cooling",
      "gas smell",
      "smell gas",
    ],
    addHours: 0.5,
    reason: "emergency call: extra time to stop the damage, diagnose and source parts without notice",
    emergency: true,
    confirm:
      "Whether the water, gas or power is shut off now, and whether anyone is at risk (no heat with elderly or infants, water near electrics).",
  },
  {
    ...QUIET,
    id: "flooding",
    kind: "urgency",
    label: "flooding",
    phrases: ["flooding", "flooded", "flood", "water everywhere", "standing water"],
    addHours: 0.5,
    reason: "flooding: stopping the water and protecting the property first",
    emergency: true,
    confirm: "Whether the main water shut-off is closed now, and whether water is near outlets or the panel.",
    effects: [
      {
        when: {},
        items: [
          {
            item: "Water extraction and drying, or referral to a mitigation company",
            qty: 1,
            unit: "allowance",
            draft: "Water extraction and drying",
          },
        ],
        code: [
          "Flooding: close the main shut-off first (show the customer where it is); switch off power to wet areas only from a dry spot, or leave it for the utility.",
        ],
        risks: [
          "Insurance: photograph everything before work starts and keep the wet materials' list for the adjuster.",
        ],
      },
    ],
  },
  {
    ...QUIET,
    id: "same-day",
    kind: "urgency",
    label: "today",
    phrases: ["today", "same day", "this afternoon", "this morning", "tonight"],
    reason: "wants a visit today",
    sameDay: true,
    confirm: "That a same-day slot (and any same-day rate) suits the customer, and the latest time someone is home.",
  },
  // ---------------------------------------------------------------- site and timing
  {
    ...QUIET,
    id: "older-home",
    kind: "site",
    label: "older home",
    phrases: [
      "old house",
      "older house",
      "old home",
      "older home",
      "historic home",
      "historic house",
      "century home",
      "galvanized",
      "cast iron",
      "plaster",
      "knob and tube",
    ],
    factor: 1.2,
    reason: "older construction: seized valves, non-standard sizes, plaster and lath, surprises behind walls",
    confirm: "Year the house was built and any earlier renovations.",
    safety:
      "Older home: assume lead paint before 1978 (EPA RRP lead-safe practices when cutting or sanding) and test for asbestos before disturbing pre-1980 materials.",
  },
  {
    ...QUIET,
    id: "commercial",
    kind: "site",
    label: "commercial site",
    phrases: ["commercial", "restaurant", "office building", "retail", "storefront", "warehouse"],
    factor: 1.3,
    reason: "commercial site: check-in, working around business hours, commercial-grade equipment, stricter inspection",
    travelMinutes: 15,
    confirm:
      "Site contact, access hours, certificate of insurance the property needs, and whether the work must be done outside business hours.",
  },
  {
    ...QUIET,
    id: "multi-unit",
    kind: "site",
    label: "condo or apartment",
    phrases: ["condo", "condominium", "apartment", "high-rise", "multi-unit"],
    addHours: 0.5,
    reason: "condo or apartment: elevator and loading dock booking, parking, building rules on noise and shut-offs",
    travelMinutes: 15,
    confirm:
      "Building management approval, elevator or loading dock booking, parking, and who controls the water or power shut-off for the unit.",
  },
  {
    ...QUIET,
    id: "slab",
    kind: "site",
    label: "slab foundation",
    phrases: ["slab", "concrete floor"],
    factor: 1.3,
    reason: "slab foundation: breaking and patching concrete, or rerouting through walls and attic instead",
    confirm:
      "Floor covering over the slab (tile, hardwood) and whether a reroute through the walls or attic is acceptable.",
  },
  {
    ...QUIET,
    id: "rural",
    kind: "site",
    label: "rural site",
    phrases: ["rural", "remote", "out of town", "farm", "ranch"],
    reason: "rural or remote site: longer drive and no supply house nearby",
    travelMinutes: 30,
    confirm: "Exact address or GPS pin, gate codes, and whether the property is on a well or septic system.",
  },
  {
    ...QUIET,
    id: "after-hours",
    kind: "timing",
    label: "after hours",
    phrases: ["after hours", "weekend", "saturday", "sunday", "evening", "overnight", "holiday"],
    reason: "requested outside normal hours",
    afterHours: true,
    confirm: "The after-hours rate, agreed in writing before the visit.",
  },
  {
    ...QUIET,
    id: "pets",
    kind: "site",
    label: "pets",
    phrases: ["dog", "cat", "pet"],
    reason: "pets on site",
    confirm: "Pets shut away from the work area and from open doors while the crew carries equipment in and out.",
  },
];
