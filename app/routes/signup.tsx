import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { getFormProps } from "@conform-to/react";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { HoneypotFields } from "~/components/honeypot";
import { AuthCard } from "~/components/auth-card";
import { CsrfInput, Field, FormError, fieldOf, useConformForm } from "~/components/forms";
import { SelectField } from "~/components/settings";
import { formAction, type FormReply } from "~/http/conform.server";
import { signup } from "~/services/accounts/accounts.server";
import { PASSWORD_MAX, PASSWORD_MIN, signupSchema } from "~/services/accounts/schemas";
import { browserTimeZone, timeZones } from "~/services/company/time-zones";
import { clientIp, getCurrentUser } from "~/http/auth.server";
import { honeypotInputProps } from "~/utils/honeypot.server";
import { passThroughHeaders } from "~/utils/route-headers";
import { completeSignIn } from "~/http/sign-in.server";

export const headers = passThroughHeaders;

export const meta: MetaFunction = () => [{ title: "Create your account · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getCurrentUser(request)) throw redirect("/");
  return json({
    honeypot: honeypotInputProps(),
    timeZones: timeZones().map((z) => ({ value: z, label: z.replace(/_/g, " ") })),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  return formAction(
    request,
    signupSchema,
    async (input) => {
      const { tenantId, userId } = await signup(input, clientIp(request));
      return completeSignIn(request, input.email, { tenantId, userId, tenantName: input.businessName }, "/");
    },
    { honeypot: true, hideFields: ["password"] },
  );
}

export default function SignupPage() {
  const { honeypot, timeZones: zones } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useConformForm(signupSchema, { id: "signup", lastResult: reply?.result });
  const typedZone = typeof fields.timeZone.initialValue === "string" ? fields.timeZone.initialValue : undefined;
  // Progressive enhancement: the page arrives with UTC chosen; with JavaScript the browser's own
  // zone is chosen instead, unless the form came back with a zone already picked.
  useEffect(() => {
    if (typedZone) return;
    const select = document.getElementById("field-timeZone");
    const zone = browserTimeZone();
    if (
      select instanceof HTMLSelectElement &&
      select.value === "UTC" &&
      [...select.options].some((o) => o.value === zone)
    )
      select.value = zone;
  }, [typedZone]);
  return (
    <AuthCard
      title="Create your business account"
      footer={
        <>
          Already have an account? <Link to="/login">Sign in</Link>
        </>
      }
    >
      <Form method="post" className="stack" {...getFormProps(form)}>
        <CsrfInput />
        <HoneypotFields values={honeypot} />
        <FormError errors={form.errors} />
        <Field
          label="Business name"
          autoComplete="organization"
          required
          maxLength={200}
          {...fieldOf(fields.businessName)}
        />
        <Field label="Your name" autoComplete="name" required maxLength={200} {...fieldOf(fields.name)} />
        <Field label="Email" type="email" autoComplete="email" required {...fieldOf(fields.email)} />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters, not a commonly used one.`}
          {...fieldOf(fields.password)}
          defaultValue={undefined}
        />
        <SelectField
          name={fields.timeZone.name}
          label="Time zone"
          options={zones}
          value={typedZone ?? "UTC"}
          errors={fields.timeZone.errors}
          hint="Dates and times show in it. You can change it later in Company settings."
        />
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
          {busy ? "Creating…" : "Create account"}
        </button>
      </Form>
    </AuthCard>
  );
}
