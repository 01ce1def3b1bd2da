import { getFormProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { CsrfInput, FieldErrors, FormError, useConformForm } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import type { ImportType } from "~/services/import/columns";
import { mapUploadSchema } from "~/services/import/mapping/schema";
import { IGNORE, mappingTargets, splitTarget } from "~/services/import/mapping/targets";
import type { MatchHow } from "~/services/import/mapping/match";
import { TYPE_INFO } from "./type-info";

export interface MappingStepData {
  id: string;
  type: ImportType;
  fileName: string | null;
  fileBytes: number;
  columns: { index: number; header: string; values: string[]; field: string; how: MatchHow }[];
  missing: string[];
}

const HOW: Partial<Record<MatchHow, [string, string]>> = {
  exact: ["badge badge-success", "Same name"],
  alias: ["badge badge-success", "Known name"],
  preset: ["badge badge-success", "Recognised export"],
  remembered: ["badge badge-success", "Your last choice"],
  close: ["badge badge-warning", "Check: similar name"],
  ambiguous: ["badge badge-warning", "Check: could be several fields"],
  none: ["badge badge-muted", "Not recognised"],
};

/**
 * The mapping step (GET /import-data?type=T&upload=<id>): each column of the file with its
 * first values and a select of the type's fields, chosen in advance. A plain form post, so it
 * works with JavaScript off; the server's answer puts a message beside the column at fault.
 */
export function MappingStep({
  upload,
  lastResult,
}: {
  upload: MappingStepData;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const info = TYPE_INFO[upload.type];
  const targets = mappingTargets(upload.type);
  const [form, fields] = useConformForm(mapUploadSchema, {
    id: "import-map",
    lastResult,
    serverOnly: true,
    defaultValue: {
      uploadId: upload.id,
      column: Object.fromEntries(upload.columns.map((c) => [String(c.index), c.field])),
    },
  });
  const columnErrors = fields.column.errors;
  const errorOf = (i: number) => (form.allErrors[`column.${i}`] as string[] | undefined) ?? undefined;
  const required = targets.filter((t) => t.required).map((t) => t.name);
  const chosen = (i: number, fallback: string) => {
    const initial = (form.initialValue as { column?: Record<string, unknown> } | undefined)?.column?.[String(i)];
    return typeof initial === "string" ? initial : fallback;
  };
  return (
    <>
      <PageHeader
        title={`Match your columns: ${info.noun}`}
        description={`${upload.fileName ?? "Pasted text"} · ${upload.columns.length} columns. Choose the field each column goes to; nothing is saved until you import from the preview.`}
        actions={
          <Link to={`/import-data?type=${upload.type}`} className="btn btn-ghost">
            Upload another file
          </Link>
        }
      />
      <Form
        method="post"
        action={`/import-data/map?type=${upload.type}&upload=${upload.id}`}
        className="card stack import-map"
        {...getFormProps(form)}
      >
        <CsrfInput />
        <input type="hidden" name="uploadId" value={upload.id} />
        <FormError errors={form.errors} />
        <p className="muted">
          Required:{" "}
          {required.map((r, i) => (
            <span key={r}>
              {i ? ", " : ""}
              <code>{r}</code>
            </span>
          ))}
          {upload.type === "customers" ? " (or First name and Last name)" : ""}. Columns set to “Ignore” are not
          imported. We remember your choice for files with the same columns.
        </p>
        <div id="field-column" className={columnErrors?.length ? "field-invalid" : undefined}>
          <FieldErrors id="field-column-error" errors={columnErrors} />
        </div>
        <div className="table-wrap">
          <table className="import-map-table">
            <thead>
              <tr>
                <th scope="col">Column in your file</th>
                <th scope="col">First values</th>
                <th scope="col">Import as</th>
              </tr>
            </thead>
            <tbody>
              {upload.columns.map((c) => {
                const errors = errorOf(c.index);
                const selectId = `field-column-${c.index}`;
                const [badgeClass, badgeText] = HOW[c.how] ?? ["badge", c.how];
                const current = chosen(c.index, c.field);
                const grouped = current !== IGNORE && current.includes("@");
                return (
                  <tr
                    key={c.index}
                    className={c.how === "close" || c.how === "ambiguous" ? "import-map-check" : undefined}
                  >
                    <th scope="row">
                      <label htmlFor={selectId}>{c.header}</label>
                      <div>
                        <span className={badgeClass}>{badgeText}</span>
                      </div>
                    </th>
                    <td className="import-map-values">
                      {c.values.length ? (
                        c.values.map((v, i) => (
                          <div key={i} className="import-cell">
                            {v}
                          </div>
                        ))
                      ) : (
                        <span className="muted">(empty)</span>
                      )}
                    </td>
                    <td>
                      <select
                        id={selectId}
                        name={`column.${c.index}`}
                        defaultValue={current}
                        aria-invalid={errors?.length || (columnErrors?.length && current === IGNORE) ? true : undefined}
                        aria-describedby={
                          errors?.length ? `${selectId}-error` : columnErrors?.length ? "field-column-error" : undefined
                        }
                      >
                        <option value={IGNORE}>Ignore this column</option>
                        {grouped ? (
                          <option
                            value={current}
                          >{`${splitTarget(current)[0]} (property ${splitTarget(current)[1]})`}</option>
                        ) : null}
                        {targets.map((t) => (
                          <option key={t.name} value={t.name}>
                            {t.label}
                            {t.required ? " (required)" : ""}
                          </option>
                        ))}
                      </select>
                      <FieldErrors id={`${selectId}-error`} errors={errors} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <div>
          <button type="submit" className="btn btn-primary">
            Continue to the preview
          </button>
        </div>
      </Form>
    </>
  );
}
