// Section 5's columns of one import type: name, required, format, example.
import { IMPORT_COLUMNS, type ImportType } from "~/services/import/columns";

export function ColumnsTable({ type, collapsed }: { type: ImportType; collapsed: boolean }) {
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
              <td>
                <code>{c.name}</code>
              </td>
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
              <td>
                <code className="import-example">{c.example}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
  const note = (
    <p className="muted small">
      Column names are matched ignoring case and surrounding spaces; columns may come in any order. Unknown columns are
      ignored with a warning.
    </p>
  );
  if (collapsed) {
    return (
      <details className="card import-columns-card">
        <summary>
          <h2>Columns</h2>
        </summary>
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
