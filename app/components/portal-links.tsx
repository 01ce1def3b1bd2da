import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { PortalLinkView } from "~/services/portal/links.server";
import { portalLinkFormSchema } from "~/services/portal/schemas";
import { CsrfInput, FieldErrors, FormError, useConformForm } from "./forms";
import { DateTime, StatusBadge } from "./records";

/**
 * A customer's portal links with their full URLs, a form to create one (1..90 days) and a
 * revoke button per active link. Shown on the customer, quote and invoice pages; `returnTo`
 * brings the browser back to the page it was used on.
 */
export function PortalLinksCard({
  customerId,
  customerName,
  links,
  canManage,
  returnTo,
  createdId,
}: {
  customerId: string;
  customerName: string;
  links: PortalLinkView[];
  canManage: boolean;
  returnTo: string;
  createdId?: string | null;
}) {
  const active = links.filter((l) => l.state === "active");
  const created = createdId ? links.find((l) => l.id === createdId && l.state === "active") : undefined;
  return (
    <section className="card" id="portal-links" aria-labelledby="portal-links-title">
      <div className="card-header">
        <h2 id="portal-links-title">Customer portal</h2>
        <span className="muted small">
          {active.length} active link{active.length === 1 ? "" : "s"}
        </span>
      </div>
      <p className="muted small">
        A portal link lets {customerName} see their sent quotes and open invoices, approve a quote, record a payment and
        ask for a booking, without an account. Anyone holding the link can do this until it expires or is revoked.
      </p>
      {created ? (
        <div className="alert alert-success" role="status">
          <p>
            <strong>New portal link</strong> (expires <DateTime value={created.expiresAt} />
            ). Copy it and send it to the customer:
          </p>
          <input
            className="link-url"
            readOnly
            value={created.url}
            aria-label="New portal link URL"
            onFocus={(e) => e.currentTarget.select()}
          />
        </div>
      ) : null}
      {links.length ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Link</th>
                <th>State</th>
                <th>Expires</th>
                <th>Created</th>
                {canManage ? (
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {links.map((l) => (
                <tr key={l.id} className={l.id === createdId ? "row-highlight" : undefined}>
                  <td className="link-cell">
                    {l.state === "active" && canManage ? (
                      <input
                        className="link-url"
                        readOnly
                        value={l.url}
                        aria-label="Portal link URL"
                        onFocus={(e) => e.currentTarget.select()}
                      />
                    ) : (
                      <span className="muted">No longer opens</span>
                    )}
                  </td>
                  <td>
                    <StatusBadge status={l.state} />
                  </td>
                  <td>
                    <DateTime value={l.state === "revoked" ? l.revokedAt : l.expiresAt} />
                  </td>
                  <td>
                    <DateTime value={l.createdAt} />
                    {l.createdByName ? <div className="muted small">by {l.createdByName}</div> : null}
                  </td>
                  {canManage ? (
                    <td className="num">
                      {l.state === "active" ? (
                        <Form method="post" action={`/portal-links/${l.id}/revoke`}>
                          <CsrfInput />
                          <input type="hidden" name="returnTo" value={returnTo} />
                          <button type="submit" className="btn btn-ghost btn-sm">
                            Revoke
                          </button>
                        </Form>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No portal links yet.{canManage ? " Create one below and send it to the customer." : ""}</p>
      )}
      {canManage ? <CreatePortalLinkForm customerId={customerId} returnTo={returnTo} /> : null}
    </section>
  );
}

/**
 * The "new portal link" form: conform with the route's schema, so a bad number of days is
 * said beside the field before the post (JavaScript) or after it (the route's own page).
 */
export function CreatePortalLinkForm({
  customerId,
  returnTo,
  lastResult,
}: {
  customerId: string;
  returnTo: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useConformForm(portalLinkFormSchema, {
    id: `portal-link-${customerId}`,
    lastResult,
    defaultValue: { days: "30", returnTo },
  });
  const errors = fields.days.errors;
  const days = fields.days.initialValue;
  return (
    <Form
      method="post"
      action={`/customers/${customerId}/portal-links`}
      className="form-row portal-link-form"
      {...getFormProps(form)}
    >
      <CsrfInput />
      <input
        type="hidden"
        name="returnTo"
        value={typeof fields.returnTo.initialValue === "string" ? fields.returnTo.initialValue : returnTo}
      />
      <FormError errors={form.errors} />
      <div className={`field${errors?.length ? " field-invalid" : ""}`}>
        <label htmlFor={`days-${customerId}`}>Valid for (days)</label>
        <input
          id={`days-${customerId}`}
          name="days"
          type="number"
          min={1}
          max={90}
          defaultValue={typeof days === "string" ? days : "30"}
          required
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? `days-${customerId}-error` : undefined}
        />
        <FieldErrors id={`days-${customerId}-error`} errors={errors} />
      </div>
      <button type="submit" className="btn btn-primary">
        Create portal link
      </button>
    </Form>
  );
}
