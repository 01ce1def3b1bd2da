// The assistant's golden set, the issue's acceptance request, the version rule and the
// determinism of the larger rule set.
// Run: node --import tsx --test tests/unit/assistant-golden.test.ts

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  ENGINE_VERSION,
  generateGuidance,
  recogniseJob,
  type AssistantData,
} from "../../app/services/assistant/engine";
import { KNOWLEDGE, JOB_RULES, TRADE_LABELS } from "../../app/services/assistant/rules";
import { ENGINE_REVISION, cyrb53, versionOf } from "../../app/services/assistant/version";
import { draftLinesOf, draftQuery, formatDraftLine, parseDraftLine } from "../../app/services/assistant/draft-lines";
import { GOLDEN } from "./assistant-golden.cases";
import { GOLDEN_REQUESTS } from "./assistant-requests.golden";

function items(data: AssistantData): string[] {
  return data.guidance.sections.flatMap((s) => s.items);
}

function section(data: AssistantData, heading: string): string[] {
  return data.guidance.sections.find((s) => s.heading === heading)?.items ?? [];
}

describe("acceptance: the corroded-vent water heater in a garage", () => {
  const data = generateGuidance({
    mode: "quote",
    jobTitle: "replace 50 gallon gas water heater in garage, existing venting corroded",
  });
  const all = items(data);

  test("the summary names the garage and the corroded vent", () => {
    assert.match(data.guidance.summary, /\bgarage\b/);
    assert.match(data.guidance.summary, /corroded vent/);
  });

  test("its items include a vent allowance, a draft/spillage/CO test and the garage ignition-height check", () => {
    assert.ok(
      all.some((i) => /vent replacement allowance/i.test(i)),
      "vent allowance",
    );
    assert.ok(
      all.some((i) => /draft, spillage and CO/i.test(i)),
      "draft/spillage/CO test",
    );
    assert.ok(
      all.some((i) => /18 in above the garage floor/.test(i) && /18-inch ignition-source rule/.test(i)),
      "ignition height",
    );
  });

  test("code checks cite the rule in trade words and claim no jurisdiction", () => {
    const code = section(data, "Code checks for this site");
    assert.ok(code.length >= 3, code.join("\n"));
    for (const line of code)
      assert.doesNotMatch(line, /\b(IRC|UPC|IPC|NFPA|NEC \d|California|Texas|Ontario|jurisdiction)\b/);
  });

  test("the vent and its test are quote lines, and the labour grows for them", () => {
    const draft = draftLinesOf(data).map((l) => l.name);
    assert.ok(draft.includes("Vent replacement allowance"), draft.join(", "));
    assert.ok(draft.includes("Draft, spillage and CO test"));
    assert.ok(draft.includes("Appliance stand, 18 in"));
    assert.ok(section(data, "Labour").some((i) => i.startsWith("+1 h for corroded vent")));
  });

  test("without the words, none of it appears", () => {
    const plain = items(generateGuidance({ mode: "quote", jobTitle: "replace 50 gallon gas water heater" }));
    assert.ok(!plain.some((i) => /vent replacement allowance|18-inch ignition-source rule/i.test(i)));
    const electricInGarage = items(
      generateGuidance({ mode: "quote", jobTitle: "replace electric water heater in garage" }),
    );
    assert.ok(
      !electricInGarage.some((i) => /18-inch ignition-source rule/.test(i)),
      "no ignition rule for an electric heater",
    );
  });
});

describe("golden set", () => {
  test("has at least 60 cases; with the request set, every trade is covered", () => {
    assert.ok(GOLDEN.length >= 60, `${GOLDEN.length} cases`);
    const trades = new Set(GOLDEN.flatMap((c) => (c.job ? [JOB_RULES.find((r) => r.id === c.job)!.trade] : [])));
    for (const c of GOLDEN_REQUESTS) {
      const trade = recogniseJob(c.title, c.details).trade;
      if (trade) trades.add(trade as keyof typeof TRADE_LABELS);
    }
    assert.deepEqual([...trades].sort(), Object.keys(TRADE_LABELS).sort());
  });

  for (const c of GOLDEN) {
    const mode = c.mode ?? "quote";
    test(`${mode}: "${c.title}"${c.details ? ` / "${c.details}"` : ""}`, () => {
      const data = generateGuidance({ mode, jobTitle: c.title, details: c.details });
      const recognition = recogniseJob(c.title, c.details);
      assert.equal(recognition.ruleId, c.job, `selected ${recognition.ruleId}`);
      for (const read of c.reads ?? []) {
        assert.ok(
          recognition.findings.includes(read),
          `did not read "${read}"; read ${JSON.stringify(recognition.findings)}`,
        );
        assert.ok(data.guidance.summary.includes(read), `summary does not name "${read}": ${data.guidance.summary}`);
      }
      const text = items(data).map((i) => i.toLowerCase());
      for (const want of c.must) {
        assert.ok(
          text.some((i) => i.includes(want.toLowerCase())),
          `no item contains "${want}"`,
        );
      }
      for (const unwanted of c.mustNot ?? []) {
        const hit = text.find((i) => i.includes(unwanted.toLowerCase()));
        assert.equal(hit, undefined, `an item contains "${unwanted}"`);
      }
    });
  }
});

