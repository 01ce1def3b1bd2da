import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { randomUUID } from "node:crypto";
import { toAppError } from "~/http/envelope.server";
import { messagePage } from "~/http/message-page.server";
import { readPhotoForm } from "~/http/photo-form.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { PHOTO_MAX_BYTES, sniffPhotoType } from "~/services/field/photo-rules";
import { putPhoto } from "~/services/field/photos.server";
import { validationFailed } from "~/utils/app-error";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// POST /field/photos: a job photo from the field page without JavaScript (docs/decisions/217).
// With JavaScript the page resizes the photo and queues it for the PUT instead. Success: 303
// back to the job's card with "Photo added."; a refusal: a page saying why, with its status
// (413 over 5 MiB, 415 not a photo, 403/404 not this technician's job), and a link back.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "use_offline_workflow");
  try {
    const { jobId, photo } = await readPhotoForm(request, PHOTO_MAX_BYTES);
    if (!photo) throw validationFailed({ photo: ["Choose a photo."] }, "Choose a photo to upload.");
    await putPhoto(actorOf(user), {
      jobId,
      photoId: randomUUID(),
      takenAt: new Date().toISOString(),
      // The browser's guess from the file name; the bytes decide (a mismatch is refused).
      contentType: sniffPhotoType(photo.bytes) ?? photo.type,
      bytes: photo.bytes,
    });
    await setFlash(user, { message: "Photo added.", tone: "success" });
    return redirect(`/field#job-${jobId}`, 303);
  } catch (error) {
    if (error instanceof Response) throw error;
    const e = toAppError(error, request);
    const title =
      e.status === 413
        ? "The photo is too large"
        : e.status === 415
          ? "This file is not a photo"
          : "The photo was not added";
    return messagePage(e.status, title, e.message, { href: "/field", label: "Back to My day" });
  }
}

export async function loader() {
  return redirect("/field");
}
