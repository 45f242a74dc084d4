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

const ASCII_ONLY = /^\p{ASCII}*$/u;

export function toNfc(text: string): string {
  // ASCII is always NFC; the test is much cheaper than a call into ICU for the many short values.
  return ASCII_ONLY.test(text) ? text : text.normalize("NFC");
}

/** Every run of separators becomes one space; used on the input text. */
export function normalizeSeparators(text: string): string {
  return text.replace(SEPARATOR_RUN, " ");
}

/** The form of a value searched for a normalized match: separators collapsed, ends trimmed. */
export function normalizeValue(value: string): string {
  return normalizeSeparators(toNfc(value)).trim();
}

/** Length in code points, so that an astral character counts once. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function isLetterOrDigit(char: string): boolean {
  return LETTER_OR_DIGIT.test(char);
}
