import type { LoaderFunctionArgs } from "@remix-run/node";
import { importCsvDownload } from "~/http/import-csv.server";
import { leftOutCsv } from "~/services/import/runs.server";

// GET /import-data/left-out?preview=<id>: the rows a preview leaves out (those with errors, and
// quote or invoice rows that go with them), whole, with their errors, as CSV (docs/decisions/250).
export const loader = ({ request }: LoaderFunctionArgs) =>
  importCsvDownload(request, leftOutCsv, {
    file: (run) => `${run.type}-rows-with-errors.csv`,
    missing: [
      "No rows to download",
      "This preview does not exist, leaves no row out, or was replaced by a newer upload.",
    ],
  });
