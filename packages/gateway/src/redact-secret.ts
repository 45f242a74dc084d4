/**
 * Removes a credential from text a provider sent back, before the text becomes a gateway
 * error (and so before any response, log line or stored error can carry it). Providers quote
 * the key they received when they refuse it, whole (`Incorrect API key provided: sk-live-…`) or
 * masked in the middle (`sk-li****ARY`); both are replaced by {@link REDACTED}.
 */

/** Shortest run of a secret's characters that counts as a recognisable fragment of it. */
export const MIN_FRAGMENT = 8;
/** A masked echo must show at least this many of the secret's first characters … */
export const MIN_MASKED_PREFIX = 4;
/** … and at least this many of its last ones, around a run of `*`. */
export const MIN_MASKED_SUFFIX = 3;

export const REDACTED = "[redacted]";

/**
 * `text` without any run of {@link MIN_FRAGMENT} or more consecutive characters of `secret` and
 * without masked echoes of it; text that holds neither comes back unchanged (the same string).
 * Secrets shorter than {@link MIN_FRAGMENT} are not matched: no real credential is that short,
 * and matching a placeholder such as `no-key` would mangle ordinary words.
 */
export function redactSecret(text: string, secret: string | null | undefined): string {
  if (secret === null || secret === undefined || secret.length < MIN_FRAGMENT) return text;
  const hidden = new Uint8Array(text.length);
  const found = markFragments(text, secret, hidden) + markMaskedEchoes(text, secret, hidden);
  if (found === 0) return text;
  const marker = markerFor(secret);
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (hidden[i] === 0) out += text[i];
    else if (i === 0 || hidden[i - 1] === 0) out += marker;
  }
  return out;
}

/** Marks every window of {@link MIN_FRAGMENT} characters that also occurs in the secret. */
function markFragments(text: string, secret: string, hidden: Uint8Array): number {
  const windows = new Set<string>();
  for (let i = 0; i + MIN_FRAGMENT <= secret.length; i++) windows.add(secret.slice(i, i + MIN_FRAGMENT));
  let found = 0;
  for (let i = 0; i + MIN_FRAGMENT <= text.length; i++) {
    if (!windows.has(text.slice(i, i + MIN_FRAGMENT))) continue;
    hidden.fill(1, i, i + MIN_FRAGMENT);
    found++;
  }
  return found;
}

/**
 * Marks `<head>***<tail>` where `head` ends with the secret's first ≥ 4 characters and `tail`
 * starts with its last ≥ 3: the provider's own masking, whose visible parts can be shorter than
 * a fragment but together still identify the key.
 */
function markMaskedEchoes(text: string, secret: string, hidden: Uint8Array): number {
  let found = 0;
  for (const run of text.matchAll(/\*+/g)) {
    const start = run.index;
    const end = start + run[0].length;
    const head = shownPrefix(text, start, secret);
    const tail = shownSuffix(text, end, secret);
    if (head < MIN_MASKED_PREFIX || tail < MIN_MASKED_SUFFIX) continue;
    hidden.fill(1, start - head, end + tail);
    found++;
  }
  return found;
}

/** How many of the secret's first characters end right at `at` (the longest such run). */
function shownPrefix(text: string, at: number, secret: string): number {
  for (let length = Math.min(at, secret.length); length > 0; length--) {
    if (text.startsWith(secret.slice(0, length), at - length)) return length;
  }
  return 0;
}

/** How many of the secret's last characters start right at `at` (the longest such run). */
function shownSuffix(text: string, at: number, secret: string): number {
  for (let length = Math.min(text.length - at, secret.length); length > 0; length--) {
    if (text.startsWith(secret.slice(secret.length - length), at)) return length;
  }
  return 0;
}

/**
 * Every window of {@link MIN_FRAGMENT} characters that touches `[redacted]` holds a bracket or is
 * `redacted` itself, so the marker cannot complete a fragment unless the secret contains those;
 * for such a secret, a character it lacks is used instead.
 */
function markerFor(secret: string): string {
  if (!/[[\]]/.test(secret) && !secret.includes("redacted")) return REDACTED;
  for (let code = 0x2022; ; code++) {
    const candidate = String.fromCharCode(code);
    if (!secret.includes(candidate)) return candidate.repeat(3);
  }
}
