import { hash, verify } from "@node-rs/argon2";

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
