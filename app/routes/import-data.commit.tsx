import type { ActionFunctionArgs, LinksFunction, MetaFunction } from "@remix-run/node";
import { ImportFormRefused } from "~/components/import/import-page";
import { importFormLoader, importRunAction } from "~/http/import-form.server";
import { commitPreview } from "~/services/import/runs.server";
import styles from "~/styles/import.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Import not committed · Fieldwork" }];

export const loader = importFormLoader;

// POST /import-data/commit (_csrf, previewId): 303 to the run's result page, also when the
// preview was committed already (a double submit lands on the same page).
export async function action({ request }: ActionFunctionArgs) {
  return importRunAction(request, "previewId", commitPreview);
}

export default function CommitRefused() {
  return <ImportFormRefused field="previewId" refused="Nothing was imported" idle={["Nothing to import here", "Upload a file and import it from its preview."]} />;
}
