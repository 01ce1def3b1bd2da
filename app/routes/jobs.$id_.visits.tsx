import type { SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/layout";
import { AddVisitFields } from "~/components/visits";
import { formAction } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { addVisitSchema } from "~/services/visits/schemas";
import { addVisit, addVisitChoices } from "~/services/visits/visits.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import visitStyles from "~/styles/visits.css";

// GET/POST /jobs/<id>/visits: a new visit of a job (`start`, `end`, the crew as repeated
// `assigneeIds`, an optional `note`). The job page posts here (with JavaScript through a
// fetcher, staying on the job page); without JavaScript a refused form comes back on this page
// with the errors beside the fields. Success: 303 to the job.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: visitStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Add a visit to ${data?.job.title ?? "job"} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  return json({ ...(await addVisitChoices(actorOf(user), params.id!)), timeZone: user.timeZone });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  return formAction(request, addVisitSchema, async (value) => {
    const added = await addVisit(actorOf(user), params.id!, value);
    await setFlash(user, { message: added.message, tone: "success" });
    return redirect(`/jobs/${added.jobId}#visits`, 303);
  });
}

export default function AddVisitPage() {
  const { job, members, timeZone } = useLoaderData<typeof loader>();
  const reply = useActionData<{ result: SubmissionResult<string[]> }>();
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <PageHeader
        title={`Add a visit to “${job.title}”`}
        description={
          <>
            For {job.customerName} · times in {timeZone}
          </>
        }
        actions={
          <Link to={`/jobs/${job.id}`} className="btn btn-secondary">
            Back to the job
          </Link>
        }
      />
      <section className="card narrow" aria-label="New visit">
        <AddVisitFields jobId={job.id} members={members} lastResult={reply?.result} busy={busy} />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
