import { useRef } from "react";
import { useLocation, useSearchParams } from "@remix-run/react";
import { DONE, type PortalDone, type PortalFormFailure, type PortalHubData } from "~/services/portal/types";
import { formatDateTime, formatMoney, formatMoneyTotals } from "~/utils/format";
import { BookingForm } from "./booking-form";
import { allErrors, PageFailure } from "./form-state";
import { InvoiceCard, isOpenInvoice } from "./invoice-card";
import { CardError } from "./parts";
import { QuoteCard } from "./quote-card";
import { firstNames, visitWindow } from "~/utils/visit-window";

/** The portal's frame: the business's logo (or initial) and name on top, the customer's page below. */
export function PortalFrame({
  business,
  logoUrl,
  subtitle,
  children,
}: {
  business: string | null;
  logoUrl?: string | null;
  subtitle?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="portal">
      <header className={`portal-top${logoUrl ? " portal-top-logo" : ""}`}>
        {business && logoUrl ? (
          // The name beside it is the heading: the logo adds nothing a reader needs said.
          <img className="portal-logo" src={logoUrl} alt="" />
        ) : business ? (
          <span className="portal-mark" aria-hidden="true">
            {business.trim().charAt(0).toUpperCase()}
          </span>
        ) : null}
        <div>
          {/* The hub's one heading of the first rank: whose page this is (an error page has its own). */}
          {business ? (
            <h1 className="portal-business">{business}</h1>
          ) : (
            <p className="portal-business">Customer portal</p>
          )}
          {subtitle ? <p className="portal-sub">{subtitle}</p> : null}
        </div>
      </header>
      <main className="portal-main" id="main">
        {children}
      </main>
      <footer className="portal-footer">
        <p>
          {business ? "This page is private to you. Please do not share its link. " : null}Secure customer portal
          powered by Fieldwork.
        </p>
      </footer>
    </div>
  );
}

function confirmation(done: PortalDone, id: string | null, hub: PortalHubData): string {
  const business = hub.business.name;
  const quote = hub.quotes.find((q) => q.id === id);
  const invoice = hub.invoices.find((i) => i.id === id);
  const quoteName = quote ? `Quote ${quote.number}` : "The quote";
  switch (done) {
    case "quote-approved":
      return `Thank you! ${quoteName} is approved. ${business} will be in touch to schedule the work.`;
    case "quote-changes-requested":
      return `Your request for changes to ${quoteName.replace(/^The quote/, "the quote")} was sent. ${business} will update it and let you know.`;
    case "quote-declined":
      return `${quoteName} is declined. Thank you for letting ${business} know.`;
    case "payment-recorded":
      if (invoice?.status === "paid")
        return `Sandbox payment recorded: invoice ${invoice.number} is paid in full. No money moved.`;
      return invoice
        ? `Sandbox payment recorded on invoice ${invoice.number}. Balance still due: ${formatMoney(invoice.balanceCents, invoice.currency)}. No money moved.`
        : "Sandbox payment recorded. No money moved.";
    case "booking-sent":
      return `Your request was sent to ${business}. They will contact you to confirm a time.`;
  }
}

