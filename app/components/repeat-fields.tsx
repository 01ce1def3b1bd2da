import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { MONTHLY_BY, WEEKDAYS } from "~/services/visits/repeat";
import { FieldErrors } from "./forms";

// The job form's repeat section (docs/decisions/315-recurring-visits.md): plain controls that
// post with JavaScript off; days of the week as checkboxes a phone can tap.

type Meta = FieldMetadata<string, Record<string, string>, string[]>;
type Fields = Record<"repeat" | "interval" | "weekdays" | "monthlyBy" | "endsAfter" | "endsOn", Meta>;

const REPEAT_LABELS = {
  none: "Does not repeat",
  daily: "Daily",
  weekly: "Weekly",
  monthly: "Monthly",
  yearly: "Yearly",
} as const;

const MONTHLY_LABELS: Record<(typeof MONTHLY_BY)[number], string> = {
  day_of_month: "On the same day of the month (e.g. the 13th)",
  weekday_of_month: "On the same weekday of the month (e.g. the 2nd Tuesday)",
};

/** What "every N" counts, by repeat. */
const UNITS = { none: "days, weeks…", daily: "days", weekly: "weeks", monthly: "months", yearly: "years" };

const ORDINALS = ["1st", "2nd", "3rd", "4th", "5th"];
const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** "the 13th" / "the 2nd Tuesday" for the first visit's date, when there is one. */
function monthlyExamples(start: string): Record<(typeof MONTHLY_BY)[number], string> | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(start);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  const day = d.getUTCDate();
  const suffix =
    day % 10 === 1 && day !== 11
      ? "st"
      : day % 10 === 2 && day !== 12
        ? "nd"
        : day % 10 === 3 && day !== 13
          ? "rd"
          : "th";
  return {
    day_of_month: `On day ${day} (the ${day}${suffix})`,
    weekday_of_month: `On the ${ORDINALS[Math.ceil(day / 7) - 1]} ${DAY_NAMES[d.getUTCDay()]}`,
  };
}

const valuesOf = (meta: Meta): string[] => {
  const v = meta.value as unknown;
  return Array.isArray(v) ? v.map(String) : typeof v === "string" ? [v] : [];
};

export function RepeatFields({
  fields,
  start,
  series,
  keep,
}: {
  fields: Record<string, Meta>;
  start: string;
  series?: string | null;
  /** On a visit's form: the label of "no change" (the series' rule stays), instead of "Does not repeat". */
  keep?: string;
}) {
  const f = fields as Fields;
  if (series)
    return (
      <fieldset className="repeat-fields">
        <legend>Repeat</legend>
        <p className="repeat-summary">
          Repeats {series}. Change a visit, or it and the visits after it, from the visit&rsquo;s page (Edit visit).
        </p>
      </fieldset>
    );
  const repeat = String(f.repeat.value ?? "none");
  const examples = monthlyExamples(start);
  const monthly = String(f.monthlyBy.value ?? "day_of_month");
  const weekdays = valuesOf(f.weekdays);
  return (
    <fieldset className="repeat-fields">
      <legend>Repeat</legend>
      <p className="field-hint">
        {keep
          ? "With “this and following visits”, a new rule starts at the start above: each visit lasts as long as this one and goes to the crew above; visits already under way, done or past stay."
          : "The start above is the first visit. Each visit lasts as long as the first (start to end) and goes to its technician."}{" "}
        Times stay at the same hour on the clock through daylight saving changes.
      </p>
      <div className="form-row">
        <div className="field grow">
          <label htmlFor={f.repeat.id}>Repeats</label>
          <select {...getSelectProps(f.repeat)}>
            {Object.entries(REPEAT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {value === "none" && keep ? keep : label}
              </option>
            ))}
          </select>
          <FieldErrors id={f.repeat.errorId} errors={f.repeat.errors} />
        </div>
        <div className="field repeat-interval">
          <label htmlFor={f.interval.id}>Every ({UNITS[repeat as keyof typeof UNITS] ?? UNITS.none})</label>
          <input
            {...getInputProps(f.interval, { type: "number" })}
            min={1}
            max={99}
            inputMode="numeric"
            placeholder="1"
          />
          <FieldErrors id={f.interval.errorId} errors={f.interval.errors} />
        </div>
      </div>
      <fieldset className="repeat-choices" hidden={repeat !== "none" && repeat !== "weekly" ? true : undefined}>
        <legend>On (weekly)</legend>
        <div className="weekday-list">
          {WEEKDAYS.map((day) => (
            <label key={day} className="checkbox weekday">
              <input type="checkbox" name={f.weekdays.name} value={day} defaultChecked={weekdays.includes(day)} />
              {day[0]!.toUpperCase() + day.slice(1)}
            </label>
          ))}
        </div>
        <p className="field-hint">None ticked: the first visit&rsquo;s day of the week.</p>
        <FieldErrors id={f.weekdays.errorId} errors={f.weekdays.errors} />
      </fieldset>
      <fieldset className="repeat-choices" hidden={repeat === "daily" || repeat === "weekly" ? true : undefined}>
        <legend>Which day (monthly and yearly)</legend>
        {MONTHLY_BY.map((by) => (
          <label key={by} className="checkbox">
            <input type="radio" name={f.monthlyBy.name} value={by} defaultChecked={monthly === by} />
            {examples ? examples[by] : MONTHLY_LABELS[by]}
          </label>
        ))}
        <p className="field-hint">Taken from the first visit&rsquo;s date. A month without that day is skipped.</p>
        <FieldErrors id={f.monthlyBy.errorId} errors={f.monthlyBy.errors} />
      </fieldset>
      <div className="form-row">
        <div className="field grow">
          <label htmlFor={f.endsAfter.id}>Ends after (visits)</label>
          <input {...getInputProps(f.endsAfter, { type: "number" })} min={1} max={1000} inputMode="numeric" />
          <FieldErrors id={f.endsAfter.errorId} errors={f.endsAfter.errors} />
        </div>
        <div className="field grow">
          <label htmlFor={f.endsOn.id}>Or ends on</label>
          <input {...getInputProps(f.endsOn, { type: "date" })} />
          <FieldErrors id={f.endsOn.errorId} errors={f.endsOn.errors} />
        </div>
      </div>
      <p className="field-hint">
        Leave both empty for no end: visits are booked 12 months ahead and kept 12 months ahead.
      </p>
    </fieldset>
  );
}
