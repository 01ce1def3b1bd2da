import { getFormProps } from "@conform-to/react";
import { useMemo } from "react";
import { Field } from "~/components/forms";
import { HoneypotFields } from "~/components/honeypot";
import { bookingRequestSchema } from "~/services/portal/schemas";
import { TIME_WINDOW_LABELS, TIME_WINDOWS, type PortalHubData } from "~/services/portal/types";
import { formatDate } from "~/utils/format";
import { allErrors, portalFormAction, postedValues, useCardForm, useMessageInView, usePortalForm } from "./form-state";
import { FormAnchor, SelectField, TextAreaField } from "./parts";

const STATUS_LABELS = {
  new: ["Received", "badge"],
  scheduled: ["Scheduled", "badge badge-success"],
  declined: ["Not possible", "badge badge-muted"],
  archived: ["Closed", "badge badge-muted"],
} as const;

export function BookingForm({ hub }: { hub: PortalHubData }) {
  const { Form, failure, busy } = usePortalForm("booking", null);
  const schema = useMemo(
    () => bookingRequestSchema(hub.today, hub.lastBookableDate),
    [hub.today, hub.lastBookableDate],
  );
  const [form, fields] = useCardForm(schema, "booking", failure);
  const messageRef = useMessageInView(failure);
  const v = postedValues(failure);
  const f = (name: keyof typeof fields) => fields[name].errors;
  return (
    <article className="portal-card" aria-labelledby="book-title">
      <header className="portal-card-head">
        <div>
          <p className="portal-kicker">Book a visit</p>
          <h3 id="book-title">Request a visit from {hub.business.name}</h3>
        </div>
      </header>
      <p className="muted">
        Tell us what you need and when suits you. {hub.business.name} will contact you to confirm a time.
      </p>
      <FormAnchor id="booking-answer" ref={messageRef} errors={allErrors(failure)} />
      <Form
        method="post"
        action={portalFormAction("/api/portal/booking-request", hub.token, "booking-answer")}
        className="stack"
        {...getFormProps(form)}
      >
        <input type="hidden" name="token" value={hub.token} />
        <input type="hidden" name="idempotencyKey" value={hub.bookingKey} />
        {/* remix-utils' honeypot: a hidden field people never fill (a filled one is 400). */}
        <HoneypotFields />
        <Field
          id="book-service"
          name="service"
          label="What do you need?"
          placeholder="e.g. Annual furnace service"
          maxLength={200}
          required
          defaultValue={v.service}
          errors={f("service")}
        />
        <TextAreaField
          id="book-description"
          name="description"
          label="Details (optional)"
          hint="Anything that helps: the problem, the make and model, access notes."
          maxLength={2000}
          rows={4}
          defaultValue={v.description}
          errors={f("description")}
        />
        <div className="portal-row">
          <Field
            id="book-date"
            name="preferredDate"
            label="Preferred date (optional)"
            type="date"
            min={hub.today}
            max={hub.lastBookableDate}
            defaultValue={v.preferredDate}
            errors={f("preferredDate")}
          />
          <SelectField
            id="book-window"
            name="timeWindow"
            label="Time of day"
            options={TIME_WINDOWS.map((w) => [w, TIME_WINDOW_LABELS[w]])}
            defaultValue={v.timeWindow ?? "any"}
            errors={f("timeWindow")}
          />
        </div>
        {hub.properties.length ? (
          <SelectField
            id="book-property"
            name="propertyId"
            label="Where is the visit?"
            hint="One of your properties, or another address below."
            options={[...hub.properties.map((p): [string, string] => [p.id, p.label]), ["", "Another address (below)"]]}
            defaultValue={v.propertyId ?? hub.properties[0].id}
            errors={f("propertyId")}
          />
        ) : null}
        <Field
          id="book-address"
          name="address"
          label={hub.properties.length ? "Another address (optional)" : "Address for the visit"}
          autoComplete="address-line1"
          maxLength={500}
          defaultValue={v.address ?? (hub.properties.length ? "" : (hub.customer.address ?? ""))}
          errors={f("address")}
        />
        <Field
          id="book-phone"
          name="phone"
          label="Phone"
          type="tel"
          autoComplete="tel"
          maxLength={40}
          defaultValue={v.phone ?? hub.customer.phone ?? ""}
          errors={f("phone")}
        />
        <button type="submit" className="btn btn-primary btn-lg btn-block" disabled={busy}>
          {busy ? "Sending…" : "Send request"}
        </button>
      </Form>
      {hub.bookingRequests.length ? (
        <div className="portal-requests">
          <h4>Your recent requests</h4>
          <ul>
            {hub.bookingRequests.map((r, i) => {
              const [label, cls] = STATUS_LABELS[r.status];
              return (
                <li key={i}>
                  <span>
                    <strong>{r.service}</strong>
                    <span className="portal-item-qty">
                      {r.preferredDate ? formatDate(r.preferredDate) : "Any date"} · {TIME_WINDOW_LABELS[r.timeWindow]}
                    </span>
                  </span>
                  <span className={cls}>{label}</span>
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </article>
  );
}
