// Unit tests for the local, deterministic assistant engine.
// Run: node --import tsx --test tests/unit/assistant-engine.test.ts

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import {
  ASSISTANT_MODES,
  ENGINE_VERSION,
  assistantInputSchema,
  generateGuidance,
  recogniseJob,
  toGuidanceInput,
  type AssistantData,
  type AssistantMode,
} from "../../app/services/assistant/engine";
import { JOB_RULES, TRADE_LABELS } from "../../app/services/assistant/rules";

/** Every file of the engine (the route-facing assistant.server.ts is not part of it). */
const ENGINE_FILES = readdirSync(new URL("../../app/services/assistant/", import.meta.url), { recursive: true })
  .map(String)
  .filter((f) => f.endsWith(".ts") && f !== "assistant.server.ts")
  .sort();

function allText(data: AssistantData): string {
  const g = data.guidance;
  return [g.title, g.summary, ...g.sections.flatMap((s) => [s.heading, ...s.items])].join("\n");
}

function section(data: AssistantData, heading: string): string[] {
  const found = data.guidance.sections.find((s) => s.heading === heading);
  assert.ok(found, `section "${heading}" missing; have ${data.guidance.sections.map((s) => s.heading).join(", ")}`);
  return found.items;
}

function assertShape(data: AssistantData, mode: AssistantMode): void {
  assert.deepEqual(Object.keys(data), ["mode", "engine", "engineVersion", "guidance"]);
  assert.equal(data.mode, mode);
  assert.equal(data.engine, "local-rules");
  assert.equal(data.engineVersion, ENGINE_VERSION);
  assert.deepEqual(Object.keys(data.guidance), ["title", "summary", "sections"]);
  assert.equal(typeof data.guidance.title, "string");
  assert.ok(data.guidance.title.length > 0);
  assert.ok(data.guidance.summary.length > 0);
  assert.ok(data.guidance.sections.length >= 2, `only ${data.guidance.sections.length} sections`);
  for (const s of data.guidance.sections) {
    assert.deepEqual(Object.keys(s), ["heading", "items"]);
    assert.ok(s.heading.length > 0);
    assert.ok(s.items.length > 0, `empty section ${s.heading}`);
    for (const item of s.items) {
      assert.equal(typeof item, "string");
      assert.ok(item.trim().length > 0);
      assert.doesNotMatch(item, /undefined|NaN|\[object/);
    }
  }
}

describe("engine version", () => {
  test("is a stable, non-empty string derived from the rules", () => {
    assert.match(ENGINE_VERSION, /^\d+\.[0-9a-f]{14}$/);
  });
});

describe("response shape", () => {
  const inputs = [
    { jobTitle: "Replace 50 gallon gas water heater", details: "Garage, about 12 years old." },
    { jobTitle: "Add 3 GFCI outlets in kitchen" },
    { jobTitle: "Something unusual", details: "not sure what it is" },
    {},
  ];
  for (const mode of ASSISTANT_MODES) {
    test(`${mode}: exact shape with at least 2 sections`, () => {
      for (const input of inputs) {
        const data = generateGuidance({ mode, ...input });
        assertShape(data, mode);
        assert.ok(data.guidance.sections.length >= 4, `${mode} has ${data.guidance.sections.length} sections`);
      }
    });
  }

  test("every rule produces a well-formed answer in every mode", () => {
    for (const rule of JOB_RULES) {
      for (const mode of ASSISTANT_MODES) {
        const data = generateGuidance({ mode, jobTitle: rule.keywords[0] });
        assertShape(data, mode);
        assert.ok(allText(data).includes(rule.name), `${rule.id} ${mode} does not name the job`);
      }
    }
  });

  test("an unknown mode is refused", () => {
    assert.throws(() => generateGuidance({ mode: "poem" as AssistantMode }), RangeError);
  });
});

describe("determinism", () => {
  test("equal input gives byte-identical JSON", () => {
    for (const mode of ASSISTANT_MODES) {
      const input = {
        mode,
        jobTitle: "Panel upgrade to 200 amp",
        details: "Two-story old house, overhead service; also wants an EV charger.",
      };
      const a = JSON.stringify(generateGuidance(input));
      const b = JSON.stringify(generateGuidance({ ...input }));
      assert.equal(a, b);
    }
  });

  test("input differing only in whitespace and case gives byte-identical JSON", () => {
    for (const mode of ASSISTANT_MODES) {
      const a = JSON.stringify(
        generateGuidance({ mode, jobTitle: "Replace water heater", details: "Attic install, 2 story house" }),
      );
      const b = JSON.stringify(
        generateGuidance({
          mode,
          jobTitle: "  REPLACE   water\tHEATER ",
          details: "attic   INSTALL,\n\n2 STORY house  ",
        }),
      );
      assert.equal(a, b);
    }
  });

  test("the engine source uses no clock, randomness or locale formatting", () => {
    for (const file of ENGINE_FILES) {
      const src = readFileSync(new URL(`../../app/services/assistant/${file}`, import.meta.url), "utf8");
      assert.doesNotMatch(src, /\bDate\b|Math\.random|toLocale|Intl\.|performance\.now|process\./, file);
    }
  });
});

describe("substance", () => {
  test("a water heater quote and a panel upgrade quote differ and name their trade's items", () => {
    const wh = generateGuidance({ mode: "quote", jobTitle: "Replace 50 gallon gas water heater" });
    const panel = generateGuidance({
      mode: "quote",
      jobTitle: "Panel upgrade",
      details: "100 amp fuse box to 200 amp",
    });
    const whText = allText(wh);
    const panelText = allText(panel);
    assert.notEqual(whText, panelText);

    assert.match(wh.guidance.title, /Water heater/);
    assert.match(whText, /expansion tank/i);
    assert.match(whText, /T&P/);
    assert.match(whText, /Water heating/);
    assert.match(whText, /Labour, plumbing/);
    assert.doesNotMatch(whText, /meter socket|utility disconnect/i);

    assert.match(panel.guidance.title, /panel/i);
    assert.match(panelText, /breaker/i);
    assert.match(panelText, /meter/i);
    assert.match(panelText, /utility disconnect/i);
    assert.match(panelText, /Electrical/);
    assert.doesNotMatch(panelText, /expansion tank|T&P/i);

    // the quote checklist parts the contract names
    for (const data of [wh, panel]) {
      const text = allText(data);
      assert.match(text, /Materials/);
      assert.match(text, /Labour/);
      assert.match(text, /Disposal/);
      assert.match(text, /Permits/);
      assert.match(text, /Travel/);
      assert.match(text, /Good: /);
      assert.match(text, /Better: /);
      assert.match(text, /Best: /);
      assert.match(text, /Valid for 30 days/);
      assert.match(text, /Deposit: /);
      assert.ok(section(data, "Confirm with the customer").length >= 3);
    }
    assert.match(section(panel, "Validity, deposit and warranty").join(" "), /50 %/);
  });

  test("schedule mode gives duration with reasoning, arrival window, travel buffer, crew and van list", () => {
    const data = generateGuidance({ mode: "schedule", jobTitle: "Water heater replacement" });
    assert.match(section(data, "Duration estimate").join(" "), /Estimate: .*hours on site/);
    assert.match(section(data, "Duration estimate").join(" "), /Base: /);
    assert.match(section(data, "Arrival window and travel").join(" "), /arrival/i);
    assert.match(section(data, "Arrival window and travel").join(" "), /Travel buffer: \d+ minutes/);
    assert.match(section(data, "Crew").join(" "), /Crew of 2/);
    assert.ok(section(data, "Load on the van").length >= 3);
    assert.ok(section(data, "Confirm before the visit").length >= 3);
  });

  test("general mode gives next steps, safety and follow-up", () => {
    const data = generateGuidance({ mode: "general", jobTitle: "EV charger install in garage" });
    assert.match(data.guidance.title, /EV charger/);
    assert.ok(section(data, "Next steps").length >= 4);
    assert.match(section(data, "Safety").join(" "), /GFCI|de-energise/i);
    assert.ok(section(data, "After the job").length >= 1);
  });

  test("each trade's guidance is specific to the trade", () => {
    const trades = new Set(JOB_RULES.map((r) => r.trade));
    assert.deepEqual([...trades].sort(), Object.keys(TRADE_LABELS).sort());
  });
});

describe("recognition", () => {
  test("the table has at least 24 job kinds with unique ids and complete rows", () => {
    assert.ok(JOB_RULES.length >= 24, `only ${JOB_RULES.length} rules`);
    assert.equal(new Set(JOB_RULES.map((r) => r.id)).size, JOB_RULES.length);
    for (const r of JOB_RULES) {
      assert.ok(r.keywords.length >= 3, `${r.id} keywords`);
      assert.ok(r.materials.length >= 3, `${r.id} materials`);
      assert.ok(r.labourHours.min > 0 && r.labourHours.min <= r.labourHours.max, `${r.id} labour`);
      assert.ok(r.durationHours.min > 0 && r.durationHours.min <= r.durationHours.max, `${r.id} duration`);
      assert.ok(r.crewSize >= 1, `${r.id} crew`);
      assert.ok(
        r.vanParts.length >= 3 && r.confirm.length >= 2 && r.safety.length >= 2 && r.followUp.length >= 1,
        `${r.id} lists`,
      );
      assert.ok(r.options.good && r.options.better && r.options.best, `${r.id} options`);
      assert.ok(r.depositPercent >= 0 && r.depositPercent <= 100, `${r.id} deposit`);
    }
  });

  test("each rule's first keyword phrase, used as a title, selects that rule", () => {
    let recognised = 0;
    for (const rule of JOB_RULES) {
      const title = rule.keywords[0];
      const r = recogniseJob(title);
      assert.equal(r.ruleId, rule.id, `"${title}" selected ${r.ruleId}, expected ${rule.id}`);
      const data = generateGuidance({ mode: "quote", jobTitle: title });
      assert.equal(data.guidance.title, `Quote checklist: ${rule.name}`);
      recognised++;
    }
    assert.ok(recognised >= 20);
  });

  const everyday: Array<[string, string | undefined, string]> = [
    ["No hot water", "40 gallon gas tank in garage", "water-heater-gas-no-hot-water"],
    ["Install Navien tankless", undefined, "tankless-water-heater"],
    ["Clogged kitchen sink", undefined, "kitchen-sink-clog"],
    ["Toilet keeps running", undefined, "toilet-running"],
    ["AC not cooling", "blowing warm air", "ac-repair"],
    ["Spring AC tune-up", undefined, "ac-tune-up"],
    ["Furnace not working", "no heat since last night", "furnace"],
    ["Install ecobee", undefined, "thermostat"],
    ["Add 3 GFCI outlets", "kitchen counter", "outlet-switch"],
    ["Hang ceiling fan in bedroom", undefined, "ceiling-fan-install"],
    ["Tesla wall connector", "garage, panel is on the other side", "ev-charger"],
    ["Fix hole in drywall", undefined, "drywall-repair"],
    ["Sticking front door", undefined, "door-window"],
    ["Rotten deck boards", undefined, "deck-repair"],
  ];
  for (const [title, details, id] of everyday) {
    test(`"${title}" is recognised as ${id}`, () => {
      assert.equal(recogniseJob(title, details).ruleId, id);
    });
  }

  test("the more specific kind wins and the other is mentioned", () => {
    assert.equal(recogniseJob("Tankless water heater install").ruleId, "tankless-water-heater");
    const both = recogniseJob("Panel upgrade", "customer also wants an EV charger");
    assert.equal(both.ruleId, "panel-upgrade");
    assert.equal(both.alsoMentioned?.ruleId, "ev-charger");
    const data = generateGuidance({
      mode: "quote",
      jobTitle: "Panel upgrade",
      details: "customer also wants an EV charger",
    });
    assert.match(section(data, "Also mentioned").join(" "), /EV charger/);
  });

  test("ties break by rule order, stably", () => {
    // "water heater" and "panel upgrade" score the same; the earlier rule in the table wins
    const a = recogniseJob("water heater and panel upgrade");
    const b = recogniseJob("panel upgrade and water heater");
    assert.equal(a.score, b.score);
    assert.equal(a.ruleId, "water-heater-tank");
    assert.equal(b.ruleId, "water-heater-tank");
    assert.equal(a.alsoMentioned?.ruleId, "panel-upgrade");
  });

  test("matching uses whole words, not substrings", () => {
    // "deck" inside "decking" / "ac" inside "back" must not match
    assert.notEqual(recogniseJob("Back room", "decking brochure").ruleId, "deck-repair");
    assert.equal(recogniseJob("Back room").ruleId, null);
  });
});

describe("fallback", () => {
  for (const mode of ASSISTANT_MODES) {
    test(`${mode}: unknown text gets useful generic guidance`, () => {
      const data = generateGuidance({ mode, jobTitle: "Blorp the zingwazzle", details: "qwerty" });
      assertShape(data, mode);
      assert.match(data.guidance.title, /not recognised/);
      assert.match(data.guidance.summary, /No specific job kind was recognised/);
      assert.ok(section(data, "Information that would help").length >= 4);
    });
  }

  test("empty input says nothing was given and still answers", () => {
    const data = generateGuidance({ mode: "quote" });
    assert.match(data.guidance.summary, /No job title or details were given/);
    assert.match(allText(data), /Valid for 30 days/);
  });

  test("fallback schedule still applies modifiers", () => {
    const data = generateGuidance({ mode: "schedule", jobTitle: "Mystery noise", details: "emergency, in the attic" });
    const items = section(data, "Duration estimate").join(" ");
    assert.match(items, /attic/);
    assert.match(section(data, "Arrival window and travel").join(" "), /Emergency/);
  });
});

describe("schedule reasoning reacts to the words", () => {
  function durationItems(jobTitle: string, details?: string): string[] {
    return section(generateGuidance({ mode: "schedule", jobTitle, details }), "Duration estimate");
  }
  function estimateLine(items: string[]): string {
    const line = items.find((i) => i.startsWith("Estimate: "));
    assert.ok(line);
    return line;
  }

  test('"two-story" adds an upper-floor adjustment and lengthens the estimate', () => {
    const plain = durationItems("Water heater replacement");
    const upstairs = durationItems("Water heater replacement", "two-story house, heater is on the second floor");
    assert.notEqual(estimateLine(plain), estimateLine(upstairs));
    assert.ok(
      upstairs.some((i) => /\+15 % for "two-story"/.test(i) && /upper floor/.test(i)),
      upstairs.join("\n"),
    );
    assert.ok(!plain.some((i) => /upper floor/.test(i)));
  });

  test("attic, crawlspace and old house stack and are each explained", () => {
    const items = durationItems("Leak repair", "crawlspace under an old house, access through the attic").join("\n");
    assert.match(items, /crawlspace/);
    assert.match(items, /attic/);
    assert.match(items, /older construction/);
    assert.match(items, /combined/);
  });

  test("a counted quantity adds time per extra unit", () => {
    const one = durationItems("Replace outlet");
    const three = durationItems("Replace 3 outlets");
    const words = durationItems("Replace outlets", "three outlets and two switches in the kitchen");
    assert.equal(estimateLine(one), "Estimate: 1-2 hours on site.");
    assert.equal(estimateLine(three), "Estimate: 2-3 hours on site.");
    assert.ok(
      three.some((i) => i === "Quantity: 3 devices; the base covers 1, so +2 x 0.5 h = +1 h."),
      three.join("\n"),
    );
    assert.ok(
      words.some((i) => i.startsWith("Quantity: 5 devices")),
      words.join("\n"),
    );
  });

  test("numbers that are not counts are ignored", () => {
    const items = durationItems("Replace outlets", "10 year old outlets, 200 amp panel");
    assert.ok(!items.some((i) => i.startsWith("Quantity:")), items.join("\n"));
  });

  test("long jobs get a first-of-day or multi-day window; emergencies get an ETA", () => {
    const repipe = generateGuidance({ mode: "schedule", jobTitle: "Whole house repipe", details: "3 bathrooms" });
    assert.match(section(repipe, "Arrival window and travel")[0], /Multi-day job/);
    assert.match(section(repipe, "Duration estimate")[0], /workdays/);
    const burst = generateGuidance({ mode: "schedule", jobTitle: "Burst pipe", details: "flooding the basement" });
    assert.match(section(burst, "Arrival window and travel")[0], /^Emergency/);
    const condo = generateGuidance({
      mode: "schedule",
      jobTitle: "Toilet replacement",
      details: "condo on the 3rd floor",
    });
    assert.match(section(condo, "Arrival window and travel").join(" "), /Block 45 minutes/);
  });
});

describe("form schema", () => {
  test("accepts the form's fields and strips others", () => {
    const parsed = assistantInputSchema.parse({
      _csrf: "x",
      mode: "quote",
      job_title: " Water heater ",
      details: "garage",
    });
    assert.deepEqual(parsed, { mode: "quote", job_title: "Water heater", details: "garage" });
    assert.deepEqual(toGuidanceInput(parsed), { mode: "quote", jobTitle: "Water heater", details: "garage" });
  });

  test("empty strings count as absent", () => {
    const parsed = assistantInputSchema.parse({ mode: "general", job_title: "", details: "   " });
    assert.equal(parsed.job_title, undefined);
    assert.equal(parsed.details, undefined);
  });

  test("rejects a missing or unknown mode", () => {
    for (const mode of [undefined, "", "poem", "QUOTE"]) {
      const r = assistantInputSchema.safeParse({ mode });
      assert.equal(r.success, false, `mode ${String(mode)}`);
      if (!r.success) assert.ok(r.error.flatten().fieldErrors.mode?.length);
    }
  });

  test("limits job_title to 200 and details to 5000 characters", () => {
    assert.equal(assistantInputSchema.safeParse({ mode: "quote", job_title: "a".repeat(200) }).success, true);
    const longTitle = assistantInputSchema.safeParse({ mode: "quote", job_title: "a".repeat(201) });
    assert.equal(longTitle.success, false);
    if (!longTitle.success) assert.ok(longTitle.error.flatten().fieldErrors.job_title?.length);
    assert.equal(assistantInputSchema.safeParse({ mode: "quote", details: "d".repeat(5000) }).success, true);
    const longDetails = assistantInputSchema.safeParse({ mode: "quote", details: "d".repeat(5001) });
    assert.equal(longDetails.success, false);
    if (!longDetails.success) assert.ok(longDetails.error.flatten().fieldErrors.details?.length);
  });

  test("rejects non-text values", () => {
    assert.equal(assistantInputSchema.safeParse({ mode: "quote", job_title: 5 }).success, false);
  });
});

describe("isolation", () => {
  // The engine was split by concern: every file of it, rule tables included, may import only
  // its siblings, zod and fastest-levenshtein (pure string distance for the spelling
  // correction, no I/O).
  test("the engine is split into files and the rule tables into one file per trade", () => {
    for (const file of [
      "engine.ts",
      "text.ts",
      "read.ts",
      "estimate.ts",
      "compose.ts",
      "version.ts",
      "schema.ts",
      "rules/index.ts",
    ]) {
      assert.ok(ENGINE_FILES.includes(file), file);
    }
    for (const trade of Object.keys(TRADE_LABELS))
      assert.ok(
        ENGINE_FILES.some((f) => f.startsWith(`rules/${trade}`)),
        trade,
      );
  });

  for (const file of ENGINE_FILES) {
    test(`${file} imports only its siblings, zod and fastest-levenshtein, and opens no connection`, () => {
      const src = readFileSync(new URL(`../../app/services/assistant/${file}`, import.meta.url), "utf8");
      const specifiers = [...src.matchAll(/\b(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/g)].map((m) => m[1]);
      const bare = [...src.matchAll(/\bimport\s*["']([^"']+)["']/g)].map((m) => m[1]);
      const inside = file.startsWith("rules/") ? /^\.\/[a-z-]+$/ : /^\.\/(?:[a-z-]+|rules)$/;
      for (const spec of [...specifiers, ...bare]) {
        assert.ok(inside.test(spec) || spec === "zod" || spec === "fastest-levenshtein", `${file} imports ${spec}`);
      }
      assert.doesNotMatch(src, /\bimport\s*\(/, "dynamic import");
      assert.doesNotMatch(src, /\brequire\s*\(/, "require");
      assert.doesNotMatch(src, /["']node:/, "node: module");
      assert.doesNotMatch(src, /["'](?:http|https|net|tls|dgram|dns|child_process|fs)["']/, "network or fs module");
      assert.doesNotMatch(src, /\bfetch\s*\(/, "fetch");
      assert.doesNotMatch(src, /XMLHttpRequest|WebSocket|EventSource/, "browser networking");
    });
  }
});
