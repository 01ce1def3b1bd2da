// GET /import-data without a type: the five types in the recommended order, and recent imports.
import { Link } from "@remix-run/react";
import { PageHeader } from "~/components/layout";
import { IMPORT_COLUMNS, type ImportType } from "~/services/import/columns";
import type { RunView } from "~/services/import/run-types";
import { formatDateTime } from "~/utils/format";
import { n, useImportTimeZone } from "./format";
import { TYPE_INFO } from "./type-info";

const STATE_BADGE: Record<RunView["state"], [string, string]> = {
  previewed: ["badge", "Previewed"],
  superseded: ["badge badge-muted", "Replaced"],
  committed: ["badge badge-success", "Imported"],
  undone: ["badge badge-warning", "Undone"],
};

export function ImportLanding({ recent, types }: { recent: RunView[]; types: readonly ImportType[] }) {
  return (
    <>
      <PageHeader
        title="Import data"
        description="Bring your records over from a spreadsheet or another system, up to 50,000 rows per file."
      />
      <div className="alert alert-info import-order">
        <p>
          <strong>Recommended order:</strong> {types.map((t) => TYPE_INFO[t].label).join(" → ")}. Jobs, quotes and
          invoices refer to existing customers (and jobs to team members), so import those first. Every file is checked
          in full before anything is saved.
        </p>
      </div>
      <ol className="import-types">
        {types.map((type, i) => {
          const required = IMPORT_COLUMNS[type].filter((c) => c.required).map((c) => c.name);
          return (
            <li key={type} className="card import-type-card">
              <div className="import-step" aria-hidden="true">
                {i + 1}
              </div>
              <div className="import-type-body">
                <h2>{TYPE_INFO[type].label}</h2>
                <p className="muted">{TYPE_INFO[type].text}</p>
                <p className="small muted">
                  {IMPORT_COLUMNS[type].length} columns · required: {required.join(", ")}
                  {type === "jobs" || type === "quotes" || type === "invoices"
                    ? ", and customer_email or customer_external_id"
                    : ""}
                </p>
              </div>
              <div className="import-type-actions">
                <Link to={`/import-data?type=${type}`} className="btn btn-primary">
                  Import {TYPE_INFO[type].noun}
                </Link>
                <a href={`/import-data/sample?type=${type}`} className="btn btn-secondary btn-sm" download>
                  Sample CSV
                </a>
              </div>
            </li>
          );
        })}
      </ol>
      <RecentRuns runs={recent} />
    </>
  );
}

function RecentRuns({ runs }: { runs: RunView[] }) {
  const timeZone = useImportTimeZone();
  if (!runs.length) return null;
  return (
    <section className="card" aria-labelledby="recent-imports">
      <h2 id="recent-imports">Recent imports</h2>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Type</th>
              <th>File</th>
              <th className="num">Rows</th>
              <th>State</th>
              <th>Uploaded</th>
              <th>
                <span className="visually-hidden">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.id}>
                <td>{TYPE_INFO[r.type].label}</td>
                <td>{r.fileName ?? <span className="muted">Pasted text</span>}</td>
                <td className="num">{n(r.rowCount)}</td>
                <td>
                  <span className={STATE_BADGE[r.state][0]}>{STATE_BADGE[r.state][1]}</span>
                </td>
                <td>
                  {formatDateTime(r.createdAt, timeZone)}
                  {r.createdByName ? <span className="muted"> · {r.createdByName}</span> : null}
                </td>
                <td>
                  <Link
                    to={`/import-data?type=${r.type}&${r.state === "committed" || r.state === "undone" ? "run" : "preview"}=${r.id}`}
                  >
                    Open
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
