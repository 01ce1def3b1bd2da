import { createContext, useContext, useEffect, useRef } from "react";
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
  // error (the hub also remounts the cards by the location's key, so their forms start from
  // the new page). An error keeps the location (the page only reloads its data), so it stays
  // beside its field. The key never reaches the markup: after a reload the browser's history
  // entry keeps its key while the server rendered "default", and an id built from it would
  // differ between the two renders.
  const locationKey = useLocation().key;
  const fetcher = useFetcher<PortalFormFailure>({ key: `portal-${kind}-${targetId ?? ""}-${locationKey}` });
  const page = useContext(PageFailure);
  const candidate = fetcher.data && fetcher.data.ok === false ? fetcher.data : page;
  const failure = candidate && candidate.form === kind && candidate.targetId === targetId ? candidate : null;
  return { Form: fetcher.Form, failure, busy: fetcher.state !== "idle", submitting: fetcher.formData };
}

/**
 * Where a portal form posts: its form route, with the portal token in the query and the
 * form's own anchor as the fragment. Without JavaScript the browser keeps the fragment, so
 * the page that answers a refused post opens at the form and its message, not at the top;
 * a later GET of the same address (a reload, a restored tab) is sent back to the portal page
 * at the same anchor (portalFormLoader).
 */
export const portalFormAction = (route: string, token: string, anchor: string) =>
  `${route}?${new URLSearchParams({ token })}#${anchor}`;

/** The posted values a refused form came back with (conform's `initialValue`), as text. */
export function postedValues(
  failure: Pick<PortalFormFailure, "result"> | null | undefined,
): Record<string, string | undefined> {
  return (failure?.result.initialValue ?? {}) as Record<string, string | undefined>;
}

/** Every message of a refused form, the card's first, each once. */
export const allErrors = (failure: Pick<PortalFormFailure, "result"> | null | undefined) =>
  Object.entries(failure?.result.error ?? {})
    .sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : 0))
    .flatMap(([, e]) => e ?? [])
    .filter((e, i, all) => all.indexOf(e) === i);

/**
 * Brings a refused form's message into view once it arrives in the page (JavaScript on: the
 * fetcher's answer; without JavaScript the form's anchor does it). The message is focused,
 * so a screen reader reads it and the next Tab goes on from the form.
 */
export function useMessageInView(failure: PortalFormFailure | null) {
  const ref = useRef<HTMLDivElement>(null);
  const page = useContext(PageFailure);
  useEffect(() => {
    // The page's own failure (a post without JavaScript) is already at its anchor.
    if (!failure || failure === page || !ref.current) return;
    ref.current.focus({ preventScroll: true });
    ref.current.scrollIntoView({ block: "start" });
  }, [failure, page]);
  return ref;
}

/**
 * One conform form of a card: the same schema as its route validates in the browser; the
 * card's refused answer (when it was this form's) puts the errors beside the fields. The id
 * is the same on the server and in the browser (hydration keeps the server's markup).
 */
export function useCardForm<S extends z.ZodTypeAny>(
  schema: S,
  id: string,
  failure: Pick<PortalFormFailure, "result"> | null,
  defaultValue?: Record<string, string>,
) {
  return useConformForm(schema, { id, lastResult: failure?.result, defaultValue });
}
