import { useState } from "react";
import type { Summary } from "~/services/taxes/rate-book";
import { useSearchParams } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { FieldErrors } from "~/components/forms";
import {
  choiceGroups,
  choiceTotals,
  summaryRows,
  depositDue,
  initialChoice,
  isChosen,
  tickable,
  type QuoteChoice,
} from "~/services/portal/quote-choice";
import type { PortalQuote, PortalQuoteLine } from "~/services/portal/types";
import { formatMoney } from "~/utils/format";
import { LineItems, Totals } from "./parts";

// The customer's pick on a sent quote: one option (radio), the optional
// items (checkboxes), and the total that follows. Without JavaScript "Update total" is a GET of
// the portal page carrying the choice (the page renders it back, kept); with JavaScript the
// total follows every click and the button is not shown.

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === "string" && v ? [v] : []);

/** The choice the card starts from: a refused form's, else the "Update total" query's, else the quote's default. */
export function useQuoteChoice(q: PortalQuote, posted: Record<string, unknown> | null) {
  const [params] = useSearchParams();
  const fromQuery =
    params.get("quoteId") === q.id
      ? {
          option: params.get("option"),
          optionalItems: params.getAll("optionalItems"),
          signatureName: params.get("signatureName"),
        }
      : null;
  const wanted = posted
    ? { option: posted.option as string | null, optionalItems: asList(posted.optionalItems) }
    : fromQuery;
  const [choice, setChoice] = useState<QuoteChoice>(() => initialChoice(q.items, wanted ?? undefined));
  return { choice, setChoice, keptName: fromQuery?.signatureName ?? undefined };
}

const hasChoices = (items: readonly PortalQuoteLine[]) => items.some((l) => l.option || l.optional);

/** What the choice costs, and the deposit due on approval. */
export function choiceMoney(q: PortalQuote, choice: QuoteChoice) {
  const totals = hasChoices(q.items)
    ? choiceTotals(q.items, choice, q.pricing)
    : { subtotal: q.summary.subtotal, tax: q.summary.tax, total: q.summary.total, summary: q.summary };
  return { totals, deposit: depositDue({ percent: q.depositPercent, cents: q.depositCents }, totals.total) };
}

type Errors = { option?: string[] | null; optionalItems?: string[] | null };

