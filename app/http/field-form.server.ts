import { formAction } from "~/http/conform.server";
import { fieldFormSchema, type FieldFormInput } from "~/services/field/mutation-schemas";

/**
 * The field page's forms without JavaScript, read and checked on the server. The route reaches
 * the schema only through this module, which Remix leaves out of the browser's bundle: the
 * page's script carries no schema library (with JavaScript the page queues actions in its
 * outbox and the server checks them when they are pushed).
 */
export function fieldFormAction(request: Request, apply: (input: FieldFormInput) => Promise<Response>) {
  return formAction(request, fieldFormSchema, (input) => apply(input));
}
