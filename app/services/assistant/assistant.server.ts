// The assistant as the routes use it: parse the form, run the local engine, and carry the
// answer of a form post without JavaScript to the next page view in the session flash.
// Nothing here reads or writes an operational record; the only write is the session's flash.

import { clearFlashKeys, setFlash, type SessionUser } from "~/services/accounts/sessions.server";
import type { FieldErrors } from "~/utils/app-error";
import {
  ASSISTANT_MODES,
  DETAILS_MAX,
  JOB_TITLE_MAX,
  assistantInputSchema,
  generateGuidance,
  toGuidanceInput,
  type AssistantData,
} from "./engine";

export { ASSISTANT_MODES, DETAILS_MAX, JOB_TITLE_MAX };

/** What the user typed, as text (shown again in the form). */
export type AssistantValues = { mode: string; job_title: string; details: string };

/** The outcome of one submission: the guidance, or per-field errors. */
export type AssistantResult =
  | { ok: true; input: AssistantValues; data: AssistantData }
  | { ok: false; input: AssistantValues; fields: FieldErrors };

// Typed text is echoed back so a refused form keeps it; the cap only bounds what a crafted
// post can park in the session row (the form itself stops at the field limits).
const ECHO_MAX = 2 * DETAILS_MAX;

function text(value: unknown): string {
  return typeof value === "string" ? value.slice(0, ECHO_MAX) : "";
}

/** Runs the engine on a submitted form's text fields (`mode`, `job_title`, `details`). */
export function generateFromForm(fields: Record<string, unknown>): AssistantResult {
  const input: AssistantValues = {
    mode: text(fields.mode),
    job_title: text(fields.job_title),
    details: text(fields.details),
  };
  const parsed = assistantInputSchema.safeParse(fields);
  if (!parsed.success) {
    const errors: FieldErrors = {};
    for (const [field, messages] of Object.entries(parsed.error.flatten().fieldErrors))
      if (messages?.length) errors[field] = messages;
    return { ok: false, input, fields: errors };
  }
  return { ok: true, input, data: generateGuidance(toGuidanceInput(parsed.data)) };
}

const FLASH_KEY = "assistant";

/** Keeps a result for the next page view only (the root loader clears the flash once read). */
export function keepForNextPage(user: Pick<SessionUser, "tenantId" | "sessionId">, result: AssistantResult) {
  return setFlash(user, { [FLASH_KEY]: result });
}

/** The page showed the kept answer: it is not shown again. */
export function forgetKeptResult(user: Pick<SessionUser, "tenantId" | "sessionId">) {
  return clearFlashKeys(user, [FLASH_KEY]);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The result a form post left in the flash, if any (anything malformed is ignored). */
export function resultFromFlash(flash: Record<string, unknown> | null | undefined): AssistantResult | null {
  const kept = flash?.[FLASH_KEY];
  if (!isRecord(kept) || !isRecord(kept.input)) return null;
  const input: AssistantValues = {
    mode: text(kept.input.mode),
    job_title: text(kept.input.job_title),
    details: text(kept.input.details),
  };
  if (
    kept.ok === true &&
    isRecord(kept.data) &&
    isRecord(kept.data.guidance) &&
    Array.isArray(kept.data.guidance.sections)
  ) {
    return { ok: true, input, data: kept.data as unknown as AssistantData };
  }
  if (kept.ok === false && isRecord(kept.fields)) return { ok: false, input, fields: kept.fields as FieldErrors };
  return null;
}
