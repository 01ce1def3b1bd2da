import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { CsrfInput, FormError } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { useRootData } from "~/components/root-data";
import { IMPORT_COLUMNS, type ImportType } from "~/services/import/columns";
import { PAGE_ERRORS, PAGE_ROWS, type PreviewError, type PreviewRow, type RunView, type UndoStatusOf } from "~/services/import/run-types";
import { formatDateTime } from "~/utils/format";
import { UploadForm } from "./upload-form";
import type { FormFailure } from "~/http/form.server";

/** What each type is, in the recommended order (later types refer to earlier ones). */
export const TYPE_INFO: Record<ImportType, { label: string; noun: string; one: string; text: string; records: string }> = {
  customers: {
    label: "Customers",
    noun: "customers",
    one: "customer",
    text: "The people and businesses you work for: contact details, address and your own customer ID.",
    records: "/customers",
  },
  team: {
    label: "Team",
    noun: "team members",
    one: "team member",
    text: "Office staff and technicians with their role. They sign in later through an invite.",
    records: "/team",
  },
  jobs: {
    label: "Jobs",
    noun: "jobs",
    one: "job",
    text: "Work for your customers, with status, schedule and the technician assigned.",
    records: "/jobs",
  },
  quotes: {
    label: "Quotes",
    noun: "quotes",
    one: "quote",
    text: "Estimates with their line items: one row per line item, rows sharing a number form one quote.",
    records: "/quotes",
  },
  invoices: {
    label: "Invoices",
    noun: "invoices",
    one: "invoice",
    text: "Invoices with their line items and the amount already paid, one row per line item.",
    records: "/invoices",
  },
};

const STATE_BADGE: Record<RunView["state"], [string, string]> = {
  previewed: ["badge", "Previewed"],
  superseded: ["badge badge-muted", "Replaced"],
  committed: ["badge badge-success", "Imported"],
  undone: ["badge badge-warning", "Undone"],
};

const n = (v: number) => v.toLocaleString("en-US");
const plural = (count: number, one: string, many: string) => `${n(count)} ${count === 1 ? one : many}`;

function useTimeZone() {
  return useRootData()?.user?.timeZone ?? "UTC";
}

// --- Landing: the five types -----------------------------------------------------------

