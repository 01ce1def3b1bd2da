// Writing the answer: the quote checklist, the schedule and the next steps for a recognised
// job, and the general answer when no job kind was recognised. Every sentence comes from the
// wording table; only rule phrases and numbers are filled in.

import { DRAFT_SECTION_HEADING, DRAFT_NAME_MAX, formatDraftLine, type DraftLine } from "./draft-lines";
import { estimate, workdays, type Estimate } from "./estimate";
import { fill, fmtHours, fmtHoursAdj, fmtNum, fmtRange, lowerFirst, quoteList, uniqueStrings } from "./format";
import { measuresOf, type Choice, type Finding, type RuleMatch, type Words } from "./read";
import {
  FIXTURES,
  GENERIC_JOB,
  LABOUR_NAMES,
  QUOTE_TERMS,
  TRADE_GENERAL,
  SCHEDULE_DEFAULTS,
  TRADE_LABELS,
  WORDING,
  type JobRule,
  type MaterialLine,
  type MeasureId,
} from "./rules";
import type { AssistantMode, Guidance, GuidanceSection } from "./schema";

const H = WORDING.headings;

interface Context {
  readonly mode: AssistantMode;
  readonly primary: RuleMatch;
  readonly second: RuleMatch | undefined;
  readonly findings: readonly Finding[];
  readonly est: Estimate;
  readonly measures: ReadonlyMap<MeasureId, number>;
  readonly confidence: number;
}

// ------------------------------------------------------------------ what was read

function readSentence(findings: readonly Finding[]): string {
  if (findings.length === 0) return WORDING.readNothing;
  const parts = findings.map((f) => `${f.label} (${WORDING.kinds[f.kind]})`);
  return fill(WORDING.readSummary, { findings: parts.join(", ") });
}

function isEmergency(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.modifier?.emergency);
}

function effectsOf(findings: readonly Finding[]) {
  return findings.flatMap((f) => f.effects);
}

function codeChecks(findings: readonly Finding[]): string[] {
  return uniqueStrings(effectsOf(findings).flatMap((e) => e.code ?? []));
}

function risks(findings: readonly Finding[]): string[] {
  return uniqueStrings(effectsOf(findings).flatMap((e) => e.risks ?? []));
}

function confirms(findings: readonly Finding[]): string[] {
  const out: string[] = [];
  for (const f of findings) {
    if (f.modifier?.confirm) out.push(f.modifier.confirm);
    for (const e of f.effects) out.push(...(e.confirm ?? []));
  }
  return out;
}

function safetyNotes(findings: readonly Finding[]): string[] {
  return findings.flatMap((f) => (f.modifier?.safety ? [f.modifier.safety] : []));
}

function effectItems(findings: readonly Finding[]): MaterialLine[] {
  const seen = new Set<string>();
  const out: MaterialLine[] = [];
  for (const e of effectsOf(findings)) {
    for (const item of e.items ?? []) {
      if (seen.has(item.item)) continue;
      seen.add(item.item);
      out.push(item);
    }
  }
  return out;
}

// ------------------------------------------------------------------ materials

interface Line {
  readonly text: string;
  readonly draft: DraftLine | null;
}

/** The name of a line on the draft quote: the table's `draft`, else the item up to its first comma without asides in brackets. */
function shortName(m: MaterialLine, itemText: string): string {
  const name =
    m.draft ??
    (itemText.indexOf(",") === -1 ? itemText : itemText.slice(0, itemText.indexOf(",")))
      .replace(/\s*\([^)]*\)/g, "")
      .trim();
  return name.length <= DRAFT_NAME_MAX ? name : name.slice(0, name.lastIndexOf(" ", DRAFT_NAME_MAX));
}

function materialLine(m: MaterialLine, multiplier: number, measures: ReadonlyMap<MeasureId, number>): Line {
  const size = m.sizedBy ? measures.get(m.sizedBy) : undefined;
  const itemText = size !== undefined && m.sizedItem ? fill(m.sizedItem, { n: fmtNum(size) }) : m.item;
  const length = m.lengthFrom ? measures.get("feet") : undefined;
  let qty = m.qty * multiplier;
  let qtyMax = m.qtyMax === undefined ? undefined : m.qtyMax * multiplier;
  if (length !== undefined) {
    qty = length * multiplier;
    qtyMax = undefined;
  }
  let amount: string;
  if (qtyMax === undefined) amount = `${fmtNum(qty)} ${m.unit}`;
  else if (qty === 0) amount = `if needed, up to ${fmtNum(qtyMax)} ${m.unit}`;
  else amount = `${fmtNum(qty)}-${fmtNum(qtyMax)} ${m.unit}`;
  const name =
    size !== undefined && m.sizedItem
      ? `${shortName(m, m.item)} (${fill(m.sizedItem.split(",")[1]?.trim() ?? "", { n: fmtNum(size) })})`
      : shortName(m, itemText);
  // The draft takes the upper figure (a quote is priced from it); "if needed" lines stay off it.
  const draftQty = qty === 0 ? 0 : (qtyMax ?? qty);
  return {
    text: `${itemText}: ${amount}`,
    draft: draftQty > 0 ? { name, qty: Math.round(draftQty * 100) / 100 } : null,
  };
}

