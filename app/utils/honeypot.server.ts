import { json } from "@remix-run/node";
import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import { env } from "./env.server";

// remix-utils' honeypot on the forms anyone can post without signing in: signup, login and
// the portal booking request. A hidden field a person never fills, and an encrypted "valid
// from" time (keyed by SESSION_SECRET, so every app server reads every other's).
let honeypot: Honeypot | undefined;
// The portal hub renders the booking form inside its own page data; it carries the hidden
// field only (no encrypted time), so its check is the field alone.
let untimed: Honeypot | undefined;

function instance(timed = true): Honeypot {
  if (!timed) return (untimed ??= new Honeypot({ validFromFieldName: null }));
  honeypot ??= new Honeypot({ encryptionSeed: env().SESSION_SECRET[0] });
  return honeypot;
}

/** For the page's loader: the honeypot inputs' names and the encrypted time. */
export const honeypotInputProps = () => instance().getInputProps();

/** A filled honeypot (or a forged time) is 400 and nothing is stored: call before anything else. */
export function assertNotSpam(form: FormData, opts: { timed?: boolean } = {}) {
  try {
    instance(opts.timed ?? true).check(form);
  } catch (error) {
    if (error instanceof SpamError) throw json({ message: "This form could not be accepted." }, { status: 400 });
    throw error;
  }
}
