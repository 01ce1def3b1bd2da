import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { formAction } from "~/http/conform.server";
import { logoutFormSchema } from "~/services/accounts/schemas";
import { endSession } from "~/http/auth.server";

export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  return formAction(request, logoutFormSchema, async () =>
    redirect("/login", { status: 303, headers: { "Set-Cookie": await endSession(request) } }),
  );
}
