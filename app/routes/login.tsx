import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { CsrfInput, Field, FormError } from "~/components/forms";
import { formObject, parseWith, staffFormAction, type FormFailure } from "~/http/form.server";
import { login } from "~/services/accounts/accounts.server";
import { loginSchema } from "~/services/accounts/schemas";
import { clientIp, getCurrentUser, safeRedirectTo, startSession } from "~/utils/auth.server";
import { passThroughHeaders } from "~/utils/route-headers";

export const headers = passThroughHeaders;

export const meta: MetaFunction = () => [{ title: "Sign in · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getCurrentUser(request);
  if (user) throw redirect(safeRedirectTo(new URL(request.url).searchParams.get("redirectTo")));
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  return staffFormAction(request, async (form) => {
    const input = parseWith(loginSchema, formObject(form));
    const { tenantId, userId } = await login(input.email, input.password, clientIp(request));
    return redirect(safeRedirectTo(input.redirectTo), {
      status: 303,
      headers: { "Set-Cookie": await startSession(request, tenantId, userId) },
    });
  });
}

export default function LoginPage() {
  const result = useActionData<FormFailure>();
  const [params] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  return (
    <AuthCard title="Sign in" footer={<>New here? <Link to="/signup">Create your business account</Link></>}>
      <Form method="post" className="stack" noValidate>
        <CsrfInput />
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? result?.values?.redirectTo ?? ""} />
        <FormError errors={result?.formErrors} />
        <Field name="email" label="Email" type="email" autoComplete="email" required defaultValue={result?.values?.email} errors={result?.fields.email} />
        <Field name="password" label="Password" type="password" autoComplete="current-password" required errors={result?.fields.password} />
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>{busy ? "Signing in…" : "Sign in"}</button>
      </Form>
    </AuthCard>
  );
}
