import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { CsrfInput, Field, FormError } from "~/components/forms";
import { formObject, parseWith, staffFormAction, type FormFailure } from "~/http/form.server";
import { signup } from "~/services/accounts/accounts.server";
import { PASSWORD_MAX, PASSWORD_MIN, signupSchema } from "~/services/accounts/schemas";
import { getCurrentUser, startSession } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Create your account · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getCurrentUser(request)) throw redirect("/");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  return staffFormAction(request, async (form) => {
    const input = parseWith(signupSchema, formObject(form));
    const { tenantId, userId } = await signup(input);
    return redirect("/", { status: 303, headers: { "Set-Cookie": await startSession(request, tenantId, userId) } });
  });
}

export default function SignupPage() {
  const result = useActionData<FormFailure>();
  const busy = useNavigation().state === "submitting";
  const v = result?.values ?? {};
  return (
    <AuthCard title="Create your business account" footer={<>Already have an account? <Link to="/login">Sign in</Link></>}>
      <Form method="post" className="stack" noValidate>
        <CsrfInput />
        <FormError errors={result?.formErrors} />
        <Field name="businessName" label="Business name" autoComplete="organization" required maxLength={200} defaultValue={v.businessName} errors={result?.fields.businessName} />
        <Field name="name" label="Your name" autoComplete="name" required maxLength={200} defaultValue={v.name} errors={result?.fields.name} />
        <Field name="email" label="Email" type="email" autoComplete="email" required defaultValue={v.email} errors={result?.fields.email} />
        <Field
          name="password" label="Password" type="password" autoComplete="new-password" required
          minLength={PASSWORD_MIN} maxLength={PASSWORD_MAX} hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`}
          errors={result?.fields.password}
        />
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>{busy ? "Creating…" : "Create account"}</button>
      </Form>
    </AuthCard>
  );
}
