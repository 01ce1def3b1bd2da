/**
 * Job photos, shared by the server and the field page's browser code: the
 * limit, the accepted types and how the bytes tell their type. No server-only imports.
 */
import { PHOTO_CONTENT_TYPES, type PhotoContentType } from "../../../db/enums";

export { PHOTO_CONTENT_TYPES, type PhotoContentType };

/** At most 5 MiB per photo, after the browser resized it (the table's CHECK says the same). */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
/** The browser resizes a photo so its longest side is at most this many pixels... */
export const PHOTO_MAX_SIDE = 1600;
/** ...and encodes it as JPEG at this quality. */
export const PHOTO_JPEG_QUALITY = 0.8;

/**
 * When a photo may say it was taken (docs/decisions/229-photo-taken-at.md): at most a day after
 * the server's now (a device clock a little ahead is brought back to now), and not more than
 * 30 days before the job existed (its creation, or its scheduled start when that is earlier):
 * a gallery photo from a survey before the job was booked fits, the year 1970 or 9999 does not.
 */
export const PHOTO_TAKEN_AHEAD_MS = 24 * 3600_000;
export const PHOTO_TAKEN_BEFORE_JOB_DAYS = 30;

export const isPhotoContentType = (t: string): t is PhotoContentType =>
  (PHOTO_CONTENT_TYPES as readonly string[]).includes(t);

const startsWith = (bytes: Uint8Array, sig: number[], at = 0) =>
  bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);

/** The image type the first bytes announce (magic numbers), or null for anything else. */
export function sniffPhotoType(bytes: Uint8Array): PhotoContentType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  // "RIFF" <size> "WEBP"
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return "image/webp";
  return null;
}

/** What the job page and the field page show of a stored photo. */
export type PhotoMeta = {
  id: string;
  jobId: string;
  takenBy: string;
  takenAt: string;
  contentType: PhotoContentType;
  byteSize: number;
  sha256: string;
};
