import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { EmptyState, PageHeader } from "~/components/layout";
import { ListToolbar, Pagination, type FilterSelect } from "~/components/records";

/** One column of a list: its heading, how a row fills its cell, and `num` for right-aligned figures. */
export type ListColumn<T> = { header: string; cell: (row: T) => ReactNode; num?: boolean };

/** What the page says when there is nothing to show: a title and a sentence with the way out. */
export type ListEmpty = { title: string; body: ReactNode };

export type ListPageProps<T extends { id: string }> = {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** Shown instead of everything below the header when the business has no such record at all. */
  firstRun: ListEmpty | null;
  search: { q?: string; placeholder: string; filters?: FilterSelect[]; hidden?: Record<string, string | undefined> };
  /** The list narrowed to one customer (`?customer=<id>`, from the customer's page): kept by the search, said under it with a way back to everyone's. */
  customerScope?: { customerId?: string; noun: string; everyoneHref: string };
  columns: Array<ListColumn<T>>;
  rows: T[];
  /** Shown when the search or filters leave no rows. */
  noMatch: ListEmpty;
  page: { nextCursor: string | null; prevCursor: string | null };
};

/**
 * The building block of the record lists (customers, jobs, quotes, invoices): header with its
 * actions, search and filters as a GET form, a readable table (scrolls sideways on a phone with the
 * first column fixed), an empty state for a new business and one for a search that finds nothing,
 * and keyset pagination. Each list names only its columns and words.
 */
export function ListPage<T extends { id: string }>(props: ListPageProps<T>) {
  const { title, description, actions, firstRun, search, customerScope, columns, rows, noMatch, page } = props;
  const scoped = customerScope?.customerId;
  if (firstRun) {
    return (
      <>
        <PageHeader title={title} actions={actions} />
        <EmptyState title={firstRun.title}>{firstRun.body}</EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader title={title} description={description} actions={actions} />
      <ListToolbar
        q={search.q}
        placeholder={search.placeholder}
        filters={search.filters}
        hidden={{ ...search.hidden, customer: scoped }}
      />
      {scoped ? (
        <p className="filter-note">
          Showing one customer's {customerScope.noun}. <Link to={customerScope.everyoneHref}>Show every customer</Link>
        </p>
      ) : null}
      {rows.length ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.header} className={c.num ? "num" : undefined}>
                    {c.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  {columns.map((c) => (
                    <td key={c.header} className={c.num ? "num" : undefined}>
                      {c.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <EmptyState title={noMatch.title}>{noMatch.body}</EmptyState>
      )}
      <Pagination nextCursor={page.nextCursor} prevCursor={page.prevCursor} />
    </>
  );
}
