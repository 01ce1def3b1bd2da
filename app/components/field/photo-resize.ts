/**
 * A photo made small enough to send from a phone (browser only): its longest side at most
 * PHOTO_MAX_SIDE pixels, JPEG at PHOTO_JPEG_QUALITY, turned upright by its EXIF orientation.
 * A 12-megapixel camera photo of 3-5 MB becomes about 0.2-0.5 MB.
 */
import { PHOTO_JPEG_QUALITY, PHOTO_MAX_SIDE } from "~/services/field/photo-rules";

async function decode(
  file: Blob,
): Promise<{ source: CanvasImageSource; width: number; height: number; close: () => void }> {
  if (typeof createImageBitmap === "function") {
    try {
      const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
      return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
    } catch {
      // Some browsers decode more through <img>; tried below.
    }
  }
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    return { source: img, width: img.naturalWidth, height: img.naturalHeight, close: () => {} };
  } finally {
    URL.revokeObjectURL(url);
  }
}

export class NotAPhoto extends Error {}

export async function resizePhoto(file: Blob): Promise<Blob> {
  let image: Awaited<ReturnType<typeof decode>>;
  try {
    image = await decode(file);
  } catch {
    throw new NotAPhoto("This file is not a photo this browser can open. Choose a JPEG, PNG or WebP image.");
  }
  const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("This browser cannot resize photos.");
  // A transparent PNG turns white, not black, as a JPEG.
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(image.source, 0, 0, width, height);
  image.close();
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error("The photo could not be resized."))),
      "image/jpeg",
      PHOTO_JPEG_QUALITY,
    ),
  );
}
