// List parameters shared by every back-office list (no server imports: routes and components use them).
import { z } from "zod";

/** `q` trimmed (empty = none), cursors as given; anything malformed falls back to the default. */
export const listSchemaBase = z.object({
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .catch(undefined)
    .transform((v) => v || undefined),
  after: z.string().max(1000).optional().catch(undefined),
  before: z.string().max(1000).optional().catch(undefined),
});

/** The list parameters of a URL's query string. */
export const searchParamsObject = (url: string) => Object.fromEntries(new URL(url).searchParams);
