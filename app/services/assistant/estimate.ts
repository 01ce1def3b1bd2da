// Hours: the rule's base, plus counted extra units, times the modifiers' factors (capped),
// plus added hours from modifiers and their effects, rounded to the half hour. Every step is
// returned as a sentence so the answer shows its reasoning.

import { SCHEDULE_DEFAULTS, WORDING, type HoursRange, type QuantityRule } from "./rules";
import { countQuantity, type Finding, type QuantityCount } from "./read";
import { fill, fmtHours, fmtNum, fmtRange, quoteList, roundHalf } from "./format";

export interface Estimate {
  readonly labour: HoursRange;
  readonly duration: HoursRange;
  readonly steps: readonly string[];
  readonly quantity: QuantityCount | undefined;
  /** True when nothing changed the base hours. */
  readonly unchanged: boolean;
}

export function estimate(
  base: { labour: HoursRange; duration: HoursRange; what: string },
  quantityRule: QuantityRule | undefined,
  tokens: readonly string[],
  findings: readonly Finding[],
): Estimate {
  const steps: string[] = [
    fill(WORDING.base, { duration: fmtHours(base.duration), labour: fmtRange(base.labour), what: base.what }),
  ];
  let extra = 0;
  const quantity = quantityRule ? countQuantity(tokens, quantityRule) : undefined;
  if (quantityRule && quantity) {
    const label = quantity.total === 1 ? quantityRule.label : quantityRule.labelPlural;
    const extraUnits = Math.max(0, quantity.total - quantityRule.included);
    const capped = quantity.capped ? fill(WORDING.quantityCapped, { max: quantityRule.max }) : "";
    if (extraUnits > 0) {
      extra = extraUnits * quantityRule.hoursEach;
      steps.push(
        fill(WORDING.quantityExtra, {
          count: quantity.total,
          label,
          capped,
          included: quantityRule.included,
          extra: extraUnits,
          each: fmtNum(quantityRule.hoursEach),
          hours: fmtNum(extra),
        }),
      );
    } else {
      steps.push(fill(WORDING.quantityCovered, { count: quantity.total, label }));
    }
  }

  let factor = 1;
  let factors = 0;
  let addHours = 0;
  for (const { modifier, matched, effects } of findings) {
    if (modifier && modifier.factor !== 1) {
      factor *= modifier.factor;
      factors++;
      steps.push(
        fill(WORDING.factorStep, {
          percent: fmtNum(Math.round((modifier.factor - 1) * 100)),
          matched: quoteList(matched),
          reason: modifier.reason,
        }),
      );
    }
    if (modifier && modifier.addHours !== 0) {
      addHours += modifier.addHours;
      steps.push(
        fill(WORDING.hoursStep, {
          hours: fmtNum(modifier.addHours),
          matched: quoteList(matched),
          reason: modifier.reason,
        }),
      );
    }
    for (const effect of effects) {
      if (!effect.addHours) continue;
      addHours += effect.addHours;
      steps.push(
        fill(WORDING.effectHoursStep, {
          hours: fmtNum(effect.addHours),
          label: effect.label,
          reason: effect.hoursReason ?? "",
        }),
      );
    }
  }
  if (factor > SCHEDULE_DEFAULTS.maxFactor) {
    steps.push(fill(WORDING.factorCapped, { factor: fmtNum(factor), max: fmtNum(SCHEDULE_DEFAULTS.maxFactor) }));
    factor = SCHEDULE_DEFAULTS.maxFactor;
  } else if (factors > 1) {
    steps.push(fill(WORDING.factorCombined, { factor: fmtNum(factor) }));
  }

  const scale = (r: HoursRange): HoursRange => {
    const min = roundHalf((r.min + extra) * factor + addHours);
    const max = Math.max(min, roundHalf((r.max + extra) * factor + addHours));
    return { min, max };
  };
  const duration = scale(base.duration);
  const labour = scale(base.labour);
  // Nothing changed the base: say so, naming what was read if anything was (the summary lists
  // it, so "no words found" would contradict it).
  const unchanged = steps.length === 1;
  if (unchanged) {
    steps.push(
      findings.length === 0
        ? WORDING.noChange
        : fill(WORDING.noChangeRead, { labels: findings.map((f) => f.label).join(", ") }),
    );
  }
  return { labour, duration, steps, quantity, unchanged };
}

export function workdays(duration: HoursRange): string | undefined {
  const day = SCHEDULE_DEFAULTS.workdayHours;
  if (duration.max <= day) return undefined;
  const min = Math.max(1, Math.ceil(duration.min / day));
  const max = Math.max(min, Math.ceil(duration.max / day));
  return fill(WORDING.workdays, { count: min === max ? String(min) : `${min}-${max}`, day });
}
