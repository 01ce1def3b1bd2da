/** The shapes of a photo upload's parameters. */
import { z } from "zod";

/**
 * The query of `PUT /api/field/jobs/<jobId>/photos/<photoId>`: when the photo was taken, by the
 * device's clock (ISO 8601 with an offset). The body is the image itself.
 */
export const photoUploadSchema = z.object({
  takenAt: z
    .string({ required_error: "Required." })
    .datetime({ offset: true, message: "Use an ISO 8601 date-time with a time zone, e.g. 2026-06-16T09:30:00Z." }),
});
export type PhotoUpload = z.infer<typeof photoUploadSchema>;
