/**
 * The business's logo (docs/decisions/420-company-logo.md), stored as job photos are: the bytes
 * in a row of its own table (PostgreSQL bytea) beside their type, size and digest, checked by
 * the same magic bytes (photo-rules.ts). One logo per business; a new upload replaces it under
 * a new random id, so its address (/logos/<tenant>/<id>) changes and the old one answers 404.
 */
import { createHash, randomUUID } from "node:crypto";
import zlib from "node:zlib";
import PDFDocument from "pdfkit";
import { inTenant, type Tx } from "../../../db/index";
import { CompanyLogo } from "../../../db/models";
import { AppError, validationFailed } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { env } from "~/utils/env.server";
import { sniffPhotoType } from "~/services/field/photo-rules";
import { isLogoContentType, LOGO_BOX, LOGO_MAX_BYTES, LOGO_MAX_SIDE, type LogoContentType } from "./logo-rules";

export type LogoMeta = { id: string; contentType: LogoContentType; width: number; height: number; byteSize: number };

export const logoTooLarge = () =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    "The logo is larger than 1 MiB. Save it smaller (a PNG of a few hundred pixels is plenty).",
    {
      fields: { logo: ["The logo is larger than 1 MiB. Save it smaller (a PNG of a few hundred pixels is plenty)."] },
    },
  );

const refuse = (message: string) => validationFailed({ logo: [message] }, message);

/**
 * The image's type and sides, or the 422 the upload answers: the magic bytes decide the type
 * (the file's name and declared type do not), and the image must open as the PDFs will open
 * it (pdfkit's reader; a PNG's pixel data must inflate), so a logo that is stored always draws.
 */
export function checkLogo(bytes: Buffer): { contentType: LogoContentType; width: number; height: number } {
  if (bytes.length === 0) throw refuse("Choose an image file for the logo.");
  if (bytes.length > LOGO_MAX_BYTES) throw logoTooLarge();
  const sniffed = sniffPhotoType(bytes);
  if (sniffed === "image/webp") throw refuse("WebP images cannot go into PDFs. Save the logo as PNG or JPEG.");
  if (!isLogoContentType(sniffed)) throw refuse("This file is not a PNG or JPEG image.");
  let width: number;
  let height: number;
  try {
    const probe = new PDFDocument({ autoFirstPage: false }) as PDFKit.PDFDocument & {
      openImage(src: Buffer): { width: number; height: number; imgData?: Uint8Array };
    };
    const image = probe.openImage(bytes);
    if (sniffed === "image/png") zlib.inflateSync(image.imgData ?? new Uint8Array());
    ({ width, height } = image);
  } catch {
    throw refuse(`This ${sniffed === "image/png" ? "PNG" : "JPEG"} image is damaged and cannot be read.`);
  }
  if (!(width >= 1 && height >= 1)) throw refuse("This image has no pixels.");
  if (width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE)
    throw refuse(`The logo is ${width} x ${height} pixels; at most ${LOGO_MAX_SIDE} a side, please.`);
  return { contentType: sniffed, width, height };
}

/** Stores the logo, replacing the business's earlier one. Checked first: a refused file changes nothing. */
export async function saveLogo(actor: Actor, bytes: Buffer): Promise<LogoMeta> {
  const { contentType, width, height } = checkLogo(bytes);
  const row = {
    tenantId: actor.tenantId,
    id: randomUUID(),
    contentType,
    width,
    height,
    byteSize: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    bytes,
  };
  await inTenant(actor.tenantId, async (t) => {
    await CompanyLogo.destroy({ where: { tenantId: actor.tenantId }, transaction: t });
    await CompanyLogo.create(row, { transaction: t });
  });
  return { id: row.id, contentType, width, height, byteSize: row.byteSize };
}

/** Removes the business's logo; answers whether there was one. */
export async function removeLogo(actor: Actor): Promise<boolean> {
  return inTenant(
    actor.tenantId,
    async (t) => (await CompanyLogo.destroy({ where: { tenantId: actor.tenantId }, transaction: t })) > 0,
  );
}

/** The logo's metadata (no bytes), or null. */
export async function logoMetaIn(t: Tx, tenantId: string): Promise<LogoMeta | null> {
  const logo = await CompanyLogo.findOne({
    where: { tenantId },
    attributes: ["id", "contentType", "width", "height", "byteSize"],
    transaction: t,
  });
  return logo
    ? { id: logo.id, contentType: logo.contentType, width: logo.width, height: logo.height, byteSize: logo.byteSize }
    : null;
}

export const logoMeta = (actor: Actor) => inTenant(actor.tenantId, (t) => logoMetaIn(t, actor.tenantId));

/** The logo's bytes for drawing into a PDF, or null. */
export async function logoBytesIn(t: Tx, tenantId: string): Promise<Buffer | null> {
  const logo = await CompanyLogo.findOne({ where: { tenantId }, attributes: ["bytes"], transaction: t });
  return logo ? Buffer.from(logo.bytes) : null;
}

/** The logo's path on this site: what the app's pages and the portal put in an <img>. */
export const logoPath = (tenantId: string, logoId: string) => `/logos/${tenantId}/${logoId}`;
/** The same as an absolute URL, for e-mails. */
export const logoUrl = (tenantId: string, logoId: string) => `${env().APP_URL}${logoPath(tenantId, logoId)}`;

/** The logo as an e-mail shows it: its absolute URL and its size fitted to the logo box (pixels). */
export type EmailLogo = { url: string; width: number; height: number };
export function emailLogo(tenantId: string, logo: { id: string; width: number; height: number }): EmailLogo {
  const scale = Math.min(LOGO_BOX.width / logo.width, LOGO_BOX.height / logo.height);
  return {
    url: logoUrl(tenantId, logo.id),
    width: Math.max(1, Math.round(logo.width * scale)),
    height: Math.max(1, Math.round(logo.height * scale)),
  };
}

/**
 * GET /logos/<tenant>/<id>: the logo under that id, or null (another id, a replaced or removed
 * logo, a malformed address). Public: its address is random and given only to the business's
 * staff, its customers' portal pages and its e-mails; a logo is what a business shows anyone.
 */
export async function publicLogo(
  tenantId: string,
  logoId: string,
): Promise<{ contentType: string; bytes: Buffer; sha256: string } | null> {
  if (!isUuid(tenantId) || !isUuid(logoId)) return null;
  return inTenant(tenantId, async (t) => {
    const logo = await CompanyLogo.findOne({ where: { tenantId, id: logoId }, transaction: t });
    return logo ? { contentType: logo.contentType, bytes: Buffer.from(logo.bytes), sha256: logo.sha256 } : null;
  });
}
