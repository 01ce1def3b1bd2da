import { serveApi, type ApiArgs, type ApiMethods } from "~/http/api.server";
import { checkContentLength, readBodyLimited } from "~/http/body.server";
import { assertSameOrigin } from "~/http/csrf.server";
import { ok, zodFields } from "~/http/envelope.server";
import { PHOTO_MAX_BYTES } from "~/services/field/photo-rules";
import { assertMayAddPhoto, putPhoto } from "~/services/field/photos.server";
import { photoUploadSchema } from "~/services/field/schemas";
import { AppError, validationFailed } from "~/utils/app-error";
import { actorOf, requireApiUser } from "~/http/auth.server";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { reply: "json" };

// Without `Connection: close` (body.server.ts's 413 sets it): the server reads and drops the rest
// of the body after answering (scripts/serve-hooks.mjs, up to 16 MiB) and keeps the connection,
// so the browser reliably reads the 413 instead of a reset while it is still sending.
const tooLarge = () =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    "The photo is larger than 5 MiB, even after resizing. Take it again at a lower resolution.",
  );

// PUT /api/field/jobs/<jobId>/photos/<photoId>?takenAt=<ISO>: a job photo from the field page's
// queue, the image itself as the body (docs/decisions/216). Idempotent by the photo's id: 201
// the first time, 200 for the same photo again, 409 for another photo under the same id.
// A cross-site page cannot send a PUT without a preflight this server never answers, and the
// Origin check refuses one that tries.
const METHODS: ApiMethods = {
  async PUT({ request, params }) {
    const user = await requireApiUser(request, "use_offline_workflow");
    assertSameOrigin(request);
    const actor = actorOf(user);
    const query = photoUploadSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) throw validationFailed(zodFields(query.error));
    try {
      checkContentLength(request, PHOTO_MAX_BYTES);
    } catch {
      throw tooLarge();
    }
    // Before the body is read: an unknown job or another technician's costs no upload.
    await assertMayAddPhoto(actor, params.id ?? "");
    let bytes: Buffer;
    try {
      // Stops at the first byte past the limit; never holds more than the limit.
      bytes = await readBodyLimited(request, PHOTO_MAX_BYTES);
    } catch (error) {
      if (error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE") throw tooLarge();
      throw error;
    }
    const { created, photo } = await putPhoto(actor, {
      jobId: params.id ?? "",
      photoId: params.photoId ?? "",
      takenAt: query.data.takenAt,
      contentType: request.headers.get("content-type") ?? "",
      bytes,
    });
    const { sha256: _digest, ...shown } = photo;
    return ok(request, { ...shown, status: created ? "created" : "duplicate" }, { status: created ? 201 : 200 });
  },
};

export const loader = (args: ApiArgs) => serveApi(METHODS, args);
export const action = loader;
