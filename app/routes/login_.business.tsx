import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { getFormProps } from "@conform-to/react";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { CsrfInput, FieldErrors, FormError, useConformForm } from "~/components/forms";
import { formAction, type FormReply } from "~/http/conform.server";
import { chooseBusinessSchema } from "~/services/accounts/schemas";
import { validationFailed } from "~/utils/app-error";
import { readChoice } from "~/http/authenticator.server";
import { passThroughHeaders } from "~/utils/route-headers";
import { completeSignIn } from "~/http/sign-in.server";

// GET/POST /login/business: the password opened the user rows of several businesses, so the
// person picks one (as Slack asks which workspace). The list lives five minutes in a signed
// cookie set by the sign-in; the session is for the one user row chosen.

export const headers = passThroughHeaders;
export const meta: MetaFunction = () => [{ title: "Choose a business · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const pending = await readChoice(request);
  if (!pending) throw redirect("/login");
  return json(
    { email: pending.email, businesses: pending.choices.map((c) => ({ tenantId: c.tenantId, name: c.tenantName })) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  return formAction(request, chooseBusinessSchema, async ({ tenantId }) => {
    const pending = await readChoice(request);
    if (!pending) throw redirect("/login");
    const choice = pending.choices.find((c) => c.tenantId === tenantId);
    if (!choice) throw validationFailed({ tenantId: ["Choose one of the businesses listed."] });
    return completeSignIn(request, pending.email, choice, pending.redirectTo);
  });
}

export default function ChooseBusinessPage() {
  const { email, businesses } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useConformForm(chooseBusinessSchema, {
    id: "choose-business",
    lastResult: reply?.result,
    serverOnly: true,
  });
  return (
    <AuthCard title="Choose a business" footer={<Link to="/login">Sign in with another email</Link>}>
      <p className="muted">
        <strong>{email}</strong> signs in to more than one business. Which one do you want to open?
      </p>
      <Form method="post" className="stack" {...getFormProps(form)}>
        <CsrfInput />
        <FormError errors={form.errors} />
        <ul
          className="business-choices"
          aria-describedby={fields.tenantId.errors?.length ? "field-tenantId-error" : undefined}
        >
          {businesses.map((b) => (
            <li key={b.tenantId}>
              <button
                type="submit"
                name="tenantId"
                value={b.tenantId}
                className="btn btn-secondary btn-lg"
                disabled={busy}
              >
                {b.name}
              </button>
            </li>
          ))}
        </ul>
        <FieldErrors id="field-tenantId-error" errors={fields.tenantId.errors} />
      </Form>
    </AuthCard>
  );
}
