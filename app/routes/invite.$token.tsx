import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { CsrfInput, Field, FormError, useConformForm } from "~/components/forms";
import { formAction, type FormReply } from "~/http/conform.server";
import { PASSWORD_MAX, PASSWORD_MIN, setPasswordSchema } from "~/services/accounts/schemas";
import { deleteSession } from "~/services/accounts/sessions.server";
import { acceptInvite, INVITE_MESSAGES, inviteStatus } from "~/services/team/invites.server";
import { sessionTokenOf, startSession } from "~/http/auth.server";
import { passThroughHeaders } from "~/utils/route-headers";

// GET /invite/<token>: who the invite is for and a password form; POST sets the password,
// uses up the invite and signs the member in. A forged link is 404; a used, replaced or
// expired one is 410; each says what to do instead.

export const headers = passThroughHeaders;
export const meta: MetaFunction = () => [
  { title: "Set your password · Fieldwork" },
  { name: "robots", content: "noindex" },
];

// The URL holds a secret: no cache keeps the page and no other site sees it as a referrer.
// (Not `no-referrer`: with it Chromium posts the form with `Origin: null`, which the
// same-origin check rightly refuses.)
const NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin", "X-Robots-Tag": "noindex" };

export async function loader({ params }: LoaderFunctionArgs) {
  const status = await inviteStatus(params.token!);
  if (status.state === "valid") return json(status, { headers: NO_STORE });
  return json(
    { ...status, message: INVITE_MESSAGES[status.state] },
    { status: status.state === "invalid" ? 404 : 410, headers: NO_STORE },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  return formAction(
    request,
    setPasswordSchema,
    async ({ password }) => {
      const { tenantId, userId } = await acceptInvite(params.token!, password);
      // Whoever was signed in in this browser is signed out: the browser now belongs to the member.
      await deleteSession(await sessionTokenOf(request));
      return redirect("/", { status: 303, headers: { "Set-Cookie": await startSession(request, tenantId, userId) } });
    },
    { hideFields: ["password"] },
  );
}

export default function AcceptInvitePage() {
  const invite = useLoaderData<typeof loader>();
  const [form, fields] = useConformForm(setPasswordSchema, {
    id: "accept-invite",
    lastResult: useActionData<FormReply>()?.result,
  });
  const busy = useNavigation().state === "submitting";
  if (invite.state !== "valid") {
    return (
      <AuthCard title="This invite link no longer works" footer={<Link to="/login">Go to sign in</Link>}>
        <p>{"message" in invite ? invite.message : ""}</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={`Welcome to ${invite.tenantName}`}>
      <p className="muted">
        {invite.name}, choose a password for <strong>{invite.email}</strong>. You will use it with your email to sign
        in.
      </p>
      <Form method="post" className="stack" {...getFormProps(form)}>
        <CsrfInput />
        <FormError errors={form.errors} />
        <Field
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`}
          errors={fields.password.errors}
        />
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
          {busy ? "Saving…" : "Set password and sign in"}
        </button>
      </Form>
    </AuthCard>
  );
}
