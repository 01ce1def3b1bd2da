/** The shapes of a push and of each mutation's arguments. */
import { z } from "zod";
import {
  CLOCK_ACTIONS,
  FIELD_STATUSES,
  MAX_MUTATIONS,
  NOTE_MAX,
  SIGNATURE_DATA_URL_PREFIX,
  SIGNATURE_IMAGE_MAX,
  SIGNER_NAME_MAX,
  TIME_ENTRY_MAX_MS,
  type MutationType,
} from "./protocol";

// Text PostgreSQL can store: no NUL character and no lone UTF-16 surrogate (either would fail
// the write every time, and the client would retry that mutation for ever).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const storable = (s: string) => !s.includes("\u0000") && !LONE_SURROGATE.test(s);
const text = (max: number) =>
  z
    .string({ required_error: "Required." })
    .trim()
    .max(max, `At most ${max} characters.`)
    .refine(storable, "Contains characters that cannot be stored.");

const dateTime = z
  .string()
  .datetime({ offset: true, message: "Use an ISO 8601 date-time with a time zone, e.g. 2026-06-16T09:30:00Z." });
// A job id that is not a UUID names no job: rejected as unknown, like any other missing job.
const jobId = z.string({ required_error: "Required." }).min(1, "Required.").max(100);
// The visit of the job the mutation acts on; without it, the caller's visit under way, else the
// one nearest the mutation's time. One that is not a UUID names no visit: rejected as unknown.
const visitId = z.string({ invalid_type_error: "Must be a visit's id." }).min(1, "Required.").max(100).optional();

/** The envelope of one mutation; its `args` are checked per type when it is processed. */
export const mutationSchema = z.object({
  id: z
    .number({ required_error: "Required.", invalid_type_error: "Must be a whole number." })
    .int("Must be a whole number.")
    .positive("Must be 1 or more.")
    .max(Number.MAX_SAFE_INTEGER),
  type: z.string({ required_error: "Required." }).min(1, "Required.").max(100),
  occurredAt: dateTime,
  args: z.record(z.unknown(), { required_error: "Required.", invalid_type_error: "Must be an object." }),
});

export const pushSchema = z.object({
  clientId: z.string({ required_error: "Required." }).uuid("Must be a UUID."),
  mutations: z
    .array(mutationSchema, { required_error: "Required.", invalid_type_error: "Must be an array." })
    .max(MAX_MUTATIONS),
});
export type PushRequest = z.infer<typeof pushSchema>;

const PNG_MAGIC = "iVBORw0KGgo"; // the first 8 bytes of every PNG, in base64
const base64Bytes = (b64: string) =>
  Math.floor((b64.length * 3) / 4) - (b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0);

/** A drawn signature: a PNG as a data URL (what signature_pad's toDataURL gives), at most 256 KiB. */
const signatureImage = z
  .string()
  .max(
    SIGNATURE_DATA_URL_PREFIX.length + Math.ceil(SIGNATURE_IMAGE_MAX / 3) * 4 + 4,
    "The drawing is too large (at most 256 KiB).",
  )
  .refine(
    (s) =>
      s.startsWith(SIGNATURE_DATA_URL_PREFIX + PNG_MAGIC) &&
      /^[A-Za-z0-9+/]+={0,2}$/.test(s.slice(SIGNATURE_DATA_URL_PREFIX.length)),
    "Send the drawing as a PNG data URL.",
  )
  .refine(
    (s) => base64Bytes(s.slice(SIGNATURE_DATA_URL_PREFIX.length)) <= SIGNATURE_IMAGE_MAX,
    "The drawing is too large (at most 256 KiB).",
  );

const signerName = text(SIGNER_NAME_MAX).pipe(z.string().min(1, "Type the customer's name."));
const checked = z.preprocess((v) => v === "true" || v === "on" || v === true, z.boolean());

/**
 * The field page's forms without JavaScript (conform): one per intent, each naming its job.
 * `complete` carries the customer's typed name (the signature without a drawing).
 */
export const fieldFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("status"),
    jobId: z.string({ required_error: "Required." }),
    visitId: z.string().optional(),
    status: z.enum(FIELD_STATUSES),
  }),
  z.object({
    intent: z.literal("note"),
    jobId: z.string({ required_error: "Required." }),
    visitId: z.string().optional(),
    body: z.string({ required_error: "Write a note." }),
  }),
  z.object({
    intent: z.literal("clock"),
    jobId: z.string({ required_error: "Required." }),
    visitId: z.string().optional(),
    action: z.enum(CLOCK_ACTIONS),
  }),
  z.object({
    intent: z.literal("checklist"),
    jobId: z.string({ required_error: "Required." }),
    visitId: z.string().optional(),
    itemId: z.string({ required_error: "Required." }),
    done: checked,
  }),
  z.object({
    intent: z.literal("complete"),
    jobId: z.string({ required_error: "Required." }),
    visitId: z.string().optional(),
    signerName: z.string().max(SIGNER_NAME_MAX, `At most ${SIGNER_NAME_MAX} characters.`).optional(),
  }),
]);
export type FieldFormInput = z.infer<typeof fieldFormSchema>;

export const ARGS_SCHEMAS = {
  "job.status": z.object({
    jobId,
    visitId,
    status: z.enum(FIELD_STATUSES, { errorMap: () => ({ message: `One of ${FIELD_STATUSES.join(", ")}.` }) }),
  }),
  "job.note": z.object({ jobId, visitId, body: text(NOTE_MAX).pipe(z.string().min(1, "Write a note.")) }),
  "job.time_entry": z
    .object({
      jobId,
      visitId,
      startedAt: dateTime,
      endedAt: dateTime,
      note: text(NOTE_MAX).optional(),
    })
    .refine((a) => Date.parse(a.endedAt) >= Date.parse(a.startedAt), {
      message: "Must not be before startedAt.",
      path: ["endedAt"],
    })
    .refine((a) => Date.parse(a.endedAt) - Date.parse(a.startedAt) <= TIME_ENTRY_MAX_MS, {
      message: "A time entry spans at most 24 hours.",
      path: ["endedAt"],
    }),
  "job.clock": z.object({
    jobId,
    visitId,
    action: z.enum(CLOCK_ACTIONS, { errorMap: () => ({ message: `One of ${CLOCK_ACTIONS.join(", ")}.` }) }),
  }),
  "job.checklist": z.object({
    jobId,
    visitId,
    itemId: z.string({ required_error: "Required." }).uuid("Must be a checklist item's id."),
    done: z.boolean({ required_error: "Required.", invalid_type_error: "Must be true or false." }),
  }),
  "job.signature": z.object({ jobId, visitId, name: signerName, image: signatureImage.optional() }),
} satisfies Record<MutationType, z.ZodTypeAny>;
