import { randomBytes } from "node:crypto";
import { pricedInputOf } from "~/services/documents/figures";
import { loadRateBook } from "~/services/taxes/taxes.server";
import { storedDiscount } from "~/services/taxes/rate-book";
import { type Tx } from "../../../db/index";
import { Customer, Quote, QuoteChangeRequest, QuoteDeposit, QuoteItem } from "../../../db/models";
import { notify } from "~/services/events/events.server";
import { recordHistory, type HistoryActor } from "~/services/history/history.server";
import { validationFailed } from "~/utils/app-error";
import { isUuid } from "~/utils/crypto.server";
import { formatMoney } from "~/utils/format";
import type { Portal } from "./access.server";
import type { RequestMeta } from "./actions.server";
import {
  choiceGroups,
  choiceTotals,
  depositDue,
  isChosen,
  tickable,
  type ChoiceLine,
  type QuoteChoice,
} from "./quote-choice";
import type { QuoteDecisionInput } from "./schemas";

// What the customer does with a sent quote beyond declining it: approve
// exactly one option and the optional items they ticked, paying the deposit when the quote
// asks one; or ask for changes. The caller (decideQuote) holds the quote's row lock and has
// checked that it is sent and unexpired, so two approvals at once are taken one after the
// other and the second finds the quote approved (409). Every check below comes before any
// write, and a refusal rolls the portal's transaction back: a 422 changes nothing.

const notOnQuote = (field: "option" | "optionalItems", message: string) => validationFailed({ [field]: [message] });

/** The portal acts as the customer: their name on the history line. */
async function customerActor(portal: Portal, t: Tx): Promise<HistoryActor> {
  const customer = await Customer.findOne({
    where: { tenantId: portal.tenantId, id: portal.customerId },
    attributes: ["name"],
    transaction: t,
  });
  return { tenantId: portal.tenantId, source: "portal", name: customer?.name ?? null };
}

/** Checks the posted option and item ids against the quote's lines: the choice, or a 422 naming the field. */
export function checkChoice(
  lines: readonly ChoiceLine[],
  option: string | null,
  optionalItems: readonly string[],
): QuoteChoice {
  const groups = choiceGroups(lines);
  if (groups.length && !option) throw notOnQuote("option", `Choose one of the options: ${groups.join(", ")}.`);
  if (option && !groups.includes(option)) {
    throw notOnQuote(
      "option",
      groups.length
        ? `That option is not on this quote. Choose ${groups.join(", ")}.`
        : "This quote has no options to choose from.",
    );
  }
  const byId = new Map(lines.map((l) => [l.id, l]));
  for (const id of optionalItems) {
    const line = isUuid(id) ? byId.get(id) : undefined;
    if (!line || !line.optional)
      throw notOnQuote(
        "optionalItems",
        "One of the ticked items is not an optional item of this quote. Reload the page and try again.",
      );
    if (!tickable(line, option))
      throw notOnQuote(
        "optionalItems",
        `One of the ticked items belongs to option “${line.option}”. Choose that option or untick the item.`,
      );
  }
  return { option, optionalItems: [...optionalItems] };
}

const sandboxReference = () => `SBX-${randomBytes(6).toString("hex").toUpperCase()}`;

/**
 * Approval: the typed name, time, IP and user agent; `selected` set true or false on every
 * line of the quote; the chosen option; the quote's totals become the choice's; and, when the
 * quote asks a deposit, the sandbox deposit paid (quote_deposits, one per quote), all in the
 * portal's transaction.
 */
