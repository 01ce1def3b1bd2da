import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { JobForm } from "~/components/job-form";
import { PageHeader } from "~/components/layout";
import { useTimeZone } from "~/components/records";
import { formAction, type FormReply } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { jobFormChoices, jobFormValues, updateJob } from "~/services/jobs/jobs.server";
import { jobFormSchema } from "~/services/jobs/schemas";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import visitStyles from "~/styles/visits.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: visitStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Edit ${data?.job.title ?? "job"} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const actor = actorOf(user);
  const job = await jobFormValues(actor, params.id!);
  const choices = await jobFormChoices(actor, { include: job.values.customerId });
  return json({ job, choices });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  return formAction(request, jobFormSchema, async (value) => {
    const job = await updateJob(actorOf(user), params.id!, value);
    await setFlash(user, { message: `Job “${job.title}” saved.`, tone: "success" });
    return redirect(`/jobs/${job.id}`, 303);
  });
}

export default function EditJobPage() {
  const { job, choices } = useLoaderData<typeof loader>();
  const lastResult = useActionData<FormReply>()?.result;
  return (
    <>
      <PageHeader title={`Edit job: ${job.title}`} />
      {job.status === "cancelled" ? (
        <div className="alert alert-warning" role="status">
          This job is cancelled. Reopen it from the job page before changing it.
        </div>
      ) : null}
      <JobForm
        lastResult={lastResult}
        defaultValue={job.values}
        choices={choices}
        timeZone={useTimeZone()}
        submitLabel="Save job"
        cancelTo={`/jobs/${job.id}`}
        series={job.series}
      />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
