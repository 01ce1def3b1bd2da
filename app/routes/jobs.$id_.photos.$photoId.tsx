import type { LoaderFunctionArgs } from "@remix-run/node";
import { photoResponse } from "~/http/photo-file.server";
import { photoFile } from "~/services/field/photos.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// GET /jobs/<id>/photos/<photoId>: a photo of the job at full size (the job page links to it).
// Staff with view_records; a technician only on their own jobs; another tenant's is a 404.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  return photoResponse(request, () => photoFile(actorOf(user), params.id ?? "", params.photoId ?? ""), {
    href: `/jobs`,
    label: "Back to Jobs",
  });
}
