// The engine version: a revision for the engine's logic, then a hash of all the knowledge.
// Any edit to a rule table changes the version with no build step; a change to the engine's
// logic that changes what it says bumps ENGINE_REVISION (a test holds the pair of the version
// and a digest of the golden answers, and fails when one moves without the other).

import { KNOWLEDGE } from "./rules";

/** Bump when the engine's logic (not the rule data) changes what it says. */
export const ENGINE_REVISION = 3;

/** cyrb53: a small, well-distributed, pure 53-bit string hash (not cryptographic). */
export function cyrb53(str: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** `<revision>.<14 hex digits of the hash of the knowledge>`. */
export function versionOf(revision: number, knowledge: unknown): string {
  return `${revision}.${cyrb53(JSON.stringify({ revision, knowledge })).toString(16).padStart(14, "0")}`;
}

export const ENGINE_VERSION = versionOf(ENGINE_REVISION, KNOWLEDGE);
