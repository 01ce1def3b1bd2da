// Image uploads from plain forms, without JavaScript: the field page's photo (POST /field/photos:
// `_csrf`, `jobId`, `photo`) and the company logo (POST /settings/company: `_csrf`, `intent`,
// `logo`). A small multipart form parsed by busboy (the maintained parser import-upload.server.ts
// uses). The body is read under the file's limit plus room for the form's other parts, so at
// most about that limit is held; a file part over the limit is 413.
import busboy from "busboy";
import { AppError } from "~/utils/app-error";
import { KiB, readBodyLimited } from "./body.server";
import { assertCsrf } from "./csrf.server";

export type UploadedImage = { bytes: Buffer; type: string };

/**
 * A multipart form with one file field: its other fields and the file (null when none was
 * chosen). The CSRF token is checked once the body is read; `tooLarge` is the answer to a file
 * (or a body) over `limit`.
 */
export async function readImageForm(
  request: Request,
  o: { field: string; limit: number; tooLarge: () => AppError; what: string },
): Promise<{ form: FormData; file: UploadedImage | null }> {
  const notMultipart = () => new AppError("BAD_REQUEST", `Send the ${o.what} as a form upload (multipart/form-data).`);
  if (!/^multipart\/form-data\s*;/i.test(request.headers.get("content-type") ?? "")) throw notMultipart();
  let raw: Buffer;
  try {
    raw = await readBodyLimited(request, o.limit + 64 * KiB);
  } catch (error) {
    if (error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE") throw o.tooLarge();
    throw error;
  }
  const form = new FormData();
  let file: UploadedImage | null = null;
  let over = false;
  await new Promise<void>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": request.headers.get("content-type") ?? "" },
        limits: { fileSize: o.limit, files: 1, fields: 10, fieldSize: 4 * KiB },
      });
    } catch {
      return reject(notMultipart());
    }
    parser.on("field", (name, value) => form.append(name, value));
    parser.on("file", (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("limit", () => (over = true));
      stream.on("end", () => {
        const bytes = Buffer.concat(chunks);
        if (name === o.field && bytes.length) file = { bytes, type: info.mimeType };
      });
    });
    parser.on("close", () => resolve());
    parser.on("error", () => reject(new AppError("BAD_REQUEST", "The form body could not be read.")));
    parser.end(raw);
  });
  await assertCsrf(request, form);
  if (over) throw o.tooLarge();
  return { form, file };
}

export async function readPhotoForm(
  request: Request,
  photoLimit: number,
): Promise<{ jobId: string; photo: UploadedImage | null }> {
  const { form, file } = await readImageForm(request, {
    field: "photo",
    limit: photoLimit,
    what: "photo",
    tooLarge: () =>
      new AppError(
        "PAYLOAD_TOO_LARGE",
        "The photo is larger than 5 MiB. Choose a smaller photo, or use the app with JavaScript on, which resizes it.",
      ),
  });
  return { jobId: String(form.get("jobId") ?? ""), photo: file };
}