function materials(ctx: Context): Line[] {
  const { rule } = ctx.primary;
  const multiplier = ctx.est.quantity ? Math.max(1, ctx.est.quantity.total) : 1;
  const own = rule.materials.map((m) => materialLine(m, m.perUnit ? multiplier : 1, ctx.measures));
  const seen = new Set(own.map((l) => l.text));
  const added = effectItems(ctx.findings)
    .map((m) => materialLine(m, m.perUnit ? multiplier : 1, ctx.measures))
    .filter((l) => !seen.has(l.text));
  return [...own, ...added];
}

const PERMIT_REQUIRED = /^(always |usually )?required/i;
const NO_DISPOSAL = /^(none|minimal|no )/i;

function draftLines(ctx: Context, lines: readonly Line[]): string[] {
  const { rule } = ctx.primary;
  const out: DraftLine[] = lines.flatMap((l) => (l.draft ? [l.draft] : []));
  out.push({
    name: fill(WORDING.draftLabour, { trade: LABOUR_NAMES[rule.trade] }),
    qty: ctx.est.labour.max,
  });
  if (!NO_DISPOSAL.test(rule.disposal)) out.push({ name: WORDING.draftDisposal, qty: 1 });
  if (PERMIT_REQUIRED.test(rule.permit)) out.push({ name: WORDING.draftPermit, qty: 1 });
  out.push({ name: WORDING.draftTrip, qty: 1 });
  if (isEmergency(ctx.findings)) out.push({ name: WORDING.draftEmergency, qty: 1 });
  return [...out.map(formatDraftLine), WORDING.draftNote];
}

// ------------------------------------------------------------------ shared sections

function depositText(percent: number): string {
  return percent > 0
    ? fill(WORDING.depositWith, { percent, terms: QUOTE_TERMS.depositTerms })
    : QUOTE_TERMS.depositNone;
}

function rateLines(findings: readonly Finding[]): string[] {
  if (isEmergency(findings)) return [WORDING.emergencyRate];
  if (findings.some((f) => f.modifier?.afterHours)) return [WORDING.afterHoursRate];
  return [];
}

function termsSection(depositPercent: number, findings: readonly Finding[]): GuidanceSection {
  return {
    heading: H.terms,
    items: [
      fill(WORDING.validity, { days: QUOTE_TERMS.validityDays, note: QUOTE_TERMS.validityNote }),
      fill(WORDING.deposit, { deposit: depositText(depositPercent) }),
      QUOTE_TERMS.warranty,
      ...rateLines(findings),
    ],
  };
}

function arrivalWindow(duration: { max: number }, findings: readonly Finding[]): string[] {
  const lines: string[] = [];
  if (isEmergency(findings)) lines.push(SCHEDULE_DEFAULTS.emergencyWindow);
  else if (findings.some((f) => f.modifier?.sameDay)) lines.push(SCHEDULE_DEFAULTS.sameDayWindow);
  else if (duration.max > SCHEDULE_DEFAULTS.workdayHours) lines.push(SCHEDULE_DEFAULTS.multiDayWindow);
  else if (duration.max >= 6) lines.push(SCHEDULE_DEFAULTS.firstJobWindow);
  else if (duration.max > 3) lines.push(SCHEDULE_DEFAULTS.morningWindow);
  else lines.push(SCHEDULE_DEFAULTS.standardWindow);
  if (findings.some((f) => f.modifier?.afterHours)) lines.push(SCHEDULE_DEFAULTS.afterHoursWindow);
  return lines;
}

