import type { LoaderFunctionArgs } from "@remix-run/node";
import { photoResponse } from "~/http/photo-file.server";
import { publicLogo } from "~/services/company/logo.server";
import { notFound } from "~/utils/app-error";

// GET /logos/<tenantId>/<logoId>: a business's logo, for its pages, its customers' portal and its
// e-mails (which cannot sign in). No session: the address is random per upload and a logo is
// what a business shows anyone; another id (a replaced or removed logo) answers 404.
export async function loader({ request, params }: LoaderFunctionArgs) {
  return photoResponse(
    request,
    async () => {
      const logo = await publicLogo(params.tenantId ?? "", params.logoId ?? "");
      if (!logo) throw notFound("There is no logo at this address.");
      return logo;
    },
    { href: "/", label: "Go to the start page" },
    { cache: "public", noun: "Logo" },
  );
}