export function ImportLanding({ recent, types }: { recent: RunView[]; types: readonly ImportType[] }) {
  return (
    <>
      <PageHeader title="Import data" description="Bring your records over from a spreadsheet or another system, up to 50,000 rows per file." />
      <div className="alert alert-info import-order">
        <p>
          <strong>Recommended order:</strong> {types.map((t) => TYPE_INFO[t].label).join(" → ")}. Jobs, quotes and invoices
          refer to existing customers (and jobs to team members), so import those first. Every file is checked in full before anything is saved.
        </p>
      </div>
      <ol className="import-types">
        {types.map((type, i) => {
          const required = IMPORT_COLUMNS[type].filter((c) => c.required).map((c) => c.name);
          return (
            <li key={type} className="card import-type-card">
              <div className="import-step" aria-hidden="true">{i + 1}</div>
              <div className="import-type-body">
                <h2>{TYPE_INFO[type].label}</h2>
                <p className="muted">{TYPE_INFO[type].text}</p>
                <p className="small muted">
                  {IMPORT_COLUMNS[type].length} columns · required: {required.join(", ")}
                  {type === "jobs" || type === "quotes" || type === "invoices" ? ", and customer_email or customer_external_id" : ""}
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
  const timeZone = useTimeZone();
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
              <th><span className="visually-hidden">Open</span></th>
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
                  <Link to={`/import-data?type=${r.type}&${r.state === "committed" || r.state === "undone" ? "run" : "preview"}=${r.id}`}>Open</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

// --- One type: columns, upload, preview, result ----------------------------------------

export interface PreviewData {
  run: RunView;
  rows: PreviewRow[];
  errors: PreviewError[];
  page: number;
  errorsPage: number;
  onlyInvalid: boolean;
}

export interface ResultData {
  run: RunView;
  undo: UndoStatusOf<string>;
}

export function ImportTypeView({
  type,
  preview,
  result,
  uploadErrors,
}: {
  type: ImportType;
  preview?: PreviewData | null;
  result?: ResultData | null;
  uploadErrors?: string[] | null;
}) {
  const info = TYPE_INFO[type];
  const showUpload = !result || result.run.state === "undone";
  return (
    <>
      <PageHeader
        title={`Import ${info.noun}`}
        description={info.text}
        actions={
          <>
            <Link to="/import-data" className="btn btn-ghost">All import types</Link>
            <a href={`/import-data/sample?type=${type}`} className="btn btn-secondary" download>Download sample CSV</a>
          </>
        }
      />
      {result ? <RunResult type={type} data={result} /> : null}
      {preview ? <Preview type={type} data={preview} /> : null}
      {showUpload ? (
        <section className="card" aria-labelledby="upload-title">
          <h2 id="upload-title">{!preview ? `Upload your ${info.noun}` : preview.run.valid ? "Upload another file" : "Upload a corrected file"}</h2>
          <p className="muted">
            Nothing is saved until you have seen the preview and chosen to import. Start from the{" "}
            <a href={`/import-data/sample?type=${type}`} download>sample file</a> if you are unsure of the format.
          </p>
          {/* A new preview starts with an empty form (with JavaScript the page is not reloaded). */}
          <UploadForm key={preview?.run.id ?? "new"} type={type} errors={uploadErrors} />
        </section>
      ) : null}
      <ColumnsTable type={type} collapsed={Boolean(preview || result)} />
    </>
  );
}

function ColumnsTable({ type, collapsed }: { type: ImportType; collapsed: boolean }) {
  const table = (
    <div className="table-wrap">
      <table className="import-columns">
        <thead>
          <tr>
            <th>Column</th>
            <th>Required</th>
            <th>Format</th>
            <th>Example</th>
          </tr>
        </thead>
        <tbody>
          {IMPORT_COLUMNS[type].map((c) => (
            <tr key={c.name}>
              <td><code>{c.name}</code></td>
              <td>
                {c.required ? (
                  <span className="badge badge-danger">Required</span>
                ) : c.oneOf ? (
                  <span className="badge badge-warning">One of two</span>
                ) : (
                  <span className="muted">Optional</span>
                )}
              </td>
              <td>{c.format}</td>
              <td><code className="import-example">{c.example}</code></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
  const note = (
    <p className="muted small">
      Column names are matched ignoring case and surrounding spaces; columns may come in any order. Unknown columns are ignored with a warning.
    </p>
  );
  if (collapsed) {
    return (
      <details className="card import-columns-card">
        <summary><h2>Columns</h2></summary>
        {note}
        {table}
      </details>
    );
  }
  return (
    <section className="card" aria-labelledby="columns-title">
      <h2 id="columns-title">Columns</h2>
      {note}
      {table}
    </section>
  );
}

// --- Preview ---------------------------------------------------------------------------

function usePageLink() {
  const [params] = useSearchParams();
  return (changes: Record<string, string | null>, hash?: string) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    return `?${next.toString()}${hash ? `#${hash}` : ""}`;
  };
}

function Pager({ page, pages, param, label, hash }: { page: number; pages: number; param: string; label: string; hash: string }) {
  const link = usePageLink();
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      {page > 1 ? <Link to={link({ [param]: String(page - 1) }, hash)} className="btn btn-secondary btn-sm" preventScrollReset>← Previous</Link> : <span />}
      <span className="muted small">Page {n(page)} of {n(pages)}</span>
      {page < pages ? <Link to={link({ [param]: String(page + 1) }, hash)} className="btn btn-secondary btn-sm" preventScrollReset>Next →</Link> : <span />}
    </nav>
  );
}

/** Which header of the file went to which field (a file in another product's columns). */
function MappingList({ mapping }: { mapping: NonNullable<RunView["mapping"]> }) {
  const used = mapping.columns.filter((c) => c.field);
  const ignored = mapping.columns.length - used.length;
  return (
    <details className="import-mapping" open={mapping.columns.length <= 24}>
      <summary>
        <strong>{mapping.preset ? `Recognised: ${mapping.preset}.` : "Your columns were matched."}</strong> {plural(used.length, "column goes", "columns go")} to these fields
        {ignored ? `; ${plural(ignored, "column is", "columns are")} not imported` : ""}.
      </summary>
      <ul className="import-mapping-list" aria-label="Columns and fields">
        {used.map((c) => (
          <li key={c.header}>
            {c.header} → <code>{c.field!.replace(/@(\d+)$/, " (property $1)")}</code>
          </li>
        ))}
      </ul>
    </details>
  );
}

function Preview({ type, data }: { type: ImportType; data: PreviewData }) {
  const { run } = data;
  const info = TYPE_INFO[type];
  const timeZone = useTimeZone();
  const isDocs = run.documentCount !== null;
  const records = isDocs ? run.documentCount! : run.rowCount;
  return (
    <>
      <section className="card" aria-labelledby="preview-title">
        <div className="card-header">
          <h2 id="preview-title">Preview{run.fileName ? `: ${run.fileName}` : " of the pasted text"}</h2>
          <span className="muted small">Uploaded {formatDateTime(run.createdAt, timeZone)}</span>
        </div>
        <div className="import-stats">
          <Stat label="Rows" value={n(run.rowCount)} />
          <Stat label="Valid" value={n(run.validCount)} tone={run.validCount ? "success" : undefined} />
          <Stat label="With errors" value={n(run.invalidCount)} tone={run.invalidCount ? "danger" : undefined} />
          <Stat label="Warnings" value={n(run.warnings.length)} tone={run.warnings.length ? "warning" : undefined} />
          {isDocs ? <Stat label={info.label} value={`${n(run.documentCount!)}`} hint={`${plural(run.itemCount ?? 0, "line item", "line items")}`} /> : null}
        </div>
        {run.warnings.length ? (
          <div className="alert alert-warning">
            <p><strong>{plural(run.warnings.length, "warning", "warnings")}</strong> (the import can go ahead):</p>
            <ul>{run.warnings.map((w) => <li key={w}>{w}</li>)}</ul>
          </div>
        ) : null}
        {run.mapping ? <MappingList mapping={run.mapping} /> : null}
        {run.state === "superseded" ? (
          <div className="alert alert-warning" role="status">
            <p>
              A newer {info.one} file was uploaded after this one, so this preview can no longer be imported.{" "}
              <Link to={`/import-data?type=${type}`}>Go to the import page</Link>.
            </p>
          </div>
        ) : run.valid ? (
          <div className="import-commit">
            <p>
              <strong>All {plural(run.rowCount, "row is", "rows are")} valid.</strong> Importing adds {plural(records, info.one, info.noun)}
              {isDocs ? ` with ${plural(run.itemCount ?? 0, "line item", "line items")}` : ""}. You can undo it for 24 hours, as long as nothing was changed.
            </p>
            <Form method="post" action="/import-data/commit">
              <CsrfInput />
              <input type="hidden" name="previewId" value={run.id} />
              <button type="submit" className="btn btn-primary btn-lg">Import {plural(records, info.one, info.noun)}</button>
            </Form>
          </div>
        ) : (
          <div className="alert alert-error" role="alert">
            <p>
              <strong>{plural(run.invalidCount, "row has", "rows have")} errors, so nothing can be imported yet.</strong> Fix them in your file and
              upload it again below; every row is checked again.
            </p>
          </div>
        )}
      </section>
      {run.errorCount ? <ErrorList run={run} errors={data.errors} page={data.errorsPage} /> : null}
      <RowsTable run={run} rows={data.rows} page={data.page} onlyInvalid={data.onlyInvalid} />
    </>
  );
}

function Stat({ label, value, hint, tone }: { label: string; value: string; hint?: string; tone?: "success" | "danger" | "warning" }) {
  return (
    <div className={`stat import-stat${tone ? ` import-stat-${tone}` : ""}`}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
      {hint ? <div className="small muted">{hint}</div> : null}
    </div>
  );
}

function ErrorList({ run, errors, page }: { run: RunView; errors: PreviewError[]; page: number }) {
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
        <a href={`/import-data/errors?preview=${run.id}`} className="btn btn-secondary btn-sm" download>Download errors (CSV)</a>
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

function RowsTable({ run, rows, page, onlyInvalid }: { run: RunView; rows: PreviewRow[]; page: number; onlyInvalid: boolean }) {
  const link = usePageLink();
  const total = onlyInvalid ? run.invalidCount : run.rowCount;
  const pages = Math.max(1, Math.ceil(total / PAGE_ROWS));
  return (
    <section className="card" id="rows" aria-labelledby="rows-title">
      <div className="card-header">
        <h2 id="rows-title">Rows</h2>
        {run.invalidCount ? (
          <div className="import-filter" role="group" aria-label="Which rows">
            <Link to={link({ rows: null, page: null }, "rows")} aria-current={!onlyInvalid ? "true" : undefined} preventScrollReset>
              All rows ({n(run.rowCount)})
            </Link>
            <Link to={link({ rows: "invalid", page: null }, "rows")} aria-current={onlyInvalid ? "true" : undefined} preventScrollReset>
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
              for (const [column, message] of r.errors) byColumn.set(column, [...(byColumn.get(column) ?? []), message]);
              const rowErrors = byColumn.get(null);
              return (
                <tr key={r.row} className={r.errors.length ? "import-row-bad" : undefined}>
                  <td className="num">{n(r.row)}</td>
                  <td>
                    {r.errors.length ? <span className="badge badge-danger">{plural(r.errors.length, "error", "errors")}</span> : <span className="badge badge-success">OK</span>}
                    {rowErrors?.map((m) => <div key={m} className="import-cell-error">{m}</div>)}
                  </td>
                  {run.headers.map((h, i) => {
                    const problems = byColumn.get(h);
                    return (
                      <td key={h} className={problems ? "import-cell-bad" : undefined} aria-invalid={problems ? true : undefined}>
                        <span className="import-cell">{r.cells[i] || <span className="muted">—</span>}</span>
                        {problems?.map((m) => <div key={m} className="import-cell-error">{m}</div>)}
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

// --- Result ----------------------------------------------------------------------------

function RunResult({ type, data }: { type: ImportType; data: ResultData }) {
  const { run, undo } = data;
  const info = TYPE_INFO[type];
  const timeZone = useTimeZone();
  const count = run.importedCount ?? 0;
  const what = plural(count, info.one, info.noun);
  if (run.state === "undone") {
    return (
      <section className="card import-result import-result-undone" aria-labelledby="result-title">
        <h2 id="result-title">Import undone</h2>
        <p>
          The {what} this import created {count === 1 ? "was" : "were"} removed on {formatDateTime(run.undoneAt, timeZone)}. You can upload the file
          again below.
        </p>
      </section>
    );
  }
  return (
    <section className="card import-result" aria-labelledby="result-title">
      <h2 id="result-title">Imported {what}</h2>
      <p className="muted">
        From {run.fileName ?? "pasted text"}, imported {formatDateTime(run.committedAt, timeZone)}
        {run.createdByName ? ` (uploaded by ${run.createdByName})` : ""}.
      </p>
      <div className="import-result-actions">
        <Link to={info.records} className="btn btn-primary">View {info.noun}</Link>
        <Link to={`/import-data?type=${type}`} className="btn btn-secondary">Import another file</Link>
      </div>
      <div className="import-undo">
        {undo.available ? (
          <Form method="post" action="/import-data/undo" className="import-undo-form">
            <CsrfInput />
            <input type="hidden" name="runId" value={run.id} />
            <p>
              Made a mistake? Undo removes exactly the {what} this import created. Available until {formatDateTime(undo.until, timeZone)}, while none of
              them has been changed or used.
            </p>
            <button type="submit" className="btn btn-danger">Undo this import</button>
          </Form>
        ) : (
          <p className="muted">{undo.reason}</p>
        )}
      </div>
    </section>
  );
}

/** The message page of a refused commit or undo (409, 422), with the way back. */
/** The page of /import-data/commit or /undo: the refusal of the post, or a hint on a plain visit. */
export function ImportFormRefused({ field, refused, idle }: { field: "previewId" | "runId"; refused: string; idle: [title: string, hint: string] }) {
  const result = useActionData<FormFailure>();
  const id = result?.values?.[field];
  const query = field === "previewId" ? "preview" : "run";
  return (
    <ImportRefused
      title={result ? refused : idle[0]}
      errors={result?.formErrors ?? [idle[1]]}
      back={typeof id === "string" && id ? `/import-data?${query}=${encodeURIComponent(id)}` : "/import-data"}
    />
  );
}

export function ImportRefused({ title, errors, back }: { title: string; errors?: string[] | null; back: string }) {
  return (
    <>
      <PageHeader title={title} />
      <FormError errors={errors?.length ? errors : ["Nothing was changed."]} />
      <p>
        <Link to={back} className="btn btn-primary">Back to the import</Link>{" "}
        <Link to="/import-data" className="btn btn-ghost">All import types</Link>
      </p>
    </>
  );
}
