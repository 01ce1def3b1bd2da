/**
 * Where job photos' bytes live, behind a small interface (decision 216):
 * PostgreSQL by default (the job_photos row holds them); an object store can implement the same
 * three calls later and keep only the metadata in the row.
 */
import { JobPhoto } from "../../../db/models";
import { one, type Tx } from "../../../db/index";
import type { PhotoContentType, PhotoMeta } from "./photo-rules";

export type NewPhoto = PhotoMeta & { tenantId: string; bytes: Buffer };

export interface PhotoStore {
  /**
   * Stores the photo under its id unless a photo is there already; answers whether this call
   * stored it, and the metadata of what is stored under the id (this photo, or the earlier one).
   */
  put(photo: NewPhoto, t: Tx): Promise<{ created: boolean; stored: PhotoMeta }>;
  /** One photo of a job with its bytes, or null. */
  get(tenantId: string, jobId: string, photoId: string, t?: Tx): Promise<(PhotoMeta & { bytes: Buffer }) | null>;
  /** A job's photos in the order they were taken, without their bytes. */
  list(tenantId: string, jobId: string, t?: Tx): Promise<PhotoMeta[]>;
}

const META_ATTRIBUTES = ["id", "jobId", "takenBy", "takenAt", "contentType", "byteSize", "sha256"];

const metaOf = (p: JobPhoto): PhotoMeta => ({
  id: p.id,
  jobId: p.jobId,
  takenBy: p.takenBy,
  takenAt: new Date(p.takenAt).toISOString(),
  contentType: p.contentType as PhotoContentType,
  byteSize: p.byteSize,
  sha256: p.sha256,
});

export const postgresPhotoStore: PhotoStore = {
  async put(photo, t) {
    // Raw SQL for the one statement the model cannot say: INSERT ... ON CONFLICT DO NOTHING
    // RETURNING tells whether this call stored the row. Two uploads of one id at once: the
    // second waits for the first to commit, then does nothing (stored once, by the key).
    const inserted = await one<{ id: string }>(
      `INSERT INTO job_photos (tenant_id, id, job_id, taken_by, taken_at, content_type, byte_size, sha256, bytes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (tenant_id, id) DO NOTHING RETURNING id`,
      [
        photo.tenantId,
        photo.id,
        photo.jobId,
        photo.takenBy,
        photo.takenAt,
        photo.contentType,
        photo.byteSize,
        photo.sha256,
        photo.bytes,
      ],
      t,
    );
    if (inserted) {
      const { tenantId: _tenant, bytes: _bytes, ...stored } = photo;
      return { created: true, stored };
    }
    const existing = await JobPhoto.findOne({
      where: { tenantId: photo.tenantId, id: photo.id },
      attributes: META_ATTRIBUTES,
      transaction: t,
    });
    if (!existing) throw new Error("job_photos: the row that conflicted is gone");
    return { created: false, stored: metaOf(existing) };
  },

  async get(tenantId, jobId, photoId, t) {
    const p = await JobPhoto.findOne({ where: { tenantId, jobId, id: photoId }, transaction: t });
    return p ? { ...metaOf(p), bytes: p.bytes } : null;
  },

  async list(tenantId, jobId, t) {
    const found = await JobPhoto.findAll({
      where: { tenantId, jobId },
      attributes: META_ATTRIBUTES,
      order: [
        ["takenAt", "ASC"],
        ["id", "ASC"],
      ],
      transaction: t,
    });
    return found.map(metaOf);
  },
};

/** The store the app uses (PostgreSQL until an object store is configured). */
export const photoStore = (): PhotoStore => postgresPhotoStore;
