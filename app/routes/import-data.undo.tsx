import type { ActionFunctionArgs, LinksFunction, MetaFunction } from "@remix-run/node";
import { ImportFormRefused } from "~/components/import/import-page";
import { importFormLoader, importRunAction } from "~/http/import-form.server";
import { undoImport } from "~/services/import/runs.server";
import styles from "~/styles/import.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Import not undone · Fieldwork" }];

export const loader = importFormLoader;

// POST /import-data/undo (_csrf, runId): 303 to the run's page, which then says it was undone.
export async function action({ request }: ActionFunctionArgs) {
  return importRunAction(request, "runId", undoImport);
}

export default function UndoRefused() {
  return <ImportFormRefused field="runId" refused="The import was not undone" idle={["Nothing to undo here", "Open an import's result page to undo it."]} />;
}
