// Links to pages of a preview's rows and errors, keeping the other query parameters.
import { Link, useSearchParams } from "@remix-run/react";
import { n } from "./format";

export function usePageLink() {
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

export function Pager({
  page,
  pages,
  param,
  label,
  hash,
}: {
  page: number;
  pages: number;
  param: string;
  label: string;
  hash: string;
}) {
  const link = usePageLink();
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      {page > 1 ? (
        <Link to={link({ [param]: String(page - 1) }, hash)} className="btn btn-secondary btn-sm" preventScrollReset>
          ← Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="muted small">
        Page {n(page)} of {n(pages)}
      </span>
      {page < pages ? (
        <Link to={link({ [param]: String(page + 1) }, hash)} className="btn btn-secondary btn-sm" preventScrollReset>
          Next →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
