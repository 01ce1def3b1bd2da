import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { CsrfInput } from "~/components/forms";
import { EmptyState, PageHeader } from "~/components/layout";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { readStaffForm } from "~/http/conform.server";
import type { RouteRules } from "~/http/route-rules";
import { EXPORT_KEEP_HOURS, listExports, startExport, type ExportRow } from "~/services/export/export.server";
import { formatDateTime } from "~/utils/format";
import exportStyles from "~/styles/export.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: exportStyles }];

// /settings/export (owner, admin): "Export everything" builds one ZIP of the whole business in
// the background (docs/decisions/360-account-export.md); the page shows its progress (it reloads
// itself while one runs, with or without JavaScript), the download for 24 hours and the history.

// This route's rules for the boundary and the early checks (docs/decisions/265): the page and
// its start share the reports' fair-sharing class.
export const handle: RouteRules = { work: "report" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: "Export your data · Fieldwork" },
  // While an export runs the page reloads itself every 2 seconds: progress without JavaScript.
  ...(data?.exports.some((e) => e.state === "running") ? [{ httpEquiv: "refresh", content: "2" } as const] : []),
];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "export_account");
  const exports = await listExports(actorOf(user));
  return json({ exports, timeZone: user.timeZone, keepHours: EXPORT_KEEP_HOURS });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "export_account");
  await readStaffForm(request);
  await startExport({ ...actorOf(user), name: user.name });
  return redirect("/settings/export", 303);
}

const STATE_LABEL: Record<ExportRow["state"], string> = {
  running: "Running",
  ready: "Ready",
  failed: "Failed",
  expired: "Expired",
};
const STATE_TONE: Record<ExportRow["state"], string> = {
  running: "",
  ready: "badge-success",
  failed: "badge-danger",
  expired: "badge-muted",
};

function megabytes(bytes: number | null): string {
  if (bytes === null) return "";
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** "customers: 1,204, team members: 3, ..." from the manifest's counts, in the ZIP's order. */
function countsText(counts: [string, number][] | null): string {
  if (!counts) return "";
  return counts.map(([what, n]) => `${what}: ${n.toLocaleString("en-US")}`).join(", ");
}

export default function ExportSettings() {
  const { exports, timeZone, keepHours } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const running = exports.find((e) => e.state === "running");
  const latestReady = exports.find((e) => e.state === "ready");
  return (
    <div className="stack">
      <PageHeader
        title="Export your data"
        description="Everything your business keeps in Fieldwork, as one ZIP file: a CSV file per kind of record, photos and signatures as image files, and a manifest with the counts."
      />

      <section className="card stack" aria-labelledby="export-now">
        <h2 id="export-now">Export everything</h2>
        <p>
          Customers, team, jobs, quotes and invoices are written in the columns of the CSV import, so the files import
          back into Fieldwork (in that order) or into another product. Properties, visits, payments, time entries, the
          price book, checklists, job notes, booking requests and the history of every record come as further CSV files.
          The file is kept for {keepHours} hours.
        </p>
        {running ? (
          <div className="progress-panel stack" role="status" aria-live="polite">
            <p>
              <strong>Export under way</strong>, started by {running.requestedByName}:{" "}
              {running.step ? <>writing {running.step}, </> : null}
              step {Math.min(running.stepsDone + 1, running.stepsTotal)} of {running.stepsTotal}.
            </p>
            <progress
              max={running.stepsTotal}
              value={running.stepsDone}
              aria-label={`Export progress: ${running.stepsDone} of ${running.stepsTotal} steps`}
            />
            <p className="muted">
              This page refreshes itself. <a href="/settings/export">Reload</a>
            </p>
          </div>
        ) : (
          <Form method="post">
            <CsrfInput />
            <button type="submit" className="btn btn-primary" disabled={navigation.state !== "idle"}>
              Export everything
            </button>
          </Form>
        )}
        {latestReady && !running ? (
          <p className="alert alert-success">
            Your export of {formatDateTime(latestReady.createdAt, timeZone)} is ready:{" "}
            <a href={`/settings/export/${latestReady.id}.zip`} download>
              Download the ZIP ({megabytes(latestReady.byteSize)})
            </a>
            , until {formatDateTime(latestReady.expiresAt, timeZone)}.
          </p>
        ) : null}
      </section>

      <section className="card stack" aria-labelledby="export-history">
        <h2 id="export-history">History</h2>
        {exports.length === 0 ? (
          <EmptyState title="No exports yet">
            <p>Each export is listed here: who asked for it, when, and what it holds.</p>
          </EmptyState>
        ) : (
          <ul className="export-history">
            {exports.map((e) => (
              <li key={e.id}>
                <div className="export-head">
                  <strong>{formatDateTime(e.createdAt, timeZone)}</strong>
                  <span>by {e.requestedByName}</span>
                  <span className={`badge ${STATE_TONE[e.state]}`}>{STATE_LABEL[e.state]}</span>
                  {e.state === "ready" ? (
                    <a href={`/settings/export/${e.id}.zip`} download>
                      Download ({megabytes(e.byteSize)})
                    </a>
                  ) : e.state === "expired" ? (
                    <span className="muted">Deleted after {keepHours} hours</span>
                  ) : null}
                </div>
                {e.counts ? <div className="export-counts">{countsText(e.counts)}</div> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
