import { Money } from "./records";

type Item = {
  id: string;
  description: string;
  quantity: string;
  unit_price_cents: number;
  tax_rate: string;
  line_total_cents: number;
  tax_cents: number;
};

/** A quote's or invoice's line items with subtotal, tax and total (and any rows after, like paid and balance). */
export function LineItemsTable({
  items,
  currency,
  subtotal,
  tax,
  total,
  after,
  notes,
}: {
  items: Item[];
  currency: string;
  subtotal: number;
  tax: number;
  total: number;
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
              </td>
              <td className="num" data-label="Qty">
                {i.quantity}
              </td>
              <td className="num" data-label="Unit price">
                <Money cents={i.unit_price_cents} currency={currency} />
              </td>
              <td className="num" data-label="Tax">
                {Number(i.tax_rate) ? `${i.tax_rate}%` : "—"}
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
              <Money cents={subtotal} currency={currency} />
            </td>
          </tr>
          <tr>
            <th colSpan={4} className="num">
              Tax
            </th>
            <td className="num">
              <Money cents={tax} currency={currency} />
            </td>
          </tr>
          <tr className="total-row">
            <th colSpan={4} className="num">
              Total ({currency})
            </th>
            <td className="num">
              <Money cents={total} currency={currency} />
            </td>
          </tr>
          {after}
        </tfoot>
      </table>
    </div>
  );
}
