// The assistant's normaliser: trade shorthand, numbers with units and spelling correction
// against the rules' own words (deterministic, ties broken by the order of the knowledge); and
// the summary never says nothing was read after naming what was read.
// Run: node --import tsx --test tests/unit/assistant-normaliser.test.ts

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateGuidance, recogniseJob } from "../../app/services/assistant/engine";
import { correct, tokenize } from "../../app/services/assistant/text";

describe("shorthand", () => {
  test("floors, rooms, with and without, circuits and equipment abbreviations are read as words", () => {
    const tokens = tokenize("2nd flr bdrm w/ ac, w/o gfci; new ckt for genny, rtu and hwh in mstr rm");
    for (const word of ["second", "floor", "bedroom", "with", "ac", "without", "gfci", "circuit", "generator"])
      assert.ok(tokens.includes(word), `${word} in ${tokens.join(" ")}`);
    for (const phrase of ["rooftop unit", "hot water heater", "master room"])
      assert.ok(tokens.join(" ").includes(phrase), phrase);
  });

  test("numbers with units: thousands, ampere, gallons, tons, years", () => {
    const r = recogniseJob("replace 80k btu furnace, 20 yr old", "200amp service, 3.5 ton ac, 50g tank");
    for (const finding of ["80000 BTU/h", "20 years old", "200 A", "3.5 ton", "50 gal"])
      assert.ok(r.findings.includes(finding), `${finding} in ${JSON.stringify(r.findings)}`);
  });

  test("shorthand selects the kind it stands for", () => {
    const cases: Array<[string, string]> = [
      ["ckt for freezer w/ gfci", "dedicated-circuit"],
      ["RTU down no cooling", "rtu-service"],
      ["gd spring broke", "garage-door-spring"],
      ["otr micro install", "otr-microwave"],
    ];
    for (const [title, id] of cases) assert.equal(recogniseJob(title).ruleId, id, title);
  });
});

describe("spelling correction", () => {
  test("a near miss maps to the nearest word the rules use (a swap of neighbours is one edit)", () => {
    const cases: Array<[string, string]> = [
      ["toliet", "toilet"],
      ["furnance", "furnace"],
      ["recepticle", "receptacle"],
      ["thermastat", "thermostat"],
      ["dishwaser", "dishwasher"],
      ["sprinkelr", "sprinkler"],
      ["circut", "circuit"],
    ];
    for (const [typo, word] of cases) assert.equal(correct(typo), word, typo);
  });

  test("ties go to the word that comes first in the knowledge, every time", () => {
    // "extansion" is one edit from "expansion" (a water heating word) and "extension" (a garage
    // door word); the water heating table comes first.
    for (let i = 0; i < 3; i++) assert.equal(correct("extansion"), "expansion");
  });

  test("words the knowledge uses, short words and far words are left alone", () => {
    for (const word of ["heated", "venting", "customer", "ac", "wall", "zqxwvb"]) assert.equal(correct(word), word);
  });
});

describe("what was read", () => {
  test("a request with findings never says no words were found", () => {
    const title = "water heater in garage leaking, 12 yrs old";
    for (const mode of ["quote", "schedule", "general"] as const) {
      const data = generateGuidance({ mode, jobTitle: title });
      assert.match(data.guidance.summary, /garage \(location\), leaking \(condition\), 12 years old/);
      const all = [data.guidance.summary, ...data.guidance.sections.flatMap((s) => s.items)].join("\n");
      assert.doesNotMatch(all, /No location, condition, size/, mode);
    }
    const schedule = generateGuidance({ mode: "schedule", jobTitle: title });
    const duration = schedule.guidance.sections.find((s) => s.heading === "Duration estimate")!.items;
    assert.ok(
      duration.some((i) => i.startsWith("What was read (garage, leaking, 12 years old) does not change the base")),
      duration.join("\n"),
    );
  });

  test("a request with nothing read still says so", () => {
    const data = generateGuidance({ mode: "schedule", jobTitle: "toilet running" });
    const all = data.guidance.sections.flatMap((s) => s.items).join("\n");
    assert.match(all, /No location, condition, size, access or urgency words found/);
  });
});

describe("never the wrong job", () => {
  test("grab bars in a tiled shower get grab bar guidance, never a water heater's", () => {
    const r = recogniseJob("install grab bars in shower, tile wall");
    assert.equal(r.ruleId, "grab-bars");
    const text = JSON.stringify(
      generateGuidance({ mode: "quote", jobTitle: "install grab bars in shower, tile wall" }),
    );
    assert.doesNotMatch(text, /water heater|T&P|anode/i);
  });

  test("when the kind is not certain, the answer says what it understood and gives the trade's checklist", () => {
    const r = recogniseJob("electrical issue in the barn, weird");
    assert.equal(r.ruleId, null);
    assert.equal(r.trade, "electrical");
    const data = generateGuidance({ mode: "quote", jobTitle: "electrical issue in the barn, weird" });
    assert.equal(data.guidance.title, "Quote checklist: Electrical job, kind not certain");
    assert.match(data.guidance.summary, /^Understood: electrical work; not sure enough of the kind of job/);
    assert.ok(data.guidance.sections.some((s) => s.heading === "First checks on site"));
  });

  test("a kind's answer names it and how sure the engine is", () => {
    const data = generateGuidance({ mode: "quote", jobTitle: "toilet keeps running" });
    assert.match(data.guidance.summary, /Running toilet \(flapper, fill valve\) .*; sure of the kind \(\d+ %\)/);
  });
});
