// A stored preview: counts, warnings, the mapping of another product's columns, and the
// commit form (conform; a plain post, JavaScript off or on).
import { getFormProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { CsrfInput, FormError, useConformForm } from "~/components/forms";
import type { ImportType } from "~/services/import/columns";
import type { PreviewError, PreviewRow, RunView } from "~/services/import/run-types";
import { commitPreviewSchema } from "~/services/import/schemas";
import { formatDateTime } from "~/utils/format";
import { n, plural, useImportTimeZone } from "./format";
import { ErrorList, RowsTable } from "./preview-tables";
import { TYPE_INFO } from "./type-info";

export interface PreviewData {
  run: RunView;
  rows: PreviewRow[];
  errors: PreviewError[];
  page: number;
  errorsPage: number;
  onlyInvalid: boolean;
}

/** Which header of the file went to which field (a file in another product's columns). */
function MappingList({ mapping }: { mapping: NonNullable<RunView["mapping"]> }) {
  const used = mapping.columns.filter((c) => c.field);
  const ignored = mapping.columns.length - used.length;
  return (
    <details className="import-mapping" open={mapping.columns.length <= 24}>
      <summary>
        <strong>{mapping.preset ? `Recognised: ${mapping.preset}.` : "Your columns were matched."}</strong>{" "}
        {plural(used.length, "column goes", "columns go")} to these fields
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

export function Preview({ type, data }: { type: ImportType; data: PreviewData }) {
  const { run } = data;
  const info = TYPE_INFO[type];
  const timeZone = useImportTimeZone();
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
          {isDocs ? (
            <Stat
              label={info.label}
              value={`${n(run.documentCount!)}`}
              hint={`${plural(run.itemCount ?? 0, "line item", "line items")}`}
            />
          ) : null}
        </div>
        {run.warnings.length ? (
          <div className="alert alert-warning">
            <p>
              <strong>{plural(run.warnings.length, "warning", "warnings")}</strong> (the import can go ahead):
            </p>
            <ul>
              {run.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
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
              <strong>All {plural(run.rowCount, "row is", "rows are")} valid.</strong> Importing adds{" "}
              {plural(records, info.one, info.noun)}
              {isDocs ? ` with ${plural(run.itemCount ?? 0, "line item", "line items")}` : ""}. You can undo it for 24
              hours, as long as nothing was changed.
            </p>
            {run.leftOutCount ? (
              <p>
                {plural(run.leftOutCount, "row", "rows")} of the file {run.leftOutCount === 1 ? "was" : "were"} left out
                because of errors.{" "}
                <a href={`/import-data/left-out?preview=${run.id}`} download>
                  Download {run.leftOutCount === 1 ? "it" : "them"} with {run.leftOutCount === 1 ? "its" : "their"}{" "}
                  errors (CSV)
                </a>{" "}
                to fix and import later.
              </p>
            ) : null}
            <PreviewForm
              runId={run.id}
              intent="commit"
              label={`Import ${plural(records, info.one, info.noun)}`}
              primary
            />
          </div>
        ) : (
          <div className="alert alert-error" role="alert">
            <p>
              <strong>
                {plural(run.invalidCount, "row has", "rows have")} errors, so the file cannot be imported as it is.
              </strong>
            </p>
            <ul>
              <li>
                Fix them in your file and upload it again below; every row is checked again. The{" "}
                <a href={`/import-data/left-out?preview=${run.id}`} download>
                  rows with errors (CSV)
                </a>{" "}
                list each row whole with its errors.
              </li>
              {run.importableCount ? (
                <li>
                  Or import only the valid rows: a new preview of the {plural(run.importableCount, "row", "rows")} that
                  can be imported on their own
                  {isDocs ? " (whole " + info.noun + " only)" : ""}; the others are left out, to download and fix later.
                  <PreviewForm
                    runId={run.id}
                    intent="valid-rows"
                    label={`Preview the ${plural(run.importableCount, "valid row", "valid rows")}`}
                  />
                </li>
              ) : null}
            </ul>
          </div>
        )}
      </section>
      {run.errorCount ? <ErrorList run={run} errors={data.errors} page={data.errorsPage} /> : null}
      <RowsTable run={run} rows={data.rows} page={data.page} onlyInvalid={data.onlyInvalid} />
    </>
  );
}

function Stat({
  label,
  value,
  hint,
  tone,
}: {
  label: string;
  value: string;
  hint?: string;
  tone?: "success" | "danger" | "warning";
}) {
  return (
    <div className={`stat import-stat${tone ? ` import-stat-${tone}` : ""}`}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
      {hint ? <div className="small muted">{hint}</div> : null}
    </div>
  );
}

/**
 * A post of the preview's id to /import-data/commit with one button: import it, or (valid-rows)
 * make a new preview of its valid rows. Refusals are a page of their own.
 */
function PreviewForm({
  runId,
  intent,
  label,
  primary,
}: {
  runId: string;
  intent: "commit" | "valid-rows";
  label: string;
  primary?: boolean;
}) {
  const [form, fields] = useConformForm(commitPreviewSchema, { id: `import-${intent}-${runId}`, serverOnly: true });
  return (
    <Form method="post" action="/import-data/commit" {...getFormProps(form)}>
      <CsrfInput />
      <FormError errors={form.errors} />
      <input type="hidden" name={fields.previewId.name} value={runId} />
      <input type="hidden" name={fields.intent.name} value={intent} />
      <button type="submit" className={primary ? "btn btn-primary btn-lg" : "btn btn-secondary"}>
        {label}
      </button>
    </Form>
  );
}
