import type { z } from "zod";
import { tenantHasAny, type Page, type RecordTable } from "~/services/records/keyset.server";
import { searchParamsObject } from "~/services/records/list-params";
import { actorOf, type Actor, type CurrentUser } from "~/http/auth.server";
import { can } from "~/utils/permissions";

/**
 * The loader half of a record list (app/components/list-page.tsx): the query string read through
 * the list's schema (anything malformed falls back to its default), one page of rows, whether the
 * business has any such record at all (for the first-run empty state; one cheap query only when the
 * page is empty), and what the user may do from the list.
 */
export async function listPageData<S extends z.ZodTypeAny, T>(
  request: Request,
  user: CurrentUser,
  opts: {
    schema: S;
    table: RecordTable;
    list: (actor: Actor, params: z.output<S>) => Promise<Page<T>>;
    knownToHaveAny?: boolean;
  },
) {
  const params: z.output<S> = opts.schema.parse(searchParamsObject(request.url));
  const page = await opts.list(actorOf(user), params);
  const any = page.items.length > 0 || !!opts.knownToHaveAny || (await tenantHasAny(user.tenantId, opts.table));
  return { page, params, any, canImport: can(user.role, "import_csv"), canCreate: can(user.role, "manage_records") };
}
