/**
 * The company logo's limits, shared by the settings page and the server (no server-only
 * imports): the types it may have, its size and its sides (docs/decisions/420-company-logo.md).
 */
import type { PhotoContentType } from "../field/photo-rules";

/** PNG or JPEG: the image types a PDF embeds as they are (a WebP would have to be converted). */
export type LogoContentType = Exclude<PhotoContentType, "image/webp">;
export const isLogoContentType = (t: string | null): t is LogoContentType => t === "image/png" || t === "image/jpeg";

/** At most 1 MiB: a logo is drawn into every quote, invoice and receipt PDF. */
export const LOGO_MAX_BYTES = 1024 * 1024;
/** At most 4096 pixels a side (the PDF shows it in a box of about 180 x 60 points). */
export const LOGO_MAX_SIDE = 4096;

/** The box the logo is scaled to fit in PDFs and e-mails (points, CSS pixels). */
export const LOGO_BOX = { width: 180, height: 60 } as const;
