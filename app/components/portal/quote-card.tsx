import { getFormProps } from "@conform-to/react";
import { summaryRows } from "~/services/portal/quote-choice";
import { Field, FieldErrors } from "~/components/forms";
import { quoteDecisionSchema } from "~/services/portal/schemas";
import type { PortalQuote } from "~/services/portal/types";
import { formatDate, formatDateTime, formatMoney } from "~/utils/format";
import { allErrors, portalFormAction, postedValues, useCardForm, useMessageInView, usePortalForm } from "./form-state";
import { FormAnchor, LineItems, PdfLink, TextAreaField, Totals } from "./parts";
import { ApprovedChoice, choiceMoney, QuoteChoiceFields, useQuoteChoice } from "./quote-choice";

const BADGES: Record<PortalQuote["status"], [string, string]> = {
  sent: ["Awaiting your decision", "badge"],
  approved: ["Approved", "badge badge-success"],
  declined: ["Declined", "badge badge-muted"],
  expired: ["Expired", "badge badge-warning"],
};

export function QuoteCard({
  quote: q,
  token,
  business,
  timeZone,
}: {
  quote: PortalQuote;
  token: string;
  business: string;
  timeZone: string;
}) {
  const { Form, failure, busy, submitting } = usePortalForm("quote", q.id);
  const messageRef = useMessageInView(failure);
  const action = portalFormAction("/api/portal/quote", token, `quote-${q.id}-answer`);
  const posted = postedValues(failure);
  const decision = posted.decision ?? "";
  // The card's two forms share one schema; a refused answer belongs to the one it came from.
  const [approveForm, approve] = useCardForm(
    quoteDecisionSchema,
    `quote-${q.id}-approve`,
    decision === "approve" ? failure : null,
  );
  const [declineForm, decline] = useCardForm(
    quoteDecisionSchema,
    `quote-${q.id}-decline`,
    decision === "decline" ? failure : null,
  );
  const [changesForm, changes] = useCardForm(
    quoteDecisionSchema,
    `quote-${q.id}-changes`,
    decision === "changes" ? failure : null,
  );
  const { choice, setChoice, keptName } = useQuoteChoice(
    q,
    decision === "approve" ? ((failure?.result.initialValue as Record<string, unknown>) ?? null) : null,
  );
  const { totals, deposit } = choiceMoney(q, choice);
  const [badge, badgeClass] = BADGES[q.status];
  const pending = submitting?.get("decision");
  const hasLines = q.items.some((l) => l.option || l.optional);
  return (
    <article className="portal-card" id={`quote-${q.id}`} aria-labelledby={`quote-${q.id}-title`}>
      <header className="portal-card-head">
        <div>
          <p className="portal-kicker">Quote {q.number}</p>
          <h3 id={`quote-${q.id}-title`}>{q.title || `Quote ${q.number}`}</h3>
        </div>
        <div className="portal-card-tools">
          <span className={badgeClass}>{badge}</span>
          <PdfLink href={`/portal/${token}/quotes/${q.id}.pdf`} label={`quote ${q.number}`} />
        </div>
      </header>
      <dl className="portal-meta">
        {q.issueDate ? (
          <div>
            <dt>Issued</dt>
            <dd>{formatDate(q.issueDate)}</dd>
          </div>
        ) : null}
        {q.validUntil ? (
          <div>
            <dt>{q.status === "expired" ? "Expired" : "Valid until"}</dt>
            <dd>{formatDate(q.validUntil)}</dd>
          </div>
        ) : null}
      </dl>
      {q.status === "approved" ? (
        <ApprovedChoice q={q} />
      ) : q.status === "sent" ? (
        hasLines ? null : (
          <LineItems items={q.items} currency={q.currency} />
        )
      ) : (
        <>
          <LineItems items={q.items} currency={q.currency} />
          <Totals currency={q.currency} rows={[...summaryRows(q.summary), ["Total", q.totalCents, true]]} />
        </>
      )}
      {q.notes ? <p className="portal-notes">{q.notes}</p> : null}
      {q.changeRequests.length ? (
        <ul className="portal-changes" aria-label="Your requests for changes">
          {q.changeRequests.map((c) => (
            <li key={c.createdAt}>
              You asked for changes on {formatDateTime(c.createdAt, timeZone)}:{" "}
              <span className="prewrap">“{c.message}”</span>
            </li>
          ))}
        </ul>
      ) : null}
      <FormAnchor id={`quote-${q.id}-answer`} ref={messageRef} errors={allErrors(failure)} />

      {q.status === "approved" ? (
        <p className="portal-outcome portal-outcome-success">
          Approved{q.approvedName ? ` by ${q.approvedName}` : ""}
          {q.approvedAt ? ` on ${formatDateTime(q.approvedAt, timeZone)}` : ""}. {business} will be in touch to schedule
          the work.
        </p>
      ) : q.status === "declined" ? (
        <p className="portal-outcome portal-outcome-muted">
          Declined{q.declinedAt ? ` on ${formatDateTime(q.declinedAt, timeZone)}` : ""}.
          {q.declineReason ? <> Your reason: “{q.declineReason}”</> : null}
        </p>
      ) : q.status === "expired" ? (
        <p className="portal-outcome portal-outcome-warning">
          This quote has expired. Ask {business} for an updated quote.
        </p>
      ) : (
        <div className="portal-action">
          <Form method="post" action={action} className="stack" {...getFormProps(approveForm)}>
            <input type="hidden" name="token" value={token} />
            <input type="hidden" name="quoteId" value={q.id} />
            <input type="hidden" name="decision" value="approve" />
            {/* The total the sentence below states: the server refuses an approval of another one. */}
            <input type="hidden" name="acceptedTotalCents" value={totals.total} />
            <QuoteChoiceFields
              q={q}
              token={token}
              choice={choice}
              setChoice={setChoice}
              errors={{ option: approve.option.errors, optionalItems: approve.optionalItems.errors }}
            />
            <h4>Approve this quote</h4>
            <Field
              id={`signature-${q.id}`}
              name="signatureName"
              label="Your full name (your signature)"
              autoComplete="name"
              maxLength={100}
              required
              defaultValue={decision === "approve" ? posted.signatureName : keptName}
              errors={approve.signatureName.errors}
            />
            <div className={`field${approve.acceptTerms.errors?.length ? " field-invalid" : ""}`}>
              <label className="checkbox portal-checkbox">
                <input
                  type="checkbox"
                  name="acceptTerms"
                  value="yes"
                  required
                  defaultChecked={
                    decision === "approve" && Boolean(posted.acceptTerms) && !approve.acceptTerms.errors?.length
                  }
                  aria-invalid={approve.acceptTerms.errors?.length ? true : undefined}
                  aria-describedby={approve.acceptTerms.errors?.length ? `terms-${q.id}-error` : undefined}
                />
                <span>
                  I accept this quote for <strong>{formatMoney(totals.total, q.currency)}</strong> and its terms, and
                  ask {business} to go ahead with the work.
                  {deposit > 0 ? (
                    <>
                      {" "}
                      I pay a deposit of <strong>{formatMoney(deposit, q.currency)}</strong> now.
                    </>
                  ) : null}
                </span>
              </label>
              <FieldErrors id={`terms-${q.id}-error`} errors={approve.acceptTerms.errors} />
            </div>
            <button type="submit" className="btn btn-primary btn-lg btn-block" disabled={busy}>
              {pending === "approve"
                ? "Approving…"
                : deposit > 0
                  ? `Approve and pay deposit (${formatMoney(deposit, q.currency)})`
                  : "Approve and sign"}
            </button>
            <p className="field-hint">
              Your typed name, your choice, the time and your IP address are recorded with your approval.
              {deposit > 0 ? " The deposit is a sandbox payment: no money moves." : ""}
            </p>
          </Form>
          <details className="portal-decline" open={decision === "decline" || undefined}>
            <summary>Decline this quote</summary>
            <Form method="post" action={action} className="stack" {...getFormProps(declineForm)}>
              <input type="hidden" name="token" value={token} />
              <input type="hidden" name="quoteId" value={q.id} />
              <input type="hidden" name="decision" value="decline" />
              <TextAreaField
                id={`reason-${q.id}`}
                name="reason"
                label="Reason (optional)"
                hint={`Helps ${business} improve. At most 1,000 characters.`}
                maxLength={1000}
                rows={3}
                defaultValue={decision === "decline" ? posted.reason : undefined}
                errors={decline.reason.errors}
              />
              <button type="submit" className="btn btn-secondary btn-lg btn-block" disabled={busy}>
                {pending === "decline" ? "Declining…" : "Decline quote"}
              </button>
            </Form>
          </details>
          <details className="portal-decline" open={decision === "changes" || undefined}>
            <summary>Ask for changes</summary>
            <Form method="post" action={action} className="stack" {...getFormProps(changesForm)}>
              <input type="hidden" name="token" value={token} />
              <input type="hidden" name="quoteId" value={q.id} />
              <input type="hidden" name="decision" value="changes" />
              <TextAreaField
                id={`changes-${q.id}`}
                name="message"
                label="What would you like changed?"
                hint={`${business} will update the quote and let you know. At most 2,000 characters.`}
                maxLength={2000}
                rows={4}
                required
                defaultValue={decision === "changes" ? posted.message : undefined}
                errors={changes.message.errors}
              />
              <button type="submit" className="btn btn-secondary btn-lg btn-block" disabled={busy}>
                {pending === "changes" ? "Sending…" : "Send request"}
              </button>
            </Form>
          </details>
        </div>
      )}
    </article>
  );
}
