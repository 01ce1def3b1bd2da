import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CsrfInput, FormError } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { DateTime } from "~/components/records";
import { formAction, type FormReply } from "~/http/conform.server";
import { assertMayInvite, createInvite, INVITE_DAYS } from "~/services/team/invites.server";
import { inviteFormSchema } from "~/services/team/schemas";
import { getMember } from "~/services/team/team.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { passThroughHeaders } from "~/utils/route-headers";

// POST /team/<id>/invite: makes a one-time invite link and shows it,
// once, in this response. Only its hash is stored, so it cannot be shown again: a lost link
// is replaced by making a new one (which stops the old one working).

export const headers = passThroughHeaders;
export const meta: MetaFunction = () => [{ title: "Invite link · Fieldwork" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_team");
  const member = await getMember(user.tenantId, params.id!);
  assertMayInvite(user.role, member.role);
  return json({ member, inviteDays: INVITE_DAYS });
}

type Created = { ok: true; url: string; expiresAt: string; memberName: string };

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_team");
  return formAction(request, inviteFormSchema, async () => {
    const invite = await createInvite(actorOf(user), params.id!);
    // The page holds a secret: no cache may keep it.
    return json({ ok: true, ...invite } satisfies Created, { headers: { "Cache-Control": "no-store" } });
  });
}

export default function InvitePage() {
  const { member, inviteDays } = useLoaderData<typeof loader>();
  const result = useActionData<Created | FormReply>();
  const created = result && "ok" in result ? result : undefined;
  const refused = result && "result" in result ? result.result.error?.[""] : undefined;
  return (
    <>
      <PageHeader
        title={`Invite ${member.name}`}
        description={member.email}
        actions={
          <Link to="/team" className="btn btn-secondary">
            Back to the team
          </Link>
        }
      />
      <section className="card narrow">
        {created ? (
          <>
            <div className="alert alert-success" role="status">
              <p>
                <strong>Invite link created.</strong> Copy it now and send it to {created.memberName}: it is shown only
                once.
              </p>
            </div>
            <label className="label" htmlFor="invite-url">
              Invite link
            </label>
            <input
              id="invite-url"
              className="link-url"
              readOnly
              value={created.url}
              onFocus={(e) => e.currentTarget.select()}
            />
            <p className="muted small section-gap">
              It works once, until <DateTime value={created.expiresAt} />. Opening it lets {created.memberName} choose a
              password and sign in. Making another link for them stops this one working.
            </p>
          </>
        ) : member.has_password ? (
          <p>{member.name} already signs in with a password, so there is nothing to invite them to.</p>
        ) : (
          <>
            <FormError errors={refused} />
            <p>
              {member.name} has no password yet. An invite link lets them choose one and sign in. It works once and
              lasts {inviteDays} days; an earlier link for them stops working.
            </p>
            <Form method="post">
              <CsrfInput />
              <button type="submit" className="btn btn-primary">
                Create invite link
              </button>
            </Form>
          </>
        )}
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
