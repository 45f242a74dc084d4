/**
 * Text normalisation shared by the grounding index and the values it looks for. Both sides are put in
 * Unicode NFC first, so a composed "é" in the input matches a decomposed one in the output.
 */

// Whitespace of any script, underscores and hyphens: the separators the spec names.
const SEPARATOR_RUN = /[\s_\-\u2010\u2011]+/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;

// The same separator set (JS `\s` plus `_`, `-`, U+2010, U+2011) as one table over UTF-16 code units,
// for the grounding scan's inner loop; a test checks it against the regular expression.
export const SEPARATOR_CODES = new Uint8Array(0x10000);
for (const [from, to] of [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0x2d, 0x2d],
  [0x5f, 0x5f],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2010, 0x2011],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
] as const) {
  SEPARATOR_CODES.fill(1, from, to + 1);
}

export function isSeparatorCode(code: number): boolean {
  return SEPARATOR_CODES[code] === 1;
}

// Every code point below U+0300 (ASCII and Latin-1 included) has NFC_Quick_Check=Yes, so a string made
// only of them is already NFC; the first "Maybe" (a combining mark) is U+0300.
const FIRST_NFC_UNSTABLE = 0x300;

export function toNfc(text: string): string {
  // A loop over code units is much cheaper than a call into ICU (or a regular expression) for the many
  // short values, and allocates nothing.
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= FIRST_NFC_UNSTABLE) return text.normalize("NFC");
  }
  return text;
}

/** Every run of separators becomes one space; used on the input text. */
export function normalizeSeparators(text: string): string {
  return text.replace(SEPARATOR_RUN, " ");
}

/** The form of a value searched for a normalized match: separators collapsed, ends trimmed. */
export function normalizeValue(value: string): string {
  const nfc = toNfc(value);
  // Most values are already in normalized form; checking that is a loop over code units, where the
  // replace and trim would build two strings.
  return isNormalizedForm(nfc) ? nfc : collapseSeparators(nfc);
}

/**
 * `normalizeSeparators(text).trim()` in one loop: the text between separator runs is copied as slices,
 * one space between them, none at the ends. (The expression and the trim cost a match object and an
 * intermediate string per value; every separator is one `trim` strips or the expression turns into a
 * space that it then strips, so the two agree.)
 */
function collapseSeparators(text: string): string {
  let result = "";
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const separator = i === text.length || SEPARATOR_CODES[text.charCodeAt(i)] === 1;
    if (!separator) {
      if (start === -1) start = i;
      continue;
    }
    if (start === -1) continue;
    result = result === "" ? text.slice(start, i) : `${result} ${text.slice(start, i)}`;
    start = -1;
  }
  return result;
}

/** No separator but single inner spaces: what `normalizeSeparators(text).trim()` leaves unchanged. */
function isNormalizedForm(text: string): boolean {
  const last = text.length - 1;
  for (let i = 0; i <= last; i++) {
    const code = text.charCodeAt(i);
    if (SEPARATOR_CODES[code] !== 1) continue;
    if (code !== 0x20 || i === 0 || i === last || text.charCodeAt(i + 1) === 0x20) return false;
  }
  return true;
}

/** Length in code points, so that an astral character (a surrogate pair) counts once. */
export function codePointLength(text: string): number {
  return codePointLengthUpTo(text, text.length);
}

/**
 * Length in code points, counting no further than `limit`: enough to compare a length with a minimum
 * without walking a long string. Counted like string iteration: a lone surrogate is one code point.
 */
export function codePointLengthUpTo(text: string, limit: number): number {
  let count = 0;
  for (let i = 0; i < text.length && count < limit; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

export function isLetterOrDigit(char: string): boolean {
  return LETTER_OR_DIGIT.test(char);
}
