import { useActionData } from "@remix-run/react";
import type { PortalFormFailure } from "~/services/portal/types";
import { PortalHub } from "./hub";

/**
 * What a portal form route renders: after a form post without JavaScript that failed, the
 * hub with the error beside the field. (A successful post is a 303 back to the hub, and a
 * plain GET is the 405 page, so there is nothing else to show.)
 */
export function PortalFormPage() {
  const failure = useActionData<PortalFormFailure>();
  if (!failure?.hub) return null;
  return <PortalHub hub={failure.hub} failure={failure} />;
}
