import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmptyState, PageHeader } from "~/components/layout";
import { pricePlansVariable, secretVariable } from "~/utils/billing-config";
import { billingOverview, providerStatus, RECENT_EVENTS } from "~/services/billing/overview.server";
import { requireUserWithPermission } from "~/http/auth.server";
import { billingVariables, env } from "~/utils/env.server";
import { formatDateTime, humanize } from "~/utils/format";

export const meta: MetaFunction = () => [{ title: "Billing · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_team");
  // The subscription is the owner's business: admins manage the team, not the contract.
  if (user.role !== "owner") throw json({ message: "Only the account owner can see billing." }, { status: 403 });
  const overview = await billingOverview(user.tenantId);
  const providers = providerStatus(billingVariables(env())).map((p) => ({
    ...p,
    webhookUrl: `${env().APP_URL}/api/billing/${p.provider}/webhook`,
    variables: [secretVariable(p.provider), pricePlansVariable(p.provider)],
  }));
  return json({ overview, providers, timeZone: user.timeZone, recentLimit: RECENT_EVENTS });
}

const PROVIDER_NAMES: Record<string, string> = { stripe: "Stripe", paddle: "Paddle Billing" };

// Stripe and Paddle status words, grouped by what they mean for the business.
const STATUS_TONE: Record<string, string> = {
  active: "badge-success",
  trialing: "",
  past_due: "badge-warning",
  unpaid: "badge-warning",
  incomplete: "badge-warning",
  paused: "badge-muted",
  canceled: "badge-danger",
  incomplete_expired: "badge-danger",
};

const STATUS_NOTE: Record<string, string> = {
  trialing: "You are in your free trial.",
  past_due: "The last payment failed. Your payment provider retries it; check the payment method on file.",
  unpaid: "Payments have failed and the provider has stopped retrying. Update the payment method to continue.",
  incomplete: "The first payment has not gone through yet.",
  canceled: "The subscription has ended.",
  paused: "The subscription is paused.",
};

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function StatusBadge({ status }: { status: string }) {
  return <span className={`badge ${STATUS_TONE[status] ?? "badge-muted"}`}>{humanize(status)}</span>;
}

export default function BillingSettings() {
  const { overview, providers, timeZone, recentLimit } = useLoaderData<typeof loader>();
  const configured = providers.filter((p) => p.configured);
  const when = (v: string | null) => (v ? formatDateTime(v, timeZone) : "—");
  return (
    <>
      <PageHeader
        title="Billing"
        description="Your Fieldwork subscription, as your payment provider last reported it."
      />

      {configured.length === 0 ? (
        <div className="alert alert-warning" role="status">
          <p>
            <strong>Billing is not set up on this server.</strong> No payment provider is configured, so no subscription
            changes are received and the details below do not change. Whoever runs this server sets a provider up; see{" "}
            <code>docs/billing.md</code>.
          </p>
        </div>
      ) : null}

      <div className="grid grid-2">
        <section className="card" aria-labelledby="subscription-title">
          <h2 id="subscription-title">Subscription</h2>
          <dl className="details">
            <dt>Plan</dt>
            <dd>
              {overview.plan ? <strong>{humanize(overview.plan)}</strong> : <span className="muted">No plan yet</span>}
            </dd>
            <dt>Status</dt>
            <dd>
              {overview.subscriptionStatus ? (
                <StatusBadge status={overview.subscriptionStatus} />
              ) : (
                <span className="muted">No subscription yet</span>
              )}
            </dd>
            <dt>Current period ends</dt>
            <dd>{when(overview.currentPeriodEnd)}</dd>
            <dt>Billed through</dt>
            <dd>{overview.provider ? PROVIDER_NAMES[overview.provider] : "—"}</dd>
            <dt>Last update</dt>
            <dd>{when(overview.lastEventAt)}</dd>
          </dl>
          {overview.subscriptionStatus && STATUS_NOTE[overview.subscriptionStatus] ? (
            <p className="small muted billing-note">{STATUS_NOTE[overview.subscriptionStatus]}</p>
          ) : null}
        </section>

        <section className="card" aria-labelledby="providers-title">
          <h2 id="providers-title">Payment providers</h2>
          <ul className="billing-providers">
            {providers.map((p) => (
              <li key={p.provider}>
                <div className="billing-provider-head">
                  <strong>{PROVIDER_NAMES[p.provider]}</strong>
                  {p.configured ? (
                    <span className="badge badge-success">Configured</span>
                  ) : (
                    <span className="badge badge-muted">Not configured</span>
                  )}
                </div>
                {p.configured ? (
                  <p className="small muted">
                    Receives events at <code className="billing-url">{p.webhookUrl}</code>
                  </p>
                ) : (
                  <p className="small muted">
                    Events are refused until <code>{p.variables[0]}</code> and <code>{p.variables[1]}</code> are set.
                  </p>
                )}
              </li>
            ))}
          </ul>
          <p className="small muted">
            Your account id for billing is <code>{overview.tenantId}</code>. The provider must carry it as{" "}
            <code>tenant_id</code> on your subscription for its events to reach this account.
          </p>
        </section>
      </div>

      <section aria-labelledby="events-title">
        <h2 id="events-title">Recent billing events</h2>
        {overview.events.length === 0 ? (
          <EmptyState title="No billing events yet">
            <p>
              Events from your payment provider (a new subscription, a paid invoice, a failed payment) will be listed
              here.
            </p>
          </EmptyState>
        ) : (
          <>
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Received</th>
                    <th scope="col">Event</th>
                    <th scope="col">Result</th>
                    <th scope="col">Note</th>
                  </tr>
                </thead>
                <tbody>
                  {overview.events.map((e) => (
                    <tr key={`${e.provider}:${e.eventId}`}>
                      <td>
                        {formatDateTime(e.receivedAt, timeZone)}
                        <div className="small muted">happened {formatDateTime(e.occurredAt, timeZone)}</div>
                      </td>
                      <td>
                        <code>{e.type}</code>
                        <div className="small muted">
                          {PROVIDER_NAMES[e.provider]} · <span className="mono">{e.eventId}</span>
                        </div>
                      </td>
                      <td>
                        {e.status === "processed" ? (
                          <span className="badge badge-success">Applied</span>
                        ) : (
                          <span className="badge badge-muted">Ignored</span>
                        )}
                      </td>
                      <td>{e.reason ? sentence(e.reason) : <span className="muted">—</span>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {overview.events.length >= recentLimit ? (
              <p className="small muted billing-note">Showing the latest {recentLimit} events.</p>
            ) : null}
          </>
        )}
      </section>
    </>
  );
}
