import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { CsrfInput } from "~/components/forms";
import { LineItemsTable } from "~/components/documents";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ShareCard } from "~/components/share-card";
import { RecordPage } from "~/components/record-page";
import { DateTime, StatusBadge } from "~/components/records";
import { quoteLinks, quoteShare } from "~/services/quotes/quotes.server";
import { getQuote } from "~/services/records/quotes-invoices.server";
import { mailMode } from "~/services/messages/config.server";
import { latestMessageFor } from "~/services/messages/outbox.server";
import { EmailStatus } from "~/components/email-status";
import { recordPageData } from "~/http/record-page.server";
import { actorOf } from "~/http/auth.server";
import { formatDate } from "~/utils/format";
import { requireAllRecords } from "~/http/records-access.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Quote ${data?.quote.number ?? ""} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  const actor = actorOf(user);
  const found = await getQuote(actor, params.id!);
  const page = await recordPageData(request, user, {
    type: "quote",
    id: found.quote.id,
    customerId: found.quote.customer_id,
  });
  const [related, share] = [await quoteLinks(actor, found.quote.id), await quoteShare(actor, found.quote.id)];
  const mail = { mode: mailMode(), latest: share ? await latestMessageFor(actor, "quote", found.quote.id) : null };
  return json({ ...found, ...page, related, share, mail });
}

export default function QuotePage() {
  const {
    quote: q,
    items,
    summary,
    invoices,
    links,
    canManageLinks,
    createdId,
    history,
    related,
    share,
    canManage,
    mail,
  } = useLoaderData<typeof loader>();
  return (
    <RecordPage
      history={history}
      portal={{
        customerId: q.customer_id,
        customerName: q.customer_name,
        links,
        canManage: canManageLinks,
        returnTo: `/quotes/${q.id}`,
        createdId,
      }}
      title={`Quote ${q.number}`}
      description={
        <>
          <StatusBadge status={q.status} /> {q.title ? `${q.title} · ` : ""}for{" "}
          <Link to={`/customers/${q.customer_id}`}>{q.customer_name}</Link>
        </>
      }
      actions={
        <>
          <a href={`/quotes/${q.id}.pdf`} className="btn btn-secondary">
            Download PDF
          </a>
          <Link to="/quotes" className="btn btn-secondary">
            All quotes
          </Link>
          {canManage && related.editable ? (
            <Link to={`/quotes/${q.id}/edit`} className="btn btn-secondary">
              Edit
            </Link>
          ) : null}
          {canManage && related.editable ? (
            <Link
              to={`/quotes/${q.id}/send`}
              className={`btn ${q.stored_status === "draft" ? "btn-primary" : "btn-secondary"}`}
            >
              {q.stored_status === "draft" ? "Send" : "Send again"}
            </Link>
          ) : null}
          {canManage && q.stored_status === "approved" && !related.job ? (
            <Form method="post" action={`/quotes/${q.id}/convert`} className="inline-form">
              <CsrfInput />
              <button type="submit" className="btn btn-primary">
                Convert to job
              </button>
            </Form>
          ) : null}
          {related.job ? (
            <Link to={`/jobs/${related.job.id}`} className="btn btn-primary">
              View job
            </Link>
          ) : null}
        </>
      }
    >
      <div className="grid grid-2">
        <section className="card">
          <h2>Details</h2>
          <dl className="details">
            <dt>Customer</dt>
            <dd>
              <Link to={`/customers/${q.customer_id}`}>{q.customer_name}</Link>
            </dd>
            {q.property_label || q.property_address ? (
              <>
                <dt>Service property</dt>
                <dd>{[q.property_label, q.property_address].filter(Boolean).join(" · ")}</dd>
              </>
            ) : null}
            <dt>Issued</dt>
            <dd>{formatDate(q.issue_date) || <span className="muted">—</span>}</dd>
            <dt>Valid until</dt>
            <dd>{formatDate(q.valid_until) || <span className="muted">No limit</span>}</dd>
            <dt>Sent</dt>
            <dd>{q.sent_at ? <DateTime value={q.sent_at} /> : <span className="muted">Not sent</span>}</dd>
            <dt>Currency</dt>
            <dd>{q.currency}</dd>
            {invoices.length ? (
              <>
                <dt>Invoiced as</dt>
                <dd>
                  {invoices.map((i, n) => (
                    <span key={i.id}>
                      {n ? ", " : ""}
                      <Link to={`/invoices/${i.id}`}>{i.number}</Link>
                    </span>
                  ))}
                </dd>
              </>
            ) : null}
          </dl>
        </section>
        <section className="card" aria-labelledby="answer-title">
          <h2 id="answer-title">Customer's answer</h2>
          <QuoteAnswer quote={q} />
          <CustomerChoice choice={related.choice} />
        </section>
      </div>

      {share && canManage ? (
        <ShareCard
          share={share}
          intro="The customer can review and approve the quote in their portal."
          status={<EmailStatus mode={mail.mode} latest={mail.latest} />}
        />
      ) : null}

      <section className="card" aria-labelledby="items-title">
        <h2 id="items-title">Line items</h2>
        <LineItemsTable items={items} notes={lineNotes(related.lineFlags)} currency={q.currency} summary={summary} />
        {q.notes ? (
          <>
            <h3 className="section-gap">Notes</h3>
            <p className="prewrap">{q.notes}</p>
          </>
        ) : null}
      </section>
    </RecordPage>
  );
}

