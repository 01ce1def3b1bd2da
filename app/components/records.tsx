import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import { useRootData } from "~/components/root-data";
import { formatDateTime, formatMoney, humanize } from "~/utils/format";
import { statusTone } from "~/services/records/statuses";

// Pieces every back-office page uses: dates in the tenant's time zone, money with its
// currency, status badges, the search-and-filter bar, and Next/Previous links.

export function useTimeZone(): string {
  return useRootData()?.user?.timeZone ?? "UTC";
}

export function DateTime({ value }: { value: string | Date | null | undefined }) {
  const timeZone = useTimeZone();
  if (!value) return <span className="muted">—</span>;
  return <time dateTime={new Date(value).toISOString()}>{formatDateTime(value, timeZone)}</time>;
}

export function Money({ cents, currency }: { cents: number; currency: string }) {
  return <span className="money">{formatMoney(Number(cents), currency)}</span>;
}

export function StatusBadge({ status, label }: { status: string; label?: string }) {
  const tone = statusTone(status);
  return <span className={`badge ${tone === "info" ? "" : `badge-${tone}`}`}>{label ?? humanize(status)}</span>;
}

export type FilterSelect = {
  name: string;
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
};

/** Search and filters as a GET form: the URL holds the state, so it works without JavaScript and can be shared. */
export function ListToolbar({
  q,
  placeholder,
  filters = [],
  hidden = {},
}: {
  q?: string;
  placeholder: string;
  filters?: FilterSelect[];
  hidden?: Record<string, string | undefined>;
}) {
  const searching = useNavigation().state === "loading";
  return (
    <Form method="get" className="list-toolbar" role="search">
      {Object.entries(hidden).map(([k, v]) => (v ? <input key={k} type="hidden" name={k} value={v} /> : null))}
      <div className="field grow">
        <label htmlFor="list-q">Search</label>
        <input id="list-q" type="search" name="q" defaultValue={q ?? ""} placeholder={placeholder} maxLength={200} />
      </div>
      {filters.map((f) => (
        <div className="field" key={f.name}>
          <label htmlFor={`list-${f.name}`}>{f.label}</label>
          <select id={`list-${f.name}`} name={f.name} defaultValue={f.value}>
            {f.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      ))}
      <button type="submit" className="btn btn-primary" disabled={searching}>
        Search
      </button>
    </Form>
  );
}

/** Previous / Next links that keep the search and filters and swap only the cursor. */
export function Pagination({ nextCursor, prevCursor }: { nextCursor: string | null; prevCursor: string | null }) {
  const location = useLocation();
  if (!nextCursor && !prevCursor) return null;
  const href = (key: "after" | "before", cursor: string) => {
    const params = new URLSearchParams(location.search);
    params.delete("after");
    params.delete("before");
    params.set(key, cursor);
    return `${location.pathname}?${params}`;
  };
  return (
    <nav className="pagination" aria-label="Pages">
      {prevCursor ? (
        <Link className="btn btn-secondary btn-sm" rel="prev" to={href("before", prevCursor)}>
          ← Previous
        </Link>
      ) : (
        <span />
      )}
      {nextCursor ? (
        <Link className="btn btn-secondary btn-sm" rel="next" to={href("after", nextCursor)}>
          Next →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** Options for a status select from a list of filter values. */
export const optionsOf = (values: readonly string[], labels: Record<string, string> = {}) =>
  values.map((v) => ({ value: v, label: labels[v] ?? humanize(v) }));

/** A short table inside a card, or a line saying there is nothing yet. */
export function RelatedTable({
  empty,
  head,
  children,
  count,
}: {
  empty: React.ReactNode;
  head: React.ReactNode;
  children: React.ReactNode;
  count: number;
}) {
  if (!count) return <p className="muted">{empty}</p>;
  return (
    <div className="table-wrap">
      <table>
        <thead>{head}</thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
