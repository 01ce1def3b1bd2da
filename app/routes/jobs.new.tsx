import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { JobForm } from "~/components/job-form";
import { PageHeader } from "~/components/layout";
import { useTimeZone } from "~/components/records";
import { formAction, type FormReply } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { createJob, jobFormChoices } from "~/services/jobs/jobs.server";
import { jobFormSchema } from "~/services/jobs/schemas";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import visitStyles from "~/styles/visits.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: visitStyles }];

export const meta: MetaFunction = () => [{ title: "New job · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const customerId = new URL(request.url).searchParams.get("customerId");
  const choices = await jobFormChoices(actorOf(user), { include: customerId });
  const known = choices.customers.some((c) => c.id === customerId);
  return json({
    choices,
    defaultValue: { customerId: known ? customerId! : "" },
    backTo: known ? `/customers/${customerId}` : "/jobs",
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  return formAction(request, jobFormSchema, async (value) => {
    const job = await createJob(actorOf(user), value);
    await setFlash(user, {
      message: `Job “${job.title}” created${job.status === "scheduled" ? " and scheduled" : ""}.`,
      tone: "success",
    });
    return redirect(`/jobs/${job.id}`, 303);
  });
}

export default function NewJobPage() {
  const { choices, defaultValue, backTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<FormReply>()?.result;
  return (
    <>
      <PageHeader title="New job" description="Book work for a customer. Add a start time to put it on the schedule." />
      <JobForm
        lastResult={lastResult}
        defaultValue={defaultValue}
        choices={choices}
        timeZone={useTimeZone()}
        submitLabel="Create job"
        cancelTo={backTo}
      />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
