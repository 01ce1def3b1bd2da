import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { ImportFormRefused } from "~/components/import/refused";
import { formAction } from "~/http/conform.server";
import { commitPreview, previewValidRows } from "~/services/import/runs.server";
import { commitPreviewSchema } from "~/services/import/schemas";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import styles from "~/styles/import.css";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { work: "commit" };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Import not committed · Fieldwork" }];

/** The page is only rendered after a refused post; a plain visit needs the permission. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "import_csv");
  return null;
}

// POST /import-data/commit (_csrf, previewId): 303 to the run's result page, also when the
// preview was committed already (a double submit lands on the same page). With
// intent=valid-rows: 303 to a new preview of the valid rows of a preview with errors. A stale or invalid
// preview: this page with the message (409/422); an unknown one: the 404 page.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "import_csv");
  return formAction(request, commitPreviewSchema, async (value) => {
    if (value.intent === "valid-rows") {
      // "Import only the valid rows": a new preview of them (docs/decisions/250), 303 to it.
      const made = await previewValidRows(actorOf(user), value.previewId ?? "");
      return redirect(`/import-data?type=${made.type}&preview=${made.id}`, 303);
    }
    const run = await commitPreview(actorOf(user), value.previewId ?? "");
    return redirect(`/import-data?type=${run.type}&run=${run.id}`, 303);
  });
}

export default function CommitRefused() {
  return (
    <ImportFormRefused
      field="previewId"
      refused="Nothing was imported"
      idle={["Nothing to import here", "Upload a file and import it from its preview."]}
    />
  );
}