function travelLines(supplierPickup: boolean, findings: readonly Finding[]): string[] {
  let total = SCHEDULE_DEFAULTS.baseTravelMinutes;
  const lines = [fill(WORDING.travelBuffer, { minutes: SCHEDULE_DEFAULTS.baseTravelMinutes })];
  if (supplierPickup) {
    total += SCHEDULE_DEFAULTS.supplierPickupMinutes;
    lines.push(fill(WORDING.supplierPickup, { minutes: SCHEDULE_DEFAULTS.supplierPickupMinutes }));
  }
  for (const { modifier, matched } of findings) {
    if (modifier && modifier.travelMinutes > 0) {
      total += modifier.travelMinutes;
      lines.push(
        fill(WORDING.extraTravel, {
          minutes: modifier.travelMinutes,
          matched: quoteList(matched),
          reason: modifier.reason,
        }),
      );
    }
  }
  lines.push(fill(WORDING.travelTotal, { minutes: total }));
  return lines;
}

function siteSections(findings: readonly Finding[], rule?: JobRule): GuidanceSection[] {
  return [
    { heading: H.code, items: uniqueStrings([...(rule?.code ?? []), ...codeChecks(findings)]) },
    { heading: H.risks, items: risks(findings) },
  ];
}

function alsoMentionedSection(ctx: Context): GuidanceSection[] {
  const s = ctx.second;
  if (!s) return [];
  const advice = fill(WORDING.alsoAdvice[ctx.mode], { duration: fmtHours(s.rule.durationHours) });
  return [
    {
      heading: H.also,
      items: [
        fill(WORDING.alsoLine, {
          name: s.rule.name,
          trade: TRADE_LABELS[s.rule.trade],
          matched: quoteList(s.matched),
          checks: s.rule.firstChecks
            .slice(0, 2)
            .map((c) => lowerFirst(c).replace(/\.$/, ""))
            .join("; "),
          advice,
        }),
      ],
    },
  ];
}

function recognisedFrom(ctx: Context): string {
  const { rule, matched } = ctx.primary;
  return fill(WORDING.recognised, {
    trade: TRADE_LABELS[rule.trade],
    name: rule.name,
    matched: quoteList(matched),
    sure: ctx.confidence >= WORDING.sureAt ? WORDING.sure : WORDING.fairlySure,
    percent: fmtNum(Math.round(ctx.confidence * 100)),
  });
}

/** What a technician checks first and what usually causes it: in every mode. */
function diagnosisSections(rule: JobRule): GuidanceSection[] {
  return [
    { heading: H.firstChecks, items: [...rule.firstChecks] },
    { heading: H.causes, items: [...rule.likelyCauses] },
  ];
}

// ------------------------------------------------------------------ a recognised job

function quoteGuidance(ctx: Context): Guidance {
  const { rule } = ctx.primary;
  const lines = materials(ctx);
  const labour = [
    fill(WORDING.labourLine, { labour: fmtRange(ctx.est.labour), crew: rule.crewSize, note: rule.crewNote }),
    ...ctx.est.steps,
    WORDING.flatRate,
  ];
  const extras = [
    fill(WORDING.disposal, { text: rule.disposal }),
    fill(WORDING.permits, { text: rule.permit }),
    QUOTE_TERMS.travel,
    ...(rule.supplierPickup ? [WORDING.supplierPickupQuote] : []),
    ...ctx.findings
      .filter((f) => f.modifier && f.modifier.travelMinutes > 0)
      .map((f) => fill(WORDING.extraTravelQuote, { matched: quoteList(f.matched), reason: f.modifier!.reason })),
  ];
  return {
    title: fill(WORDING.titles.quote, { name: rule.name }),
    summary: fill(WORDING.quoteSummary, {
      recognised: recognisedFrom(ctx),
      read: readSentence(ctx.findings),
      labour: fmtRange(ctx.est.labour),
      crew: rule.crewSize,
      deposit:
        rule.depositPercent > 0
          ? fill(WORDING.depositShort, { percent: rule.depositPercent })
          : WORDING.depositShortNone,
      days: QUOTE_TERMS.validityDays,
    }),
    sections: [
      ...diagnosisSections(rule),
      {
        heading: fill(H.materials, { trade: TRADE_LABELS[rule.trade].toLowerCase() }),
        items: lines.map((l) => l.text),
      },
      { heading: H.labour, items: labour },
      { heading: H.extras, items: extras },
      ...siteSections(ctx.findings, rule),
      {
        heading: H.options,
        items: [`Good: ${rule.options.good}`, `Better: ${rule.options.better}`, `Best: ${rule.options.best}`],
      },
      termsSection(rule.depositPercent, ctx.findings),
      { heading: H.confirmQuote, items: uniqueStrings([...rule.confirm, ...confirms(ctx.findings)]) },
      ...alsoMentionedSection(ctx),
      { heading: DRAFT_SECTION_HEADING, items: draftLines(ctx, lines) },
    ],
  };
}

