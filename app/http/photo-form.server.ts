// The field page's photo upload without JavaScript (POST /field/photos): a small multipart form
// (`_csrf`, `jobId`, `photo`), parsed by busboy (the maintained parser import-upload.server.ts
// uses). The body is read under the photo limit plus room for the form's other parts, so at most
// about 5 MiB is held; a file part over 5 MiB is 413.
import busboy from "busboy";
import { AppError } from "~/utils/app-error";
import { KiB, readBodyLimited } from "./body.server";
import { assertCsrf } from "./csrf.server";

const tooLarge = () =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    "The photo is larger than 5 MiB. Choose a smaller photo, or use the app with JavaScript on, which resizes it.",
  );

export async function readPhotoForm(
  request: Request,
  photoLimit: number,
): Promise<{ jobId: string; photo: { bytes: Buffer; type: string } | null }> {
  if (!/^multipart\/form-data\s*;/i.test(request.headers.get("content-type") ?? "")) {
    throw new AppError("BAD_REQUEST", "Send the photo as a form upload (multipart/form-data).");
  }
  let raw: Buffer;
  try {
    raw = await readBodyLimited(request, photoLimit + 64 * KiB);
  } catch (error) {
    if (error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE") throw tooLarge();
    throw error;
  }
  const form = new FormData();
  let photo: { bytes: Buffer; type: string } | null = null;
  let over = false;
  await new Promise<void>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": request.headers.get("content-type") ?? "" },
        limits: { fileSize: photoLimit, files: 1, fields: 10, fieldSize: 4 * KiB },
      });
    } catch {
      return reject(new AppError("BAD_REQUEST", "Send the photo as a form upload (multipart/form-data)."));
    }
    parser.on("field", (name, value) => form.append(name, value));
    parser.on("file", (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("limit", () => (over = true));
      stream.on("end", () => {
        const bytes = Buffer.concat(chunks);
        if (name === "photo" && bytes.length) photo = { bytes, type: info.mimeType };
      });
    });
    parser.on("close", () => resolve());
    parser.on("error", () => reject(new AppError("BAD_REQUEST", "The form body could not be read.")));
    parser.end(raw);
  });
  await assertCsrf(request, form);
  if (over) throw tooLarge();
  return { jobId: String(form.get("jobId") ?? ""), photo };
}
