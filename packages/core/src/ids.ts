/**
 * Identifiers: `<prefix>_<26 chars>` where the first 10 characters encode the
 * creation time in milliseconds (Crockford base32, like ULID) so ids sort by age,
 * and the last 16 are random (80 bits), so they are unguessable and collision-free.
 */

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** Creates ids; engines take one as a collaborator so tests can make ids predictable. */
export type IdGenerator = (prefix: string) => string;

const PREFIX = /^[a-z][a-z0-9]{0,11}$/;

export function newId(prefix: string, now: number = Date.now()): string {
  if (!PREFIX.test(prefix)) throw new Error(`Invalid id prefix "${prefix}"`);
  let time = "";
  let t = Math.max(0, Math.floor(now));
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let random = "";
  for (const byte of bytes) random += ALPHABET[byte % 32];
  return `${prefix}_${time}${random}`;
}

export const defaultIdGenerator: IdGenerator = (prefix) => newId(prefix);
