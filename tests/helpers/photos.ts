import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import type { Client } from "./client";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf: Buffer) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

/**
 * A real PNG (an RGB gradient in one colour, so two test photos differ), decodable by a browser.
 * With `alpha`, RGBA: a transparent frame around the gradient (a logo on a transparent background).
 */
export function testPng(
  width: number,
  height: number,
  rgb: [number, number, number],
  o: { alpha?: boolean } = {},
): Buffer {
  const channels = o.alpha ? 4 : 3;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = o.alpha ? 6 : 2; // RGBA or RGB
  const raw = Buffer.alloc((width * channels + 1) * height);
  const frame = Math.floor(Math.min(width, height) / 8);
  for (let y = 0; y < height; y++) {
    const row = y * (width * channels + 1);
    for (let x = 0; x < width; x++) {
      const shade = (x + y) / (width + height);
      const at = row + 1 + x * channels;
      raw[at] = Math.round(rgb[0] * shade);
      raw[at + 1] = Math.round(rgb[1] * shade);
      raw[at + 2] = Math.round(rgb[2] * shade);
      if (o.alpha) {
        const inside = x >= frame && y >= frame && x < width - frame && y < height - frame;
        raw[at + 3] = inside ? 255 : 0;
      }
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Bytes that start like a JPEG (the server checks the magic bytes, not the whole image). */
export const jpegLike = (size: number) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(Math.max(0, size - 4))]);

/** PUT /api/field/jobs/<jobId>/photos/<photoId> as the client's user. */
export function putPhoto(
  c: Client,
  jobId: string,
  photoId: string,
  body: Buffer | ReadableStream<Uint8Array>,
  o: { type?: string; takenAt?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const takenAt = o.takenAt ?? new Date(Date.now() - 60_000).toISOString();
  const headers = new Headers({ "content-type": o.type ?? "image/jpeg", origin: new URL(c.base).origin, ...o.headers });
  if (c.cookies.size) headers.set("cookie", c.cookieHeader());
  const init: RequestInit & { duplex?: "half" } = {
    method: "PUT",
    headers,
    body: body instanceof ReadableStream ? body : new Uint8Array(body),
    redirect: "manual",
  };
  if (body instanceof ReadableStream) init.duplex = "half";
  return fetch(
    new URL(`/api/field/jobs/${jobId}/photos/${photoId}?takenAt=${encodeURIComponent(takenAt)}`, c.base),
    init,
  );
}
