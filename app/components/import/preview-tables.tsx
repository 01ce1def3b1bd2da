// A preview's errors (row, column, message) and its rows with each bad cell marked, paged.
import { Link } from "@remix-run/react";
import { PAGE_ERRORS, PAGE_ROWS, type PreviewError, type PreviewRow, type RunView } from "~/services/import/run-types";
import { n, plural } from "./format";
import { Pager, usePageLink } from "./pager";

export function ErrorList({ run, errors, page }: { run: RunView; errors: PreviewError[]; page: number }) {
  const pages = Math.max(1, Math.ceil(run.errorCount / PAGE_ERRORS));
  return (
    <details className="card import-errors" id="errors" open>
      <summary>
        <h2>
          Errors <span className="badge badge-danger">{n(run.errorCount)}</span>
        </h2>
      </summary>
      <div className="import-errors-bar">
        <p className="muted small">Row numbers count the header as row 1, as a spreadsheet shows them.</p>
        <a href={`/import-data/errors?preview=${run.id}`} className="btn btn-secondary btn-sm" download>
          Download errors (CSV)
        </a>
      </div>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th className="num">Row</th>
              <th>Column</th>
              <th>Problem</th>
            </tr>
          </thead>
          <tbody>
            {errors.map((e, i) => (
              <tr key={`${e.row}-${i}`}>
                <td className="num">{n(e.row)}</td>
                <td>{e.column ? <code>{e.column}</code> : <span className="muted">whole row</span>}</td>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={page} pages={pages} param="errors" label="Error pages" hash="errors" />
    </details>
  );
}

export function RowsTable({
  run,
  rows,
  page,
  onlyInvalid,
}: {
  run: RunView;
  rows: PreviewRow[];
  page: number;
  onlyInvalid: boolean;
}) {
  const link = usePageLink();
  const total = onlyInvalid ? run.invalidCount : run.rowCount;
  const pages = Math.max(1, Math.ceil(total / PAGE_ROWS));
  return (
    <section className="card" id="rows" aria-labelledby="rows-title">
      <div className="card-header">
        <h2 id="rows-title">Rows</h2>
        {run.invalidCount ? (
          <div className="import-filter" role="group" aria-label="Which rows">
            <Link
              to={link({ rows: null, page: null }, "rows")}
              aria-current={!onlyInvalid ? "true" : undefined}
              preventScrollReset
            >
              All rows ({n(run.rowCount)})
            </Link>
            <Link
              to={link({ rows: "invalid", page: null }, "rows")}
              aria-current={onlyInvalid ? "true" : undefined}
              preventScrollReset
            >
              Rows with errors ({n(run.invalidCount)})
            </Link>
          </div>
        ) : null}
      </div>
      <div className="table-wrap import-rows">
        <table>
          <thead>
            <tr>
              <th className="num">Row</th>
              <th>Status</th>
              {run.headers.map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const byColumn = new Map<string | null, string[]>();
              for (const [column, message] of r.errors)
                byColumn.set(column, [...(byColumn.get(column) ?? []), message]);
              const rowErrors = byColumn.get(null);
              return (
                <tr key={r.row} className={r.errors.length ? "import-row-bad" : undefined}>
                  <td className="num">{n(r.row)}</td>
                  <td>
                    {r.errors.length ? (
                      <span className="badge badge-danger">{plural(r.errors.length, "error", "errors")}</span>
                    ) : (
                      <span className="badge badge-success">OK</span>
                    )}
                    {rowErrors?.map((m) => (
                      <div key={m} className="import-cell-error">
                        {m}
                      </div>
                    ))}
                  </td>
                  {run.headers.map((h, i) => {
                    const problems = byColumn.get(h);
                    return (
                      <td
                        key={h}
                        className={problems ? "import-cell-bad" : undefined}
                        aria-invalid={problems ? true : undefined}
                      >
                        <span className="import-cell">{r.cells[i] || <span className="muted">—</span>}</span>
                        {problems?.map((m) => (
                          <div key={m} className="import-cell-error">
                            {m}
                          </div>
                        ))}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager page={page} pages={pages} param="page" label="Row pages" hash="rows" />
    </section>
  );
}
