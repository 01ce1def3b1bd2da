import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { getFormProps } from "@conform-to/react";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { HoneypotFields } from "~/components/honeypot";
import { AuthCard } from "~/components/auth-card";
import { CsrfInput, Field, FormError, fieldOf, useConformForm } from "~/components/forms";
import { formAction, type FormReply } from "~/http/conform.server";
import { loginSchema } from "~/services/accounts/schemas";
import { getCurrentUser, safeRedirectTo } from "~/http/auth.server";
import { auth, choiceCookie, signInRequest } from "~/http/authenticator.server";
import { honeypotInputProps } from "~/utils/honeypot.server";
import { passThroughHeaders } from "~/utils/route-headers";
import { completeSignIn } from "~/http/sign-in.server";

export const headers = passThroughHeaders;

export const meta: MetaFunction = () => [{ title: "Sign in · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getCurrentUser(request);
  if (user) throw redirect(safeRedirectTo(new URL(request.url).searchParams.get("redirectTo")));
  return json({ honeypot: honeypotInputProps() });
}

export async function action({ request }: ActionFunctionArgs) {
  return formAction(
    request,
    loginSchema,
    async (value, { form }) => {
      const { email, choices } = await auth().authenticate("form", signInRequest(request, form));
      const redirectTo = safeRedirectTo(value.redirectTo);
      if (choices.length === 1) return completeSignIn(request, email, choices[0], redirectTo);
      // The password opened several businesses: the next page asks which.
      const pending = { email, choices, redirectTo, until: Date.now() + 5 * 60_000 };
      return redirect("/login/business", {
        status: 303,
        headers: { "Set-Cookie": await choiceCookie().serialize(pending) },
      });
    },
    { honeypot: true, hideFields: ["password"] },
  );
}

export default function LoginPage() {
  const { honeypot } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const [params] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useConformForm(loginSchema, {
    id: "login",
    lastResult: reply?.result,
    defaultValue: { redirectTo: params.get("redirectTo") ?? "" },
  });
  return (
    <AuthCard
      title="Sign in"
      footer={
        <>
          New here? <Link to="/signup">Create your business account</Link>
        </>
      }
    >
      <Form method="post" className="stack" {...getFormProps(form)}>
        <CsrfInput />
        <HoneypotFields values={honeypot} />
        <input
          type="hidden"
          name="redirectTo"
          value={(fields.redirectTo.initialValue as string | undefined) ?? params.get("redirectTo") ?? ""}
        />
        <FormError errors={form.errors} />
        <Field label="Email" type="email" autoComplete="email" required {...fieldOf(fields.email)} />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          {...fieldOf(fields.password)}
          defaultValue={undefined}
        />
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </Form>
    </AuthCard>
  );
}
