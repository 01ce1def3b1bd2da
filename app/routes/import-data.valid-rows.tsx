import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { ImportFormRefused } from "~/components/import/refused";
import { formAction } from "~/http/conform.server";
import { previewValidRows } from "~/services/import/runs.server";
import { commitPreviewSchema } from "~/services/import/schemas";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import styles from "~/styles/import.css";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265): copying a
// preview's chunks is a commit's kind of work.
export const handle: RouteRules = { work: "commit" };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Valid rows not taken · Fieldwork" }];

/** The page is only rendered after a refused post; a plain visit needs the permission. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "import_csv");
  return null;
}

// POST /import-data/valid-rows (_csrf, previewId): a new preview of the valid rows of a preview
// with errors (docs/decisions/250), 303 to it. A preview replaced, imported, valid already or
// without a valid row: this page with the message (409/422); an unknown one: the 404 page.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "import_csv");
  return formAction(request, commitPreviewSchema, async (value) => {
    const run = await previewValidRows(actorOf(user), value.previewId ?? "");
    return redirect(`/import-data?type=${run.type}&preview=${run.id}`, 303);
  });
}

export default function ValidRowsRefused() {
  return (
    <ImportFormRefused
      field="previewId"
      refused="The valid rows were not taken"
      idle={["Nothing to take here", "Upload a file; a preview with errors offers to import only its valid rows."]}
    />
  );
}
