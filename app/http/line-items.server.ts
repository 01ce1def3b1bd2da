/** conform's reserved field for list intents (add / remove a row). */
const INTENT = "__intent__";
import { PICK_BUTTON, PICK_SELECT } from "~/services/documents/line-items";
import { quoteFormSchema } from "~/services/quotes/quote-form";
import { invoiceFormSchema } from "~/services/invoices/schemas";

/**
 * "Add item" from the price book without JavaScript: the button posts the whole form with the
 * chosen item's id; this turns it into conform's own insert intent (a row with the item's
 * name, price and tax rate), so the form comes back with one more row and nothing typed lost.
 * With JavaScript the page inserts the row itself and never posts.
 */
export function applyPriceBookPick(
  form: FormData,
  priceBook: ReadonlyArray<{ id: string; name: string; unitPrice: string; taxRate: string; taxRateId?: string }>,
  listName = "items",
) {
  if (!form.has(PICK_BUTTON)) return;
  form.delete(PICK_BUTTON);
  const item = priceBook.find((p) => p.id === form.get(PICK_SELECT));
  form.delete(PICK_SELECT);
  form.set(
    INTENT,
    item
      ? JSON.stringify({
          type: "insert",
          payload: {
            name: listName,
            defaultValue: {
              description: item.name,
              quantity: "1",
              unitPrice: item.unitPrice,
              taxRate: item.taxRate,
              taxRateId: item.taxRateId ?? "",
              optional: "",
              option: "",
            },
          },
        })
      : // Nothing chosen: re-render the form as it is.
        JSON.stringify({ type: "update", payload: { name: PICK_SELECT } }),
  );
}

/** A posted conform intent that is not valid JSON is refused as a bad form, not a crash. */
export function dropBadIntent(form: FormData) {
  const intent = form.get(INTENT);
  if (typeof intent !== "string") return;
  try {
    const parsed = JSON.parse(intent);
    if (typeof parsed?.type !== "string" || parsed.payload === undefined) form.delete(INTENT);
  } catch {
    form.delete(INTENT);
  }
}

type PriceBook = Parameters<typeof applyPriceBookPick>[1];

/**
 * The quote form's schema for `formAction`, after the price-book pick and a bad intent are dealt
 * with. The price book may be given as a loader: it is read only when the form picks from it.
 */
export function quoteFormWithIntents(priceBook: PriceBook | (() => Promise<PriceBook>)) {
  return async (form: FormData) => {
    dropBadIntent(form);
    if (form.has(PICK_BUTTON))
      applyPriceBookPick(form, typeof priceBook === "function" ? await priceBook() : priceBook);
    return quoteFormSchema;
  };
}

/** The invoice form's schema for `formAction`, the same way as the quote builder's. */
export function invoiceFormWithIntents(priceBook: Parameters<typeof applyPriceBookPick>[1]) {
  return (form: FormData) => {
    dropBadIntent(form);
    applyPriceBookPick(form, priceBook);
    return invoiceFormSchema;
  };
}
