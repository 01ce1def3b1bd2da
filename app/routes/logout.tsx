import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { staffFormAction } from "~/http/form.server";
import { endSession } from "~/utils/auth.server";

export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  return staffFormAction(request, async () =>
    redirect("/login", { status: 303, headers: { "Set-Cookie": await endSession(request) } }),
  );
}
