import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { ImportRefused } from "~/components/import/import-page";
import { staffFormAction, type FormFailure } from "~/http/form.server";
import { commitPreview } from "~/services/import/runs.server";
import { actorOf, requireUserWithPermission } from "~/utils/auth.server";
import styles from "~/styles/import.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Import not committed · Fieldwork" }];

// Only rendered after a refused commit (the action's message); a plain visit has nothing here.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "import_csv");
  return null;
}

// POST /import-data/commit (_csrf, previewId): 303 to the run's result page, also when the
// preview was committed already (a double submit lands on the same page).
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "import_csv");
  return staffFormAction(request, async (form) => {
    const run = await commitPreview(actorOf(user), String(form.get("previewId") ?? ""));
    return redirect(`/import-data?type=${run.type}&run=${run.id}`, 303);
  });
}

export default function CommitRefused() {
  const result = useActionData<FormFailure>();
  const id = result?.values?.previewId;
  return (
    <ImportRefused
      title={result ? "Nothing was imported" : "Nothing to import here"}
      errors={result?.formErrors ?? ["Upload a file and import it from its preview."]}
      back={id ? `/import-data?preview=${encodeURIComponent(id)}` : "/import-data"}
    />
  );
}
