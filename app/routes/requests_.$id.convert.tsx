import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormError } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { formAction, type FormReply } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { convertRequest, convertRequestSchema } from "~/services/booking-requests/convert.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

export const meta: MetaFunction = () => [{ title: "Booking request · Fieldwork" }];

/** Nothing to show here by itself: the buttons live on /requests. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "manage_records");
  return json(null);
}

/** A draft quote or an unscheduled job from the request, once; 303 to it. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  return formAction(request, convertRequestSchema, async ({ to }) => {
    const made = await convertRequest(actorOf(user), params.id!, to);
    await setFlash(user, {
      message: made.created
        ? `Created a ${made.label} from the booking request. Check it over${to === "quote" ? ", add the line items and send it" : " and schedule it"}.`
        : `This request was already turned into a ${made.label}.`,
      tone: "success",
    });
    return redirect(to === "quote" ? `/quotes/${made.id}` : `/jobs/${made.id}`, 303);
  });
}

/** Where a refused conversion lands (409): the reason, and the way back. */
export default function ConvertRequestPage() {
  const reply = useActionData<FormReply>();
  const errors = reply
    ? [...(reply.result.error?.[""] ?? []), ...(reply.result.error?.to ?? [])]
    : ["Open Booking requests and choose Create quote or Create job on a request."];
  return (
    <>
      <PageHeader
        title="Booking request"
        actions={
          <Link to="/requests" className="btn btn-secondary">
            Booking requests
          </Link>
        }
      />
      <FormError errors={errors} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