describe("coverage", () => {
  test("at least 150 job kinds across the ten trades", () => {
    assert.ok(JOB_RULES.length >= 150, `${JOB_RULES.length} job kinds`);
    for (const trade of Object.keys(TRADE_LABELS)) {
      assert.ok(JOB_RULES.filter((r) => r.trade === trade).length >= 3, `${trade} has fewer than 3 job kinds`);
    }
  });

  test("every modifier and effect condition names a real job, tag and subject", () => {
    const ids = new Set(JOB_RULES.map((r) => r.id));
    const tags = new Set(JOB_RULES.flatMap((r) => r.tags));
    const subjects = new Set(KNOWLEDGE.subjects.map((s) => s.id));
    const whens = [
      ...KNOWLEDGE.modifiers.flatMap((m) => (m.effects ?? []).map((e) => e.when)),
      ...KNOWLEDGE.measureRules.map((m) => m.when),
      ...KNOWLEDGE.ageRules.map((a) => a.when),
    ];
    for (const when of whens) {
      for (const id of when.jobs ?? []) assert.ok(ids.has(id), `unknown job ${id}`);
      for (const tag of when.tags ?? []) assert.ok(tags.has(tag), `no job has tag ${tag}`);
      for (const s of when.subjects ?? []) assert.ok(subjects.has(s), `unknown subject ${s}`);
    }
  });

  test("the issue's modifiers are all read", () => {
    const cases: Array<[string, string]> = [
      ["water heater in garage", "garage"],
      ["water heater in attic", "attic"],
      ["leak in crawlspace", "crawlspace"],
      ["sump pump in basement", "basement"],
      ["ac unit on the roof", "roof"],
      ["furnace in closet", "closet"],
      ["outdoor outlet", "outdoors"],
      ["corroded pipe", "corroded pipe"],
      ["toilet leaking", "leaking"],
      ["rusted water heater tank", "rusted tank"],
      ["cracked toilet bowl", "cracked fixture"],
      ["frozen pipe", "frozen"],
      ["drain backed up", "backed up"],
      ["breaker keeps tripping", "tripping"],
      ["burning smell from panel", "burning smell"],
      ["furnace no heat", "no heat"],
      ["no hot water", "no hot water"],
      ["50 gallon water heater", "50 gal"],
      ["3 ton ac", "3 ton"],
      ["60000 btu furnace", "60000 BTU/h"],
      ["100 amp panel", "100 A"],
      ["mini split with 30 feet of line", "30 ft"],
      ["20 year old water heater", "20 years old"],
      ["tight closet water heater", "tight access"],
      ["water heater on second floor", "upper floor"],
      ["toilet, no parking", "no parking"],
      ["emergency toilet", "emergency"],
      ["toilet today", "today"],
      ["basement flooding sump pump", "flooding"],
    ];
    for (const [title, finding] of cases) {
      const r = recogniseJob(title);
      assert.ok(r.findings.includes(finding), `"${title}" read ${JSON.stringify(r.findings)}, not "${finding}"`);
    }
  });
});

describe("shorthand and typos", () => {
  const cases: Array<[string, string]> = [
    ["50g WH", "water-heater-tank"],
    ["wtr htr", "water-heater-tank"],
    ["hwh leaking", "water-heater-tank"],
    ["disposer", "garbage-disposal"],
    ["AC not cooling 2nd flr", "ac-repair"],
    ["GFCI keeps tripping in bathroom", "gfci-tripping"],
    ["gfi outlet dead", "dead-outlets"],
    ["furnance", "furnace"],
    ["thermastat not working", "thermostat"],
    ["toliet clogged", "toilet-clog"],
    ["recepticle sparks", "outlet-sparking"],
    ["repl flr drain trap primer", "floor-drain-odor"],
    ["ckt for freezer w/ gfci", "dedicated-circuit"],
    ["replace tstat", "thermostat"],
    ["dishwaser install", "dishwasher"],
  ];
  for (const [title, id] of cases) {
    test(`"${title}" is read as ${id}`, () => {
      assert.equal(recogniseJob(title).ruleId, id);
    });
  }

  test("real words near a rule word are left alone", () => {
    // "heated" is one letter from "heater": it must not select the water heater
    assert.notEqual(recogniseJob("heated floor in bathroom").ruleId, "water-heater-tank");
  });
});