function scheduleGuidance(ctx: Context): Guidance {
  const { rule } = ctx.primary;
  const days = workdays(ctx.est.duration);
  const durationItems = [
    fill(WORDING.estimate, { duration: fmtHours(ctx.est.duration), days: days ? `, ${days}` : "" }),
    ...ctx.est.steps,
    ...(rule.durationNote ? [fill(WORDING.durationNote, { note: rule.durationNote })] : []),
    WORDING.rounding,
  ];
  const window = arrivalWindow(ctx.est.duration, ctx.findings);
  const extraParts = effectItems(ctx.findings).map((m) => shortName(m, m.item));
  return {
    title: fill(WORDING.titles.schedule, { name: rule.name }),
    summary: fill(WORDING.scheduleSummary, {
      recognised: recognisedFrom(ctx),
      read: readSentence(ctx.findings),
      duration: fmtHours(ctx.est.duration),
      crew: rule.crewSize,
      window: window[0],
    }),
    sections: [
      ...diagnosisSections(rule),
      { heading: H.duration, items: durationItems },
      { heading: H.window, items: [...window, ...travelLines(rule.supplierPickup, ctx.findings)] },
      {
        heading: H.crew,
        items: [
          fill(WORDING.crewLine, { crew: rule.crewSize, note: rule.crewNote }),
          fill(WORDING.labourToPlan, { labour: fmtRange(ctx.est.labour) }),
        ],
      },
      { heading: H.van, items: uniqueStrings([...rule.vanParts, ...extraParts]) },
      ...siteSections(ctx.findings, rule),
      {
        heading: H.confirmVisit,
        items: uniqueStrings([...rule.confirm, ...confirms(ctx.findings), WORDING.homeAndParking]),
      },
      ...alsoMentionedSection(ctx),
    ],
  };
}

function generalGuidance(ctx: Context): Guidance {
  const { rule } = ctx.primary;
  const mainItems = rule.materials
    .slice(0, 3)
    .map((m) => shortName({ ...m, draft: undefined }, m.item))
    .join("; ");
  const window = arrivalWindow(ctx.est.duration, ctx.findings);
  return {
    title: fill(WORDING.titles.general, { name: rule.name }),
    summary: fill(WORDING.generalSummary, { recognised: recognisedFrom(ctx), read: readSentence(ctx.findings) }),
    sections: [
      ...diagnosisSections(rule),
      {
        heading: H.nextSteps,
        items: [
          fill(WORDING.nextConfirm, { confirm: rule.confirm.slice(0, 2).join(" ") }),
          fill(WORDING.nextPrice, {
            labour: fmtRange(ctx.est.labour),
            materials: mainItems,
            deposit: depositText(rule.depositPercent),
          }),
          fill(WORDING.permits, { text: rule.permit }),
          fill(WORDING.nextBook, { duration: fmtHours(ctx.est.duration), crew: rule.crewSize, window: window[0] }),
          fill(WORDING.nextVan, { parts: rule.vanParts.slice(0, 3).join("; ") }),
          WORDING.nextLeave,
        ],
      },
      { heading: H.safety, items: uniqueStrings([...rule.safety, ...safetyNotes(ctx.findings)]) },
      ...siteSections(ctx.findings, rule),
      { heading: H.after, items: [...rule.followUp] },
      { heading: H.askCustomer, items: uniqueStrings([...rule.confirm, ...confirms(ctx.findings)]) },
      ...alsoMentionedSection(ctx),
    ],
  };
}

export function recognisedGuidance(
  mode: AssistantMode,
  words: Words,
  primary: RuleMatch,
  second: RuleMatch | undefined,
  findings: readonly Finding[],
  confidence: number,
): Guidance {
  const rule: JobRule = primary.rule;
  const est = estimate(
    { labour: rule.labourHours, duration: rule.durationHours, what: lowerFirst(rule.name) },
    rule.quantity,
    words.tokens,
    findings,
  );
  const ctx: Context = { mode, primary, second, findings, est, measures: measuresOf(words), confidence };
  return mode === "quote" ? quoteGuidance(ctx) : mode === "schedule" ? scheduleGuidance(ctx) : generalGuidance(ctx);
}

// ------------------------------------------------------------------ no job kind recognised

