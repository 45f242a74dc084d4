/**
 * Where a folded text has word boundaries, as span location judges them. One definition serves both
 * the verdict on a hit (`boundaryFit`) and the word index (word-index.ts): a value found with
 * boundaries on both sides is made of whole words of the text, so the index can find it by any one of
 * its words only because both sides split words at exactly the same places.
 */

export const REJECTED = 0;
/** Inside a longer word: a last resort. */
export const WEAK = 1;
/** At word boundaries (or inside a run of a script written without spaces). */
export const STRONG = 2;

const WORD = /[\p{L}\p{N}\p{M}]/u;
const MARK = /\p{M}/u;
// Scripts written without spaces between words: a value may sit inside a longer run of them.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

// Per BMP code unit: 0 not yet known, 1 false, 2 true. The expressions above cost far more than a
// table read, and a text repeats the same few non-ASCII characters.
const wordCache = new Uint8Array(0x10000);
const unspacedCache = new Uint8Array(0x10000);

function cached(cache: Uint8Array, code: number, pattern: RegExp): boolean {
  let known = cache[code]!;
  if (known === 0) {
    known = pattern.test(String.fromCharCode(code)) ? 2 : 1;
    cache[code] = known;
  }
  return known === 2;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isAsciiWord(code: number): boolean {
  return isDigit(code) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Whether the character starting at `at` is a letter, digit or mark (a lone low surrogate is not). */
export function isWordCode(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) return isAsciiWord(code);
  if (isHighSurrogate(code)) return WORD.test(String.fromCodePoint(text.codePointAt(at)!));
  return cached(wordCache, code, WORD);
}

function isUnspacedAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) return false;
  if (isHighSurrogate(code)) return UNSPACED.test(String.fromCodePoint(text.codePointAt(at)!));
  return cached(unspacedCache, code, UNSPACED);
}

function isUnspacedBefore(text: string, at: number): boolean {
  const code = text.charCodeAt(at - 1);
  if (code < 0x80) return false;
  if (code >= 0xdc00 && code <= 0xdfff && at >= 2) return UNSPACED.test(text.slice(at - 2, at));
  return cached(unspacedCache, code, UNSPACED);
}

/**
 * Whether the characters on both sides of offset `at` belong to one word, so that `at` is no word
 * boundary: both are letters, digits or marks, and neither is of a script written without spaces.
 */
export function joinedAt(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const code = text.charCodeAt(at);
  const previous = text.charCodeAt(at - 1);
  if (code < 0x80 && previous < 0x80) return isAsciiWord(code) && isAsciiWord(previous);
  return (
    isWordCode(text, at - 1) && isWordCode(text, at) && !isUnspacedAt(text, at) && !isUnspacedBefore(text, at)
  );
}

/** A decimal or grouping mark between two digits: "948566.20" continues past "948566.2". */
function continuesNumber(text: string, mark: number, digit: number): boolean {
  const code = text.charCodeAt(mark);
  return (code === 0x2e || code === 0x2c || code === 0x27) && isDigit(text.charCodeAt(digit));
}

function isMarkAt(text: string, at: number): boolean {
  return text.charCodeAt(at) >= 0x300 && MARK.test(String.fromCodePoint(text.codePointAt(at)!));
}

/** How a hit at [start, end) of the folded text sits among the words around it. */
export function boundaryFit(text: string, start: number, end: number): number {
  const first = text.charCodeAt(start);
  const last = text.charCodeAt(end - 1);
  // Never inside a longer number, nor starting or ending inside one character's decomposition.
  if (isDigit(first) && start > 0) {
    if (isDigit(text.charCodeAt(start - 1))) return REJECTED;
    if (start > 1 && continuesNumber(text, start - 1, start - 2)) return REJECTED;
  }
  if (isDigit(last) && end < text.length) {
    if (isDigit(text.charCodeAt(end))) return REJECTED;
    if (end + 1 < text.length && continuesNumber(text, end, end + 1)) return REJECTED;
  }
  if (end < text.length && isMarkAt(text, end)) return REJECTED;
  if (isMarkAt(text, start)) return REJECTED;
  return joinedAt(text, start) || joinedAt(text, end) ? WEAK : STRONG;
}
