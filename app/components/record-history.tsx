import { DateTime } from "~/components/records";
import { historySentence, type HistoryLine } from "~/services/history/types";

const SOURCE_LABEL: Record<HistoryLine["source"], string | null> = {
  staff: null,
  portal: "Customer portal",
  field: "Field app",
  import: "Import",
  system: "Automatic",
};

/** A record's history, newest first: who did what and when (docs/decisions/120). */
export function RecordHistory({ entries, title = "History" }: { entries: HistoryLine[]; title?: string }) {
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">{title}</h2>
      {entries.length ? (
        <ol className="timeline history" aria-label={`${title}, newest first`}>
          {entries.map((e) => (
            <li key={e.id} className={`history-${e.source}`}>
              <p className="history-sentence">{historySentence(e)}</p>
              <p className="timeline-meta">
                <DateTime value={e.at} />
                {SOURCE_LABEL[e.source] ? <> · {SOURCE_LABEL[e.source]}</> : null}
              </p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">Nothing recorded yet.</p>
      )}
    </section>
  );
}
