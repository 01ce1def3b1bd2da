import { hash, verify } from "@node-rs/argon2";
import { dictionary } from "@zxcvbn-ts/language-common";

// OWASP: argon2id, m = 19 MiB, t = 2, p = 1.
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

/** A hash of a random password, verified against when the email is unknown so timing does not tell. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    decoy ??= hashPassword("decoy-password-never-matches");
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// The maintained common-password list of zxcvbn-ts (about 49,000 passwords, most used first),
// loaded once. A password is refused when, lower-cased, it is on the list, or when it is one
// character repeated ("aaaaaaaaaaaa", twelve spaces).
let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set((dictionary["passwords-common"] as string[]).map((p) => p.toLowerCase()));
  const lower = password.toLowerCase();
  return common.has(lower) || common.has(lower.trim()) || new Set(password).size <= 1;
}