/** "Option: Better", "Optional", "Chosen" under a line's description. */
function lineNotes(flags: Record<string, { option: string | null; optional: boolean; selected: boolean | null }>) {
  return Object.fromEntries(
    Object.entries(flags).map(([id, f]) => [
      id,
      [
        f.option ? `Option: ${f.option}` : null,
        f.optional ? "Optional" : null,
        f.selected === true ? "Chosen by the customer" : f.selected === false ? "Not chosen" : null,
      ]
        .filter(Boolean)
        .join(" · ") || null,
    ]),
  );
}

type Choice = ReturnType<typeof useLoaderData<typeof loader>>["related"]["choice"];

/** What the customer chose in the portal (option, optional items) and the deposit asked and paid. */
function CustomerChoice({ choice: c }: { choice: Choice }) {
  if (!c.recorded && !c.depositAsked && !c.depositPaid) return null;
  return (
    <dl className="details section-gap" aria-label="The customer's choice">
      {c.recorded ? (
        <>
          <dt>Chosen option</dt>
          <dd>{c.option ?? <span className="muted">No options on this quote</span>}</dd>
          <dt>Optional items</dt>
          <dd>{c.optionalItems.length ? c.optionalItems.join(", ") : <span className="muted">None chosen</span>}</dd>
        </>
      ) : null}
      {c.depositAsked ? (
        <>
          <dt>Deposit on approval</dt>
          <dd>{c.depositAsked}</dd>
        </>
      ) : null}
      {c.depositPaid ? (
        <>
          <dt>Deposit paid</dt>
          <dd>
            {c.depositPaid.amount} (sandbox, <span className="mono">{c.depositPaid.reference}</span>){" "}
            <DateTime value={c.depositPaid.paidAt} />
            {c.depositPaid.invoiceId ? (
              <>
                {" "}
                · applied to <Link to={`/invoices/${c.depositPaid.invoiceId}`}>its invoice</Link>
              </>
            ) : (
              <> · applied when the job's invoice is created</>
            )}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

type QuoteView = ReturnType<typeof useLoaderData<typeof loader>>["quote"];

function QuoteAnswer({ quote: q }: { quote: QuoteView }) {
  switch (q.status) {
    case "approved":
      return (
        <div className="answer answer-approved">
          <p>
            <StatusBadge status="approved" /> Approved by <strong>{q.approved_name ?? "the customer"}</strong>
          </p>
          <dl className="details">
            <dt>Signed as</dt>
            <dd>{q.approved_name ?? <span className="muted">—</span>}</dd>
            <dt>Approved at</dt>
            <dd>
              <DateTime value={q.approved_at} />
            </dd>
            <dt>From IP address</dt>
            <dd className="mono">{q.approved_ip ?? <span className="muted">—</span>}</dd>
          </dl>
        </div>
      );
    case "declined":
      return (
        <div className="answer answer-declined">
          <p>
            <StatusBadge status="declined" /> Declined <DateTime value={q.declined_at} />
          </p>
          <p className="prewrap">
            {q.decline_reason ? <>Reason: “{q.decline_reason}”</> : <span className="muted">No reason given.</span>}
          </p>
        </div>
      );
    case "expired":
      return (
        <p>
          <StatusBadge status="expired" /> Expired on {formatDate(q.valid_until)} without an answer. The customer can no
          longer approve it.
        </p>
      );
    case "sent":
      return (
        <p>
          Waiting for the customer. They can approve or decline it from their portal
          {q.valid_until ? ` until ${formatDate(q.valid_until)}` : ""}.
        </p>
      );
    default:
      return <p className="muted">A draft: not sent to the customer yet.</p>;
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
