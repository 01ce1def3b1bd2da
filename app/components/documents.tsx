import { Fragment } from "react";
import type { Summary } from "~/services/taxes/rate-book";
import { Money } from "./records";

type Item = {
  id: string;
  description: string;
  quantity: string;
  unit_price_cents: number;
  tax_rate: string;
  tax_label?: string | null;
  discount_cents?: number;
  discount_type?: string | null;
  discount_percent?: string | null;
  line_total_cents: number;
  tax_cents: number;
};

const pct = (s: string) => s.replace(/\.?0+$/, "");

/** A quote's or invoice's line items with subtotal, tax and total (and any rows after, like paid and balance). */
export function LineItemsTable({
  items,
  currency,
  summary,
  after,
  notes,
}: {
  items: Item[];
  currency: string;
  /** Subtotal, discount, tax per named rate (or the exemption) and total (app/services/documents/figures.ts). */
  summary: Summary;
  after?: React.ReactNode;
  notes?: Record<string, string | null>;
}) {
  return (
    // Focusable and named: on a phone the table scrolls sideways, and a keyboard must reach it (axe: scrollable-region-focusable).
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Line items table">
      <table className="line-items">
        <thead>
          <tr>
            <th>Description</th>
            <th className="num">Qty</th>
            <th className="num">Unit price</th>
            <th className="num">Tax</th>
            <th className="num">Amount</th>
          </tr>
        </thead>
        <tbody>
          {items.map((i) => (
            <tr key={i.id}>
              <td data-label="Description">
                {i.description}
                {notes?.[i.id] ? <div className="muted small">{notes[i.id]}</div> : null}
                {i.discount_cents ? (
                  <div className="muted small">
                    Discount{i.discount_type === "percent" && i.discount_percent ? ` ${pct(i.discount_percent)}%` : ""}:
                    −
                    <Money cents={i.discount_cents} currency={currency} />
                  </div>
                ) : null}
              </td>
              <td className="num" data-label="Qty">
                {i.quantity}
              </td>
              <td className="num" data-label="Unit price">
                <Money cents={i.unit_price_cents} currency={currency} />
              </td>
              <td className="num" data-label="Tax">
                {i.tax_label ?? (Number(i.tax_rate) ? `${i.tax_rate}%` : "—")}
              </td>
              <td className="num" data-label="Amount">
                <Money cents={i.line_total_cents} currency={currency} />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th colSpan={4} className="num">
              Subtotal
            </th>
            <td className="num">
              <Money cents={summary.subtotal} currency={currency} />
            </td>
          </tr>
          {summary.discount ? (
            <tr>
              <th colSpan={4} className="num">
                {summary.discountLabel}
              </th>
              <td className="num">
                −<Money cents={summary.discount} currency={currency} />
              </td>
            </tr>
          ) : null}
          {summary.exemptReason ? (
            <tr>
              <th colSpan={4} className="num">
                Tax exempt: {summary.exemptReason}
              </th>
              <td className="num">
                <Money cents={0} currency={currency} />
              </td>
            </tr>
          ) : summary.taxes.length ? (
            summary.taxes.map((t) => (
              <Fragment key={t.label}>
                <tr>
                  <th colSpan={4} className="num">
                    {t.label}
                  </th>
                  <td className="num">
                    <Money cents={t.cents} currency={currency} />
                  </td>
                </tr>
              </Fragment>
            ))
          ) : (
            <tr>
              <th colSpan={4} className="num">
                Tax
              </th>
              <td className="num">
                <Money cents={0} currency={currency} />
              </td>
            </tr>
          )}
          <tr className="total-row">
            <th colSpan={4} className="num">
              Total ({currency})
            </th>
            <td className="num">
              <Money cents={summary.total} currency={currency} />
            </td>
          </tr>
          {after}
        </tfoot>
      </table>
    </div>
  );
}