/** The customer's hub: quotes to decide, invoices to pay, a visit to book. */
export function PortalHub({ hub, failure = null }: { hub: PortalHubData; failure?: PortalFormFailure | null }) {
  const [params] = useSearchParams();
  // A success is a new location: the cards remount by its key, so their forms start afresh.
  const fresh = useLocation().key;
  const done = params.get("done");
  const message =
    !failure && DONE.includes(done as PortalDone) ? confirmation(done as PortalDone, params.get("id"), hub) : null;
  const awaiting = hub.quotes.filter((q) => q.status === "sent").length;
  const open = hub.invoices.filter(isOpenInvoice);
  // A card stays in the section it was in when the customer came to this location: a form
  // refused because the record changed meanwhile (declined in another tab) reloads the data,
  // and a card moving to "Past" would take the customer and the message away from where they
  // were. The next location (a success, a reload) sorts the cards afresh.
  const placed = useRef<{ at: string; current: Set<string> } | null>(null);
  if (placed.current?.at !== fresh) {
    placed.current = {
      at: fresh,
      current: new Set([...hub.quotes.filter((q) => q.status === "sent"), ...open].map((d) => d.id)),
    };
  }
  const isCurrent = (id: string) => placed.current!.current.has(id);
  // Decided, expired, paid and cancelled documents stay, under "Past", with their PDFs and receipts.
  const currentQuotes = hub.quotes.filter((q) => isCurrent(q.id));
  const pastQuotes = hub.quotes.filter((q) => !isCurrent(q.id));
  const currentInvoices = hub.invoices.filter((i) => isCurrent(i.id));
  const pastInvoices = hub.invoices.filter((i) => !isCurrent(i.id));
  const dueByCurrency = new Map<string, number>();
  for (const i of open) dueByCurrency.set(i.currency, (dueByCurrency.get(i.currency) ?? 0) + i.balanceCents);
  // A form answer about a record that is not on the page (an unknown id) is said on top.
  const onACard =
    failure && (failure.form === "booking" || [...hub.quotes, ...hub.invoices].some((d) => d.id === failure.targetId));

  return (
    <PageFailure.Provider value={failure}>
      <PortalFrame
        business={hub.business.name}
        logoUrl={hub.business.logoUrl}
        subtitle={
          <>
            Quotes, invoices and bookings for <strong>{hub.customer.name}</strong>
          </>
        }
      >
        {message ? (
          <div className="portal-banner" role="status">
            <span className="portal-banner-icon" aria-hidden="true">
              ✓
            </span>
            <p>{message}</p>
          </div>
        ) : null}
        {failure && !onACard ? <CardError errors={allErrors(failure)} /> : null}

        <div className="portal-summary">
          <a href="#quotes" className="portal-stat">
            <span className="portal-stat-value">{awaiting}</span>
            <span className="portal-stat-label">{awaiting === 1 ? "quote awaits" : "quotes await"} your decision</span>
          </a>
          <a href="#invoices" className="portal-stat">
            <span className="portal-stat-value">
              {formatMoneyTotals([...dueByCurrency].map(([currency, cents]) => ({ currency, cents })))}
            </span>
            <span className="portal-stat-label">
              due on {open.length} {open.length === 1 ? "invoice" : "invoices"}
            </span>
          </a>
          <a href="#book" className="portal-stat portal-stat-action">
            <span className="portal-stat-label">Request a visit</span>
            <span className="portal-stat-arrow" aria-hidden="true">
              →
            </span>
          </a>
        </div>

        {hub.visits.length ? (
          <section id="visits" className="portal-section" aria-labelledby="visits-title">
            <h2 id="visits-title">Upcoming visits</h2>
            <ul className="portal-visits">
              {hub.visits.map((v) => (
                <li key={v.id} className="portal-card portal-visit">
                  <p className="portal-visit-when">{visitWindow(v.start, v.end, hub.business.timeZone)}</p>
                  <p className="portal-visit-what">{v.jobTitle}</p>
                  {v.crew.length ? (
                    <p className="portal-visit-crew">
                      {v.crew.length === 1 ? "Technician: " : "Technicians: "}
                      {firstNames(v.crew)}
                    </p>
                  ) : null}
                  {v.status !== "scheduled" ? <p className="portal-visit-status">Under way</p> : null}
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <section id="quotes" className="portal-section" aria-labelledby="quotes-title">
          <h2 id="quotes-title">Quotes</h2>
          {currentQuotes.length ? (
            currentQuotes.map((q) => (
              <QuoteCard
                key={`${q.id}-${fresh}`}
                quote={q}
                token={hub.token}
                business={hub.business.name}
                timeZone={hub.business.timeZone}
              />
            ))
          ) : (
            <p className="portal-empty">No quotes waiting for your decision.</p>
          )}
        </section>

        <section id="invoices" className="portal-section" aria-labelledby="invoices-title">
          <h2 id="invoices-title">Invoices</h2>
          {currentInvoices.length ? (
            currentInvoices.map((i) => (
              <InvoiceCard key={`${i.id}-${fresh}`} invoice={i} token={hub.token} timeZone={hub.business.timeZone} />
            ))
          ) : (
            <p className="portal-empty">No invoices to pay. You are all settled.</p>
          )}
        </section>

        {pastQuotes.length || pastInvoices.length ? (
          <section id="past" className="portal-section" aria-labelledby="past-title">
            <h2 id="past-title">Past</h2>
            <p className="portal-section-note">
              Paid and cancelled invoices, and quotes you answered or that expired, with their PDFs and receipts.
            </p>
            {pastInvoices.map((i) => (
              <InvoiceCard key={`${i.id}-${fresh}`} invoice={i} token={hub.token} timeZone={hub.business.timeZone} />
            ))}
            {pastQuotes.map((q) => (
              <QuoteCard
                key={`${q.id}-${fresh}`}
                quote={q}
                token={hub.token}
                business={hub.business.name}
                timeZone={hub.business.timeZone}
              />
            ))}
          </section>
        ) : null}

        <section id="book" className="portal-section" aria-label="Book a visit">
          <BookingForm key={fresh} hub={hub} />
        </section>
        <p className="portal-expiry">
          This link works until {formatDateTime(hub.linkExpiresAt, hub.business.timeZone)}.
        </p>
      </PortalFrame>
    </PageFailure.Provider>
  );
}
