import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ImportRefused } from "~/components/import/refused";
import { MappingStep } from "~/components/import/mapping-step";
import { formAction, type FormReply, replyWith } from "~/http/conform.server";
import { mapUploadSchema } from "~/services/import/mapping/schema";
import { getUploadForMapping, mapUpload } from "~/services/import/uploads.server";
import { isAppError } from "~/utils/app-error";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import styles from "~/styles/import.css";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { work: "import" };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Match your columns · Fieldwork" }];

// GET: the mapping step again, where a refused post left the browser (?upload=<id>).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "import_csv");
  const id = new URL(request.url).searchParams.get("upload");
  if (!id) return json({ upload: null });
  try {
    return json({ upload: await getUploadForMapping(actorOf(user), id) });
  } catch (error) {
    if (isAppError(error) && error.status === 404) return json({ upload: null });
    throw error;
  }
}

// POST /import-data/map (_csrf, uploadId, column.<index>): 303 to the preview; a required field
// without a column is 422 beside it, and nothing is stored.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "import_csv");
  return formAction(request, mapUploadSchema, async (value, { submission }) => {
    const result = await mapUpload(actorOf(user), value.uploadId, value.column);
    if (!result.ok) return replyWith(submission, { status: result.status, formErrors: [result.message] });
    return redirect(`/import-data?type=${result.run.type}&preview=${result.run.id}`, 303);
  });
}

export default function ImportMapPage() {
  const { upload } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  if (!upload) {
    return (
      <ImportRefused
        title="This upload is no longer waiting"
        errors={["It was imported, replaced or is more than a day old. Upload the file again."]}
        back="/import-data"
      />
    );
  }
  return <MappingStep upload={upload} lastResult={reply?.result} />;
}
