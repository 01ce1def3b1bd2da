import { createContext, useContext } from "react";
import { useFetcher, useLocation } from "@remix-run/react";
import type { z } from "zod";
import { useConformForm } from "~/components/forms";
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

/** The posted values a refused form came back with (conform's `initialValue`), as text. */
export function postedValues(
  failure: Pick<PortalFormFailure, "result"> | null | undefined,
): Record<string, string | undefined> {
  return (failure?.result.initialValue ?? {}) as Record<string, string | undefined>;
}

/** The messages for the whole card (a wrong state, an unknown record, a stale form). */
export const cardErrors = (failure: Pick<PortalFormFailure, "result"> | null | undefined) =>
  failure?.result.error?.[""] ?? undefined;

/**
 * One conform form of a card: the same schema as its route validates in the browser; the
 * card's refused answer (when it was this form's) puts the errors beside the fields. The id
 * changes with the location, so a success starts the form afresh.
 */
export function useCardForm<S extends z.ZodTypeAny>(
  schema: S,
  id: string,
  formKey: string,
  failure: Pick<PortalFormFailure, "result"> | null,
  defaultValue?: Record<string, string>,
) {
  return useConformForm(schema, { id: `${id}-${formKey}`, lastResult: failure?.result, defaultValue });
}