export async function approveQuote(portal: Portal, t: Tx, input: QuoteDecisionInput, meta: RequestMeta): Promise<void> {
  const { tenantId } = portal;
  const quote = (await Quote.findOne({ where: { tenantId, id: input.quoteId }, transaction: t }))!;
  const items = await QuoteItem.findAll({
    where: { tenantId, quoteId: quote.id },
    order: [["position", "ASC"]],
    transaction: t,
  });
  const lines: ChoiceLine[] = items.map((l) => ({
    id: l.id,
    option: l.optionName,
    optional: l.optional,
    lineTotalCents: Number(l.lineTotalCents),
    taxCents: Number(l.taxCents),
    priced: pricedInputOf(l),
  }));
  const choice = checkChoice(lines, input.option, input.optionalItems);
  const pricing = {
    book: await loadRateBook(t, tenantId),
    discount: storedDiscount(quote.discountType, quote.discountPercent, quote.discountAmountCents),
    exemptReason: quote.taxExemptReason,
  };
  const totals = choiceTotals(lines, choice, pricing);
  // Without JavaScript the sentence's total cannot follow the ticks: an approval of another
  // total than the one it stated is sent back with the right one, to be ticked again.
  if (input.acceptedTotalCents !== null && input.acceptedTotalCents !== totals.total) {
    throw validationFailed({
      acceptTerms: [
        `With your choice the total is ${formatMoney(totals.total, quote.currency.trim())}, not ${formatMoney(input.acceptedTotalCents, quote.currency.trim())}. Check it and tick the box again to accept it.`,
      ],
    });
  }
  const chosenIds = lines.filter((l) => isChosen(l, choice)).map((l) => l.id);

  await QuoteItem.update({ selected: false }, { where: { tenantId, quoteId: quote.id }, transaction: t });
  if (chosenIds.length)
    await QuoteItem.update(
      { selected: true },
      { where: { tenantId, quoteId: quote.id, id: chosenIds }, transaction: t },
    );
  quote.set({
    status: "approved",
    approvedAt: new Date(),
    approvedName: input.signatureName,
    approvedIp: meta.ip,
    approvedUserAgent: meta.userAgent?.slice(0, 500) ?? null,
    chosenOption: choice.option,
    subtotalCents: totals.subtotal,
    discountCents: totals.discount,
    taxCents: totals.tax,
    totalCents: totals.total,
  });
  await quote.save({ transaction: t });

  const currency = quote.currency.trim();
  const deposit = depositDue({ percent: quote.depositPercent, cents: quote.depositCents }, totals.total);
  if (deposit > 0) {
    await QuoteDeposit.create(
      {
        tenantId,
        quoteId: quote.id,
        amountCents: deposit,
        currency,
        method: "sandbox",
        reference: sandboxReference(),
        payerIp: meta.ip,
        paidAt: new Date(),
      },
      { transaction: t },
    );
  }
  const picked = [
    choice.option ? `option “${choice.option}”` : null,
    ...items
      .filter((l) => l.optional && choice.optionalItems.includes(l.id))
      .map((l) => `“${l.description.slice(0, 60)}”`),
  ].filter(Boolean);
  const actor = await customerActor(portal, t);
  await recordHistory(t, actor, {
    recordType: "quote",
    recordId: quote.id,
    action: "approved",
    summary: `Approved in the portal for ${formatMoney(totals.total, currency)}${picked.length ? ` (${picked.join(", ")})` : ""}${deposit > 0 ? `, deposit of ${formatMoney(deposit, currency)} paid (sandbox)` : ""}`,
    details: {
      option: choice.option,
      optionalItems: choice.optionalItems,
      totalCents: totals.total,
      depositCents: deposit || null,
    },
  });
  await notify(t, tenantId, { type: "quote.approved", id: quote.id });
}

/** A request for changes to a sent quote: kept with the quote, in its history, and on the dashboard. The quote stays sent. */
export async function requestQuoteChanges(portal: Portal, t: Tx, quoteId: string, message: string): Promise<void> {
  await QuoteChangeRequest.create(
    { tenantId: portal.tenantId, quoteId, customerId: portal.customerId, message },
    { transaction: t },
  );
  const actor = await customerActor(portal, t);
  await recordHistory(t, actor, {
    recordType: "quote",
    recordId: quoteId,
    action: "changes_requested",
    summary: `Changes requested in the portal: “${message.length > 400 ? `${message.slice(0, 400)}…` : message}”`,
    details: { message },
  });
  await notify(t, portal.tenantId, { type: "quote.change_requested", id: quoteId });
}

/** A decline's history line. */
export async function recordDecline(portal: Portal, t: Tx, quoteId: string, reason: string): Promise<void> {
  await recordHistory(t, await customerActor(portal, t), {
    recordType: "quote",
    recordId: quoteId,
    action: "declined",
    summary: `Declined in the portal${reason ? `: “${reason.slice(0, 300)}”` : ""}`,
  });
}
