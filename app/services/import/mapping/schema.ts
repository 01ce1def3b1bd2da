// The mapping step's form: one zod schema shared by the server
// (formAction) and the browser (useConformForm).
import { z } from "zod";

/** POST /import-data/map: `uploadId` and `column.<index>` = a field name or "ignore". */
export const mapUploadSchema = z.object({
  uploadId: z.string({ required_error: "The upload is missing." }).min(1),
  column: z.record(z.string()).default({}),
});
