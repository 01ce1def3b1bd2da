import { historyOf } from "~/services/history/history.server";
import { listPortalLinks } from "~/services/portal/links.server";
import { actorOf, type CurrentUser } from "~/http/auth.server";
import { can } from "~/utils/permissions";

/**
 * The loader half of a record page (app/components/record-page.tsx), shared by the customer,
 * job, quote and invoice pages: the record's history, and, for records that belong to a customer
 * with a portal, that customer's portal links (only for a user who may manage them) and the link
 * just created (`?link=`, to show its address once).
 */
export async function recordPageData(
  request: Request,
  user: CurrentUser,
  record: { type: Parameters<typeof historyOf>[1]; id: string; customerId?: string },
) {
  const actor = actorOf(user);
  const canManageLinks = !!record.customerId && can(user.role, "manage_portal_links");
  const [history, links] = await Promise.all([
    historyOf(actor.tenantId, record.type, record.id),
    canManageLinks ? listPortalLinks(actor, record.customerId!) : Promise.resolve([]),
  ]);
  return {
    history,
    links,
    canManageLinks,
    canManage: can(user.role, "manage_records"),
    createdId: new URL(request.url).searchParams.get("link"),
  };
}