describe("engine version", () => {
  test("is derived from all the knowledge: any change to a table changes it", () => {
    assert.equal(ENGINE_VERSION, versionOf(ENGINE_REVISION, KNOWLEDGE));
    const edited = structuredClone(KNOWLEDGE) as unknown as {
      rules: Array<{ labourHours: { max: number } }>;
      modifiers: Array<{ phrases: string[] }>;
      wording: { recognised: string };
    };
    edited.rules[0].labourHours.max += 1;
    assert.notEqual(versionOf(ENGINE_REVISION, edited), ENGINE_VERSION);
    const edited2 = structuredClone(KNOWLEDGE) as unknown as { modifiers: Array<{ phrases: string[] }> };
    edited2.modifiers[0].phrases.push("shed");
    assert.notEqual(versionOf(ENGINE_REVISION, edited2), ENGINE_VERSION);
    assert.notEqual(versionOf(ENGINE_REVISION + 1, KNOWLEDGE), ENGINE_VERSION);
  });

  // The engine's answers to the golden set, hashed, recorded with the version they came from.
  // If the answers change while the version does not, the engine's logic changed without a
  // bump of ENGINE_REVISION (version.ts). If both changed, record the new pair here.
  const RECORDED = { version: "3.1114a1f3315d01", answers: "0416b2e35e68da" };

  test("answers and version move together (a forgotten ENGINE_REVISION bump fails here)", () => {
    const all = GOLDEN.flatMap((c) =>
      (["quote", "schedule", "general"] as const).map((mode) =>
        JSON.stringify(generateGuidance({ mode, jobTitle: c.title, details: c.details }).guidance),
      ),
    ).join("\n");
    const answers = cyrb53(all).toString(16).padStart(14, "0");
    if (ENGINE_VERSION === RECORDED.version) {
      assert.equal(
        answers,
        RECORDED.answers,
        "the answers changed but ENGINE_VERSION did not: bump ENGINE_REVISION in version.ts, then record the new pair here",
      );
    } else {
      assert.fail(
        `ENGINE_VERSION is now ${ENGINE_VERSION} (recorded ${RECORDED.version}): record { version: "${ENGINE_VERSION}", answers: "${answers}" } here`,
      );
    }
  });
});

describe("determinism of the larger rule set", () => {
  test("every golden request, in every mode, gives byte-identical data twice", () => {
    for (const c of GOLDEN) {
      for (const mode of ["quote", "schedule", "general"] as const) {
        const a = JSON.stringify(generateGuidance({ mode, jobTitle: c.title, details: c.details }));
        const b = JSON.stringify(generateGuidance({ mode, jobTitle: c.title, details: c.details }));
        assert.equal(a, b);
      }
    }
  });

  test("the answer never echoes the user's own words", () => {
    const data = generateGuidance({
      mode: "quote",
      jobTitle: "Replace water heater zqxwv",
      details: "in the garage near grandmas piano",
    });
    const text = JSON.stringify(data);
    assert.doesNotMatch(text, /zqxwv|grandma|piano/);
  });
});

describe("draft quote lines", () => {
  test("format and parse are inverse, and the query repeats item with matching qty", () => {
    const line = { name: "Vent replacement allowance", qty: 1 };
    assert.deepEqual(parseDraftLine(formatDraftLine(line)), line);
    assert.equal(parseDraftLine("These lines prefill a new quote"), null);
    assert.equal(
      draftQuery([line, { name: "Labour, plumbing (person-hours)", qty: 6 }]),
      "item=Vent+replacement+allowance&qty=1&item=Labour%2C+plumbing+%28person-hours%29&qty=6",
    );
  });

  test("every job kind's quote has draft lines: materials, labour and the trip charge; schedule and general have none", () => {
    for (const rule of JOB_RULES) {
      const data = generateGuidance({ mode: "quote", jobTitle: rule.keywords[0] });
      const lines = draftLinesOf(data);
      assert.ok(lines.length >= 3, rule.id);
      assert.ok(
        lines.some((l) => l.name.startsWith("Labour, ")),
        rule.id,
      );
      assert.ok(
        lines.some((l) => l.name === "Trip charge"),
        rule.id,
      );
      for (const l of lines)
        assert.ok(l.qty > 0 && l.name.length <= 200 && !l.name.includes("\n"), `${rule.id}: ${l.name}`);
      assert.deepEqual(draftLinesOf({ ...data, mode: "schedule" }), []);
      assert.deepEqual(draftLinesOf(generateGuidance({ mode: "general", jobTitle: rule.keywords[0] })), []);
    }
  });
});
