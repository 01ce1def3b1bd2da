import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { ImportFormRefused } from "~/components/import/refused";
import { formAction } from "~/http/conform.server";
import { undoImport } from "~/services/import/runs.server";
import { undoImportSchema } from "~/services/import/schemas";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import styles from "~/styles/import.css";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { work: "commit" };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Import not undone · Fieldwork" }];

/** The page is only rendered after a refused post; a plain visit needs the permission. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "import_csv");
  return null;
}

// POST /import-data/undo (_csrf, runId): 303 to the run's page, which then says it was undone;
// an undo no longer available: this page with the reason (409), nothing deleted.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "import_csv");
  return formAction(request, undoImportSchema, async (value) => {
    const run = await undoImport(actorOf(user), value.runId ?? "");
    return redirect(`/import-data?type=${run.type}&run=${run.id}`, 303);
  });
}

export default function UndoRefused() {
  return (
    <ImportFormRefused
      field="runId"
      refused="The import was not undone"
      idle={["Nothing to undo here", "Open an import's result page to undo it."]}
    />
  );
}
