import { useRootData } from "~/components/root-data";

/**
 * The hidden `_csrf` field every state-changing staff form carries. A module of its own: the
 * layout's sign-out form needs it on every page, and importing it must not bring the form
 * library and its schemas (app/components/forms.tsx) into the code every page loads.
 */
export function CsrfInput() {
  const data = useRootData();
  return <input type="hidden" name="_csrf" value={data?.csrf ?? ""} />;
}