/** What the engine understood when it is not sure of the kind: the trade and the fixtures named. */
function understood(choice: Choice): string {
  const F = WORDING.fallback;
  const fixtures = [...choice.named.keys()].flatMap((id) => FIXTURES.find((f) => f.id === id)?.words.slice(0, 1) ?? []);
  return fill(F.understood, {
    trade: choice.trade ? TRADE_LABELS[choice.trade].toLowerCase() : "",
    fixtures: fixtures.length > 0 ? fill(F.understoodFixtures, { fixtures: quoteList(fixtures) }) : "",
    percent: fmtNum(Math.round(choice.confidence * 100)),
  });
}

export function fallbackGuidance(
  mode: AssistantMode,
  words: Words,
  findings: readonly Finding[],
  choice: Choice,
): Guidance {
  const F = WORDING.fallback;
  const general = choice.trade ? TRADE_GENERAL.find((t) => t.trade === choice.trade) : undefined;
  const est = estimate(
    { labour: GENERIC_JOB.labourHours, duration: GENERIC_JOB.durationHours, what: F.baseWhat },
    undefined,
    words.tokens,
    findings,
  );
  const opening = words.empty
    ? F.openingEmpty
    : general
      ? fill(F.openingTrade, { understood: understood(choice), trade: TRADE_LABELS[general.trade].toLowerCase() })
      : F.opening;
  const read = readSentence(findings);
  const helpful: GuidanceSection = { heading: H.helpful, items: [...GENERIC_JOB.helpfulInfo] };
  const confirm = uniqueStrings([...GENERIC_JOB.confirm, ...confirms(findings)]);
  const window = arrivalWindow(est.duration, findings);
  const firstChecks: GuidanceSection[] = general ? [{ heading: H.firstChecks, items: [...general.firstChecks] }] : [];
  const safety = uniqueStrings([...(general?.safety ?? GENERIC_JOB.safety), ...safetyNotes(findings)]);
  const options: GuidanceSection = {
    heading: H.options,
    items: [
      `Good: ${GENERIC_JOB.options.good}`,
      `Better: ${GENERIC_JOB.options.better}`,
      `Best: ${GENERIC_JOB.options.best}`,
    ],
  };
  const titles = general
    ? {
        quote: fill(F.tradeQuoteTitle, { trade: TRADE_LABELS[general.trade] }),
        schedule: fill(F.tradeScheduleTitle, { trade: TRADE_LABELS[general.trade] }),
        general: fill(F.tradeGeneralTitle, { trade: TRADE_LABELS[general.trade] }),
      }
    : { quote: F.quoteTitle, schedule: F.scheduleTitle, general: F.generalTitle };

  if (mode === "quote") {
    return {
      title: titles.quote,
      summary: fill(F.summary, { opening, read, hint: F.hint }),
      sections: [
        ...firstChecks,
        {
          heading: H.lineItems,
          items: [
            ...(general?.quoteChecklist ?? []),
            ...GENERIC_JOB.quoteChecklist,
            ...(est.unchanged ? [] : est.steps.slice(1)),
          ],
        },
        { heading: H.safety, items: safety },
        ...siteSections(findings),
        options,
        termsSection(0, findings),
        { heading: H.confirmQuote, items: confirm },
        helpful,
      ],
    };
  }
  if (mode === "schedule") {
    return {
      title: titles.schedule,
      summary: fill(F.scheduleSummary, { opening, read, duration: fmtHoursAdj(est.duration), hint: F.hint }),
      sections: [
        ...firstChecks,
        {
          heading: H.duration,
          items: [fill(F.estimate, { duration: fmtHours(est.duration) }), ...est.steps, F.larger],
        },
        { heading: H.window, items: [...window, ...travelLines(false, findings)] },
        { heading: H.crew, items: [fill(F.crew, { crew: GENERIC_JOB.crewSize })] },
        { heading: H.van, items: [...GENERIC_JOB.vanParts] },
        ...siteSections(findings),
        { heading: H.confirmVisit, items: confirm },
        helpful,
      ],
    };
  }
  return {
    title: titles.general,
    summary: fill(F.summary, { opening, read, hint: F.hint }),
    sections: [
      ...firstChecks,
      {
        heading: H.nextSteps,
        items: F.steps.map((s) => fill(s, { duration: fmtHoursAdj(est.duration), window: window[0] })),
      },
      { heading: H.safety, items: safety },
      ...siteSections(findings),
      { heading: H.after, items: [...GENERIC_JOB.followUp] },
      helpful,
    ],
  };
}
