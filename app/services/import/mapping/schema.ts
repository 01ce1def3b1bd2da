// The forms of the import (CONTRACT sections 5 and 14), one zod schema each, shared by the
// server (formAction) and the browser (useConformForm).
import { z } from "zod";

/** POST /import-data/map: `uploadId` and `column.<index>` = a field name or "ignore". */
export const mapUploadSchema = z.object({
  uploadId: z.string({ required_error: "The upload is missing." }).min(1),
  column: z.record(z.string()).default({}),
});

/** POST /import-data/commit. */
export const commitSchema = z.object({ previewId: z.string({ required_error: "Choose a preview to import." }).min(1) });

/** POST /import-data/undo. */
export const undoSchema = z.object({ runId: z.string({ required_error: "Choose an import to undo." }).min(1) });
