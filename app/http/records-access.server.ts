import { json } from "@remix-run/node";
import { requireUserWithPermission, type CurrentUser } from "./auth.server";
import { recordScope } from "../utils/permissions";

/**
 * Pages over the whole tenant's records (customers, quotes, invoices, requests): roles whose
 * `view_records` covers only their own jobs get the 403 page.
 */
export async function requireAllRecords(request: Request): Promise<CurrentUser> {
  const user = await requireUserWithPermission(request, "view_records");
  if (recordScope(user.role) !== "all") {
    throw json({ message: "Your role shows only the jobs assigned to you." }, { status: 403 });
  }
  return user;
}
