// The import pages' forms, one zod schema each, shared by the server
// (formAction / the upload route) and the browser (useConformForm). Browser-safe.
import { z } from "zod";
import { IMPORT_TYPES, isImportType } from "./columns";

/**
 * POST /import-data/preview, its text fields (the file or pasted text is read as a stream by
 * app/http/import-upload.server.ts, beside this schema). `type` may also come from `?type=`.
 */
export const importUploadSchema = z.object({
  type: z.string({ required_error: "Choose what to import." }).refine(isImportType, (t) => ({
    message: `"${t}" is not an import type. Choose one of: ${IMPORT_TYPES.join(", ")}.`,
  })),
});

// The id fields are not checked here: an empty or unknown id is the service's 404 ("This
// import does not exist."), as it always was.

/** POST /import-data/commit: the preview to import, or (`intent: valid-rows`) whose valid rows to
 * make a new preview of (docs/decisions/250). */
export const commitPreviewSchema = z.object({
  previewId: z.string().optional(),
  intent: z.enum(["commit", "valid-rows"]).optional(),
});

/** POST /import-data/undo: the import to undo. */
export const undoImportSchema = z.object({ runId: z.string().optional() });
