import type { LoaderFunctionArgs } from "@remix-run/node";
import { importCsvDownload } from "~/http/import-csv.server";
import { errorsCsv } from "~/services/import/runs.server";

// GET /import-data/errors?preview=<id>: every error of a preview as CSV (row, column, message).
export const loader = ({ request }: LoaderFunctionArgs) =>
  importCsvDownload(request, errorsCsv, {
    file: (run) => `${run.type}-errors.csv`,
    missing: ["This preview does not exist", "It may belong to another account, or the link is wrong."],
  });