/** The lines and the choice inside the approval form (options as radios, optional items as checkboxes), and the totals. */
export function QuoteChoiceFields({
  q,
  token,
  choice,
  setChoice,
  errors,
}: {
  q: PortalQuote;
  token: string;
  choice: QuoteChoice;
  setChoice: (c: QuoteChoice) => void;
  errors: Errors;
}) {
  const hydrated = useHydrated();
  const { totals, deposit } = choiceMoney(q, choice);
  const money = (c: number) => formatMoney(c, q.currency);
  if (!hasChoices(q.items)) return <QuoteTotals q={q} totals={totals} deposit={deposit} />;
  const groups = choiceGroups(q.items);
  const always = q.items.filter((l) => !l.option && !l.optional);
  const optional = q.items.filter((l) => l.optional);
  const pick = (option: string) =>
    setChoice({
      option,
      optionalItems: choice.optionalItems.filter((id) => {
        const l = q.items.find((i) => i.id === id);
        return l ? tickable(l, option) : false;
      }),
    });
  const tick = (id: string, on: boolean) =>
    setChoice({
      ...choice,
      optionalItems: on ? [...choice.optionalItems, id] : choice.optionalItems.filter((x) => x !== id),
    });
  return (
    <div className="portal-choice stack">
      {always.length ? (
        <div>
          <h4 className="portal-choice-title">Included</h4>
          <LineItems items={always} currency={q.currency} />
        </div>
      ) : null}
      {groups.length ? (
        <fieldset
          className={`portal-options${errors.option?.length ? " field-invalid" : ""}`}
          aria-describedby={errors.option?.length ? `option-${q.id}-error` : undefined}
        >
          <legend>Choose one option</legend>
          {groups.map((g) => {
            const lines = q.items.filter((l) => l.option === g && !l.optional);
            const price = lines.reduce((sum, l) => sum + Number(l.lineTotalCents) + Number(l.taxCents), 0);
            const id = `option-${q.id}-${groups.indexOf(g)}`;
            return (
              <div key={g} className={`portal-option${choice.option === g ? " portal-option-chosen" : ""}`}>
                <label className="checkbox portal-checkbox" htmlFor={id}>
                  <input
                    type="radio"
                    id={id}
                    name="option"
                    value={g}
                    checked={choice.option === g}
                    onChange={() => pick(g)}
                  />
                  <span>
                    <strong>{g}</strong> <span className="portal-amount">{money(price)}</span>
                    <span className="portal-option-lines">{lines.map((l) => l.description).join(" · ")}</span>
                  </span>
                </label>
              </div>
            );
          })}
          <FieldErrors id={`option-${q.id}-error`} errors={errors.option} />
        </fieldset>
      ) : null}
      {optional.length ? (
        <fieldset
          className={`portal-optional${errors.optionalItems?.length ? " field-invalid" : ""}`}
          aria-describedby={errors.optionalItems?.length ? `optional-${q.id}-error` : undefined}
        >
          <legend>Optional items</legend>
          {optional.map((l) => {
            const id = `optional-${q.id}-${l.id}`;
            const off = hydrated && !tickable(l, choice.option);
            return (
              <label key={l.id} className="checkbox portal-checkbox" htmlFor={id}>
                <input
                  type="checkbox"
                  id={id}
                  name="optionalItems"
                  value={l.id}
                  checked={choice.optionalItems.includes(l.id)}
                  disabled={off}
                  onChange={(e) => tick(l.id, e.currentTarget.checked)}
                />
                <span>
                  {l.description}{" "}
                  <span className="portal-amount">+{money(Number(l.lineTotalCents) + Number(l.taxCents))}</span>
                  {l.option ? <span className="portal-option-lines">With option “{l.option}” only</span> : null}
                </span>
              </label>
            );
          })}
          <FieldErrors id={`optional-${q.id}-error`} errors={errors.optionalItems} />
        </fieldset>
      ) : null}
      {hydrated ? null : (
        <button
          type="submit"
          className="btn btn-secondary btn-block"
          formMethod="get"
          formAction={`/portal/${token}#quote-${q.id}`}
          formNoValidate
        >
          Update total
        </button>
      )}
      <QuoteTotals q={q} totals={totals} deposit={deposit} live />
    </div>
  );
}

function QuoteTotals({
  q,
  totals,
  deposit,
  live,
}: {
  q: PortalQuote;
  totals: { subtotal: number; tax: number; total: number; summary?: Summary };
  deposit: number;
  live?: boolean;
}) {
  return (
    <div aria-live={live ? "polite" : undefined} className="portal-choice-totals" data-testid={`quote-total-${q.id}`}>
      <Totals
        currency={q.currency}
        rows={[
          ...(totals.summary
            ? summaryRows(totals.summary)
            : ([
                ["Subtotal", totals.subtotal],
                ["Tax", totals.tax],
              ] as Array<[string, number]>)),
          ["Total", totals.total, true],
          ...(deposit > 0 ? ([["Deposit due on approval", deposit]] as Array<[string, number]>) : []),
        ]}
      />
    </div>
  );
}

/** An approved quote's record of the choice: the lines bought, the option, the deposit paid. */
export function ApprovedChoice({ q }: { q: PortalQuote }) {
  const recorded = q.items.some((l) => l.selected !== null);
  const lines = recorded ? q.items.filter((l) => l.selected) : q.items;
  const extras = q.items.filter((l) => l.optional && l.selected);
  return (
    <>
      <LineItems items={lines} currency={q.currency} />
      <Totals currency={q.currency} rows={[...summaryRows(q.summary), ["Total", q.summary.total, true]]} />
      {q.chosenOption || extras.length ? (
        <p className="portal-choice-record">
          Your choice:{" "}
          {q.chosenOption ? (
            <>
              option <strong>{q.chosenOption}</strong>
            </>
          ) : null}
          {q.chosenOption && extras.length ? ", with " : extras.length ? "with " : ""}
          {extras.map((l) => l.description).join(", ")}.
        </p>
      ) : null}
      {q.depositPaid ? (
        <p className="portal-choice-record">
          Deposit paid: <strong>{formatMoney(q.depositPaid.amountCents, q.currency)}</strong> (sandbox, reference{" "}
          {q.depositPaid.reference}). No money moved. It counts toward the invoice for this work.
        </p>
      ) : null}
    </>
  );
}

export { isChosen };
