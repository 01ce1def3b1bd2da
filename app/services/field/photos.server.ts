/**
 * Job photos (docs/decisions/216-job-photos.md): a technician's device
 * uploads each photo once under the id it chose when the photo was taken; the office sees them
 * on the job page. Who may add a photo follows the sync mutations: a
 * technician on the jobs assigned to them, office and above on any job of the tenant.
 */
import { createHash } from "node:crypto";
import { inTenant, type Tx } from "../../../db/index";
import { Job, User } from "../../../db/models";
import { AppError, conflict, notFound, validationFailed } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { recordScope } from "~/utils/permissions";
import { notify } from "~/services/events/events.server";
import { actsOnAnyJob } from "~/services/field/mutations.server";
import { isJobAssigned } from "~/services/jobs/assigned.server";
import {
  isPhotoContentType,
  PHOTO_MAX_BYTES,
  PHOTO_TAKEN_AHEAD_MS,
  PHOTO_TAKEN_BEFORE_JOB_DAYS,
  sniffPhotoType,
  type PhotoMeta,
} from "./photo-rules";
import { photoStore } from "./photo-store.server";

const NO_JOB = "This job does not exist.";

/**
 * The job, if the actor may add photos to it; else the AppError the upload answers. A job of
 * the tenant that is not the technician's answers exactly as an unknown id does, so the
 * answer never tells which jobs exist.
 */
async function jobForUpload(actor: Actor, jobId: string, t: Tx) {
  if (!isUuid(jobId)) throw notFound(NO_JOB);
  const job = await Job.findOne({
    where: { tenantId: actor.tenantId, id: jobId },
    attributes: ["id", "assigneeId", "createdAt", "scheduledStart"],
    transaction: t,
  });
  if (!job || (!actsOnAnyJob(actor) && !(await isJobAssigned(actor.tenantId, job.id, actor.userId, t))))
    throw notFound(NO_JOB);
  return job;
}

/** Refuses, before the body is read, an upload the actor may not make (unknown job, another technician's). */
export async function assertMayAddPhoto(actor: Actor, jobId: string): Promise<void> {
  await inTenant(actor.tenantId, (t) => jobForUpload(actor, jobId, t));
}

export type PhotoUploadInput = {
  jobId: string;
  photoId: string;
  /** The device's time when the photo was taken (ISO 8601). */
  takenAt: string;
  /** The Content-Type the client declared. */
  contentType: string;
  bytes: Buffer;
};

/**
 * Stores a photo once under its id. `created` false: the same photo was stored before (a
 * retry, or another tab): nothing changes. A different photo under the same id is a conflict.
 */
export async function putPhoto(actor: Actor, input: PhotoUploadInput): Promise<{ created: boolean; photo: PhotoMeta }> {
  if (!isUuid(input.photoId)) throw validationFailed({ photoId: ["The photo id must be a UUID."] });
  const declared = input.contentType.split(";")[0].trim().toLowerCase();
  if (!isPhotoContentType(declared)) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the photo as image/jpeg, image/png or image/webp.");
  }
  if (input.bytes.length === 0) throw validationFailed({ photo: ["The photo is empty."] });
  if (input.bytes.length > PHOTO_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "The photo is larger than 5 MiB.");
  if (sniffPhotoType(input.bytes) !== declared) {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      `The body is not a ${declared.slice("image/".length).toUpperCase()} image.`,
    );
  }
  // A device clock a little ahead of the server does not put the photo in the future; a time
  // further ahead is no clock drift but a wrong value (docs/decisions/229).
  const taken = Date.parse(input.takenAt);
  if (!(taken <= Date.now() + PHOTO_TAKEN_AHEAD_MS))
    throw validationFailed({ takenAt: ["The time the photo was taken is more than a day in the future."] });
  const takenAt = new Date(Math.min(taken, Date.now())).toISOString();
  const sha256 = createHash("sha256").update(input.bytes).digest("hex");
  return inTenant(actor.tenantId, async (t) => {
    const job = await jobForUpload(actor, input.jobId, t);
    const existed = Math.min(job.createdAt.getTime(), job.scheduledStart?.getTime() ?? Infinity);
    if (taken < existed - PHOTO_TAKEN_BEFORE_JOB_DAYS * 86_400_000)
      throw validationFailed({
        takenAt: [
          `The time the photo was taken is more than ${PHOTO_TAKEN_BEFORE_JOB_DAYS} days before the job existed.`,
        ],
      });
    const { created, stored } = await photoStore().put(
      {
        tenantId: actor.tenantId,
        id: input.photoId,
        jobId: input.jobId,
        takenBy: actor.userId,
        takenAt,
        contentType: declared,
        byteSize: input.bytes.length,
        sha256,
        bytes: input.bytes,
      },
      t,
    );
    if (!created && (stored.jobId !== input.jobId || stored.sha256 !== sha256)) {
      throw conflict("Another photo was already stored under this id.");
    }
    // The job's page, open in the office, reloads (delivered when this transaction commits).
    if (created) await notify(t, actor.tenantId, { type: "job.photo_added", id: input.jobId });
    return { created, photo: stored };
  });
}

/** A job the actor may see (technicians: their own), or 404 as for a job that does not exist. */
async function visibleJob(actor: Actor, jobId: string, t: Tx) {
  if (!isUuid(jobId)) throw notFound("Job not found.");
  const scope = recordScope(actor.role);
  const job = await Job.findOne({
    where: { tenantId: actor.tenantId, id: jobId },
    attributes: ["id", "assigneeId"],
    transaction: t,
  });
  if (
    !job ||
    scope === "none" ||
    (scope === "own_jobs" && !(await isJobAssigned(actor.tenantId, job.id, actor.userId, t)))
  )
    throw notFound("Job not found.");
  return job;
}

export type ShownPhoto = PhotoMeta & { takenByName: string | null };

/** A job's photos for its page, oldest first, each with who took it. */
export async function jobPhotos(actor: Actor, jobId: string): Promise<ShownPhoto[]> {
  return inTenant(actor.tenantId, async (t) => {
    await visibleJob(actor, jobId, t);
    const photos = await photoStore().list(actor.tenantId, jobId, t);
    const ids = [...new Set(photos.map((p) => p.takenBy))];
    const users = ids.length
      ? await User.findAll({ where: { tenantId: actor.tenantId, id: ids }, attributes: ["id", "name"], transaction: t })
      : [];
    const names = new Map(users.map((u) => [u.id, u.name]));
    return photos.map((p) => ({ ...p, takenByName: names.get(p.takenBy) ?? null }));
  });
}

/** One photo with its bytes, for the GET route; 404 for anything not visible to the actor. */
export async function photoFile(actor: Actor, jobId: string, photoId: string) {
  return inTenant(actor.tenantId, async (t) => {
    await visibleJob(actor, jobId, t);
    const photo = isUuid(photoId) ? await photoStore().get(actor.tenantId, jobId, photoId, t) : null;
    if (!photo) throw notFound("Photo not found.");
    return photo;
  });
}
