import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useEventSource } from "remix-utils/sse/react";

/**
 * Reloads the page's data when the tenant's records change: listens to
 * GET /events with JavaScript on and revalidates on each `change`. Without JavaScript the page
 * is what it was when it loaded.
 */
export function useLiveUpdates() {
  const change = useEventSource("/events", { event: "change" });
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (change) revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [change]);
}
