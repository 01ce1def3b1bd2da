import { createContext, useContext } from "react";
import { useFetcher, useLocation } from "@remix-run/react";
import type { PortalFormFailure, PortalFormKind } from "~/services/portal/types";

/** The failure a form route answered, when the page itself is that answer (no JavaScript). */
export const PageFailure = createContext<PortalFormFailure | null>(null);

/**
 * One portal form (or a card's forms): with JavaScript it posts through a fetcher, so the
 * error appears on the card without leaving the page and the button shows it is busy;
 * without JavaScript the same markup is a plain form post to the form route, which answers
 * the whole page with the error (PageFailure).
 */
export function usePortalForm(kind: PortalFormKind, targetId: string | null) {
  // A success is a redirect, i.e. a new location: a fresh fetcher then forgets the previous
  // error, and `formKey` remounts the form so its fields start from the new page. An error
  // keeps the location (the page only reloads its data), so it stays beside its field.
  const formKey = useLocation().key;
  const fetcher = useFetcher<PortalFormFailure>({ key: `portal-${kind}-${targetId ?? ""}-${formKey}` });
  const page = useContext(PageFailure);
  const candidate = fetcher.data && fetcher.data.ok === false ? fetcher.data : page;
  const failure = candidate && candidate.form === kind && candidate.targetId === targetId ? candidate : null;
  return { Form: fetcher.Form, formKey, failure, busy: fetcher.state !== "idle", submitting: fetcher.formData };
}
