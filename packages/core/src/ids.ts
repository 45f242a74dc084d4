/**
 * Identifiers: `<prefix>_<26 chars>` where the first 10 characters encode the
 * creation time in milliseconds (Crockford base32, like ULID) so ids sort by age,
 * and the last 16 are random (80 bits), so they are hard to guess and collision-free.
 */

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** Creates ids; engines take one as a collaborator so tests can make ids predictable. */
export type IdGenerator = (prefix: string) => string;

const PREFIX = /^[a-z][a-z0-9]{0,11}$/;

// Random bytes are drawn 4 KiB at a time: one getRandomValues call per id was a
// measurable share of a gateway request (every call makes two or three ids).
const pool = new Uint8Array(4096);
let poolOffset = pool.length;
// The last id's time and random digits, for order within one millisecond.
let lastTime = -1;
const lastRandom = new Uint8Array(16);

function freshRandom(): void {
  if (poolOffset + 16 > pool.length) {
    globalThis.crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  for (let i = 0; i < 16; i++) lastRandom[i] = (pool[poolOffset + i] ?? 0) % 32;
  poolOffset += 16;
}

/** Adds one to the random digits (base 32); false when they were all at the top. */
function incrementRandom(): boolean {
  for (let i = 15; i >= 0; i--) {
    const digit = lastRandom[i] ?? 0;
    if (digit < 31) {
      lastRandom[i] = digit + 1;
      return true;
    }
    lastRandom[i] = 0;
  }
  return false;
}

/**
 * Ids made in the same millisecond are ordered too (like a monotonic ULID: the
 * random part counts up), so "newest first" lists never shuffle records created
 * together.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  if (!knownPrefixes.has(prefix)) {
    if (!PREFIX.test(prefix)) throw new Error(`Invalid id prefix "${prefix}"`);
    if (knownPrefixes.size < 256) knownPrefixes.add(prefix);
  }
  const millis = Math.max(0, Math.floor(now));
  if (millis !== lastTime || !incrementRandom()) freshRandom();
  if (millis !== lastTime) {
    lastTime = millis;
    lastTimeText = timeText(millis);
  }
  let random = "";
  for (let i = 0; i < 16; i++) random += ALPHABET[lastRandom[i] as number];
  return `${prefix}_${lastTimeText}${random}`;
}

// A process makes a few prefixes over and over: each is checked once (at most 256 remembered),
// and the time digits are written once per millisecond.
const knownPrefixes = new Set<string>();
let lastTimeText = "";

function timeText(millis: number): string {
  let time = "";
  let t = millis;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

export const defaultIdGenerator: IdGenerator = (prefix) => newId(prefix);
