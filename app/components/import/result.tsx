// A committed (or undone) import: what it made, and the undo form while undo is available
// (conform; a plain post, JavaScript off or on).
import { getFormProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { CsrfInput, useConformForm } from "~/components/forms";
import type { ImportType } from "~/services/import/columns";
import type { RunView, UndoStatusOf } from "~/services/import/run-types";
import { undoImportSchema } from "~/services/import/schemas";
import { formatDateTime } from "~/utils/format";
import { plural, useImportTimeZone } from "./format";
import { TYPE_INFO } from "./type-info";

export interface ResultData {
  run: RunView;
  undo: UndoStatusOf<string>;
}

export function RunResult({ type, data }: { type: ImportType; data: ResultData }) {
  const { run, undo } = data;
  const info = TYPE_INFO[type];
  const timeZone = useImportTimeZone();
  const count = run.importedCount ?? 0;
  const what = plural(count, info.one, info.noun);
  if (run.state === "undone") {
    return (
      <section className="card import-result import-result-undone" aria-labelledby="result-title">
        <h2 id="result-title">Import undone</h2>
        <p>
          The {what} this import created {count === 1 ? "was" : "were"} removed on{" "}
          {formatDateTime(run.undoneAt, timeZone)}. You can upload the file again below.
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
        <Link to={info.records} className="btn btn-primary">
          View {info.noun}
        </Link>
        <Link to={`/import-data?type=${type}`} className="btn btn-secondary">
          Import another file
        </Link>
      </div>
      <div className="import-undo">
        {undo.available ? (
          <UndoForm runId={run.id}>
            <p>
              Made a mistake? Undo removes exactly the {what} this import created. Available until{" "}
              {formatDateTime(undo.until, timeZone)}, while none of them has been changed or used.
            </p>
          </UndoForm>
        ) : (
          <p className="muted">{undo.reason}</p>
        )}
      </div>
    </section>
  );
}

/** POST /import-data/undo: the run's id and the button (its refusals are a page of their own). */
function UndoForm({ runId, children }: { runId: string; children: React.ReactNode }) {
  const [form, fields] = useConformForm(undoImportSchema, { id: `import-undo-${runId}`, serverOnly: true });
  return (
    <Form method="post" action="/import-data/undo" className="import-undo-form" {...getFormProps(form)}>
      <CsrfInput />
      <input type="hidden" name={fields.runId.name} value={runId} />
      {children}
      <button type="submit" className="btn btn-danger">
        Undo this import
      </button>
    </Form>
  );
}
