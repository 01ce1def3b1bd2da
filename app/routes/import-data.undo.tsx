import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { ImportRefused } from "~/components/import/import-page";
import { staffFormAction, type FormFailure } from "~/http/form.server";
import { undoImport } from "~/services/import/runs.server";
import { actorOf, requireUserWithPermission } from "~/utils/auth.server";
import styles from "~/styles/import.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Import not undone · Fieldwork" }];

// Only rendered after a refused undo (the action's message); a plain visit has nothing here.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "import_csv");
  return null;
}

// POST /import-data/undo (_csrf, runId): 303 to the run's page, which then says it was undone.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "import_csv");
  return staffFormAction(request, async (form) => {
    const run = await undoImport(actorOf(user), String(form.get("runId") ?? ""));
    return redirect(`/import-data?type=${run.type}&run=${run.id}`, 303);
  });
}

export default function UndoRefused() {
  const result = useActionData<FormFailure>();
  const id = result?.values?.runId;
  return (
    <ImportRefused
      title={result ? "The import was not undone" : "Nothing to undo here"}
      errors={result?.formErrors ?? ["Open an import's result page to undo it."]}
      back={id ? `/import-data?run=${encodeURIComponent(id)}` : "/import-data"}
    />
  );
}
