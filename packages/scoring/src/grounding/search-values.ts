import {
  codePointLength,
  isLetterOrDigit,
  isSeparatorCode,
  normalizeValue,
  toNfc,
} from "./normalize-text.js";
import { PatternMatcher } from "./pattern-matcher.js";

export type MatchBasis = "exact_match" | "normalized_match" | "partial_match" | "not_found";

const FILE_EXTENSION = /^[\p{L}\p{N}]{1,8}$/u;
// Past this many words only prefix and suffix spans are tried, which keeps the pattern count linear.
const MAX_WORDS_FOR_ALL_SPANS = 12;
const MIN_SEARCHED_LENGTH = 3;

/**
 * Where each value was found in the texts: verbatim, after separator normalisation, or only in part.
 * Values are searched in each text separately, so nothing matches across a chunk boundary.
 */
export function searchValues(values: Iterable<string>, texts: readonly string[]): Map<string, MatchBasis> {
  const distinct = [...new Set(values)];
  const rawTexts = texts.map(toNfc);
  const results = new Map<string, MatchBasis>();

  // One pattern per distinct normalized form; values whose raw form has separators also need a check
  // against the raw text, because without separators "found normalized" already means "found verbatim".
  const patternIds = new Map<string, number>();
  const patterns: string[] = [];
  const patternOf = new Int32Array(distinct.length);
  const patternId = (pattern: string): number => {
    let id = patternIds.get(pattern);
    if (id === undefined) {
      id = patterns.push(pattern) - 1;
      patternIds.set(pattern, id);
    }
    return id;
  };
  const fileParts = new Map<number, number[]>();
  // Per distinct value: its NFC form and leading separator count, for the verbatim check. A value whose
  // raw form is its normalized form (and has no space) is exact as soon as its pattern is found.
  const raws: string[] = new Array(distinct.length);
  const leads = new Int32Array(distinct.length);
  const exact = new Uint8Array(distinct.length);
  for (let index = 0; index < distinct.length; index++) {
    const value = distinct[index]!;
    const raw = toNfc(value);
    const normalized = normalizeValue(raw);
    if (normalized === "") {
      // Only separators ("___"): nothing to normalize to, so it is looked for verbatim.
      results.set(value, rawTexts.some((text) => text.includes(raw)) ? "exact_match" : "not_found");
      patternOf[index] = -1;
      continue;
    }
    patternOf[index] = patternId(normalized);
    // File-name stems ride along in the first scan: they are few, and finding them there spares the
    // second scan for the common case of a file name quoted without its extension.
    const parts = fileNameParts(raw, normalized);
    if (parts.length > 0) fileParts.set(index, parts.map(patternId));
    raws[index] = raw;
    if (raw === normalized && !raw.includes(" ")) exact[index] = 1;
    else leads[index] = leadingSeparators(raw);
  }

  // The values still to confirm verbatim, chained per pattern through two index arrays (no list or
  // record per value): firstCandidate[pattern] → nextCandidate[value] → … → -1.
  const verify = new Uint8Array(patterns.length);
  const firstCandidate = new Int32Array(patterns.length).fill(-1);
  const nextCandidate = new Int32Array(distinct.length);
  for (let index = distinct.length - 1; index >= 0; index--) {
    const id = patternOf[index]!;
    if (id === -1 || exact[index] === 1) continue;
    nextCandidate[index] = firstCandidate[id]!;
    firstCandidate[id] = index;
    verify[id] = 1;
  }

  const matcher = new PatternMatcher(patterns);
  const found = new Uint8Array(patterns.length);
  for (const text of rawTexts) {
    matcher.scan(text, found, verify, (id, rawStart) => {
      let pending = 0;
      for (let index = firstCandidate[id]!; index !== -1; index = nextCandidate[index]!) {
        if (exact[index] === 1) continue;
        if (text.startsWith(raws[index]!, rawStart - leads[index]!)) exact[index] = 1;
        else pending++;
      }
      // Once every value behind the pattern is confirmed verbatim, its later occurrences need no check.
      if (pending === 0) verify[id] = 0;
    });
  }

  const unresolved: string[] = [];
  for (let index = 0; index < distinct.length; index++) {
    const value = distinct[index]!;
    const id = patternOf[index]!;
    if (id !== -1 && found[id] === 1) {
      results.set(value, exact[index] === 1 ? "exact_match" : "normalized_match");
    } else if (fileParts.get(index)?.some((part) => found[part] === 1)) {
      results.set(value, "partial_match");
    } else if (!results.has(value)) {
      unresolved.push(value);
    }
  }

  if (unresolved.length === 0) return results;
  const candidates = unresolved.map((value) => wordSpans(normalizeValue(value)));
  const partialFound = findAll(candidates.flat(), rawTexts);
  unresolved.forEach((value, index) => {
    const partial = candidates[index]!.some((candidate) => partialFound.has(candidate));
    results.set(value, partial ? "partial_match" : "not_found");
  });
  return results;
}

function leadingSeparators(text: string): number {
  let count = 0;
  while (count < text.length && isSeparatorCode(text.charCodeAt(count))) count++;
  return count;
}

/** The patterns (in normalized form) that occur in the separator-normalized texts. */
function findAll(patterns: readonly string[], texts: readonly string[]): Set<string> {
  const distinct = [...new Set(patterns)].filter((pattern) => pattern.length > 0);
  if (distinct.length === 0) return new Set();
  const matcher = new PatternMatcher(distinct);
  const found = new Uint8Array(distinct.length);
  for (const text of texts) matcher.scan(text, found);
  return new Set(distinct.filter((_, id) => found[id] === 1));
}

/**
 * The pieces of a value whose presence makes a partial match, all in normalized form:
 * - a file name's base name (without directories) and its stem (without the extension);
 * - a run of consecutive words carrying at least half of the value's letters and digits
 *   ("Acme Corporation" for "Acme Corporation Ltd.", "Smith" for "John Smith"), that keeps every word
 *   with a digit in it: numbers are what tells one identifier, amount or date from the next, so
 *   "SKU-9" must not pass on the strength of "SKU" alone.
 * Pieces shorter than 3 characters are never searched: they would match almost anywhere.
 */
export function partialCandidates(value: string): string[] {
  const normalized = normalizeValue(value);
  return [...new Set([...fileNameParts(toNfc(value), normalized), ...wordSpans(normalized)])];
}

/** Normalized base name and stem of a value shaped like a file name; none otherwise. */
function fileNameParts(raw: string, normalized: string): readonly string[] {
  // Most values have no dot, and without one the expression cannot match: skip the trim and the match.
  if (!raw.includes(".")) return NO_PARTS;
  const fileName = splitFileName(raw.trim());
  if (fileName === null) return NO_PARTS;
  return [normalizeValue(fileName.base), normalizeValue(fileName.stem)].filter(
    (part, index, parts) => part !== normalized && parts.indexOf(part) === index && isSearchablePiece(part),
  );
}

const NO_PARTS: readonly string[] = Object.freeze([]);

/**
 * Base name and stem of a file name, as `^(?:.*[\\/])?(([^\\/]+?)\.[\p{L}\p{N}]{1,8})$/u` captures them,
 * without the expression's match object: the base name follows the last slash (the directories before
 * it hold no line break, which `.` does not match), the extension follows the base name's last dot
 * (an extension has no dot) and is 1 to 8 letters or digits, and the stem before it is not empty.
 */
export function splitFileName(text: string): { base: string; stem: string } | null {
  const slash = Math.max(text.lastIndexOf("/"), text.lastIndexOf("\\"));
  for (let i = 0; i < slash; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) return null;
  }
  const dot = text.lastIndexOf(".");
  if (dot <= slash + 1 || !FILE_EXTENSION.test(text.slice(dot + 1))) return null;
  return { base: text.slice(slash + 1), stem: text.slice(slash + 1, dot) };
}

function isSearchablePiece(piece: string): boolean {
  return codePointLength(piece) >= MIN_SEARCHED_LENGTH;
}

interface Word {
  start: number;
  end: number;
  letters: number;
}

function words(text: string): Word[] {
  const found: Word[] = [];
  let current: Word | null = null;
  let offset = 0;
  for (const char of text) {
    // ASCII is decided from the code; anything else by the Unicode classes.
    const code = char.charCodeAt(0);
    const wordChar =
      code < 0x80
        ? (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a)
        : isLetterOrDigit(char);
    if (wordChar) {
      if (current === null) {
        current = { start: offset, end: offset, letters: 0 };
        found.push(current);
      }
      current.letters++;
      current.end = offset + char.length;
    } else {
      current = null;
    }
    offset += char.length;
  }
  return found;
}

const NUMBER = /\p{N}/u;

/** Whether the word holds a digit of any script (ASCII decided from the code, the rest by the class). */
function hasDigit(text: string, word: Word): boolean {
  for (let at = word.start; at < word.end; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80 ? code >= 0x30 && code <= 0x39 : NUMBER.test(String.fromCodePoint(text.codePointAt(at)!)))
      return true;
  }
  return false;
}

function wordSpans(normalized: string): string[] {
  const all = words(normalized);
  const total = all.reduce((sum, word) => sum + word.letters, 0);
  const spans: string[] = [];
  if (total === 0) return spans;
  const allSpans = all.length <= MAX_WORDS_FOR_ALL_SPANS;
  let firstDigitWord = all.length;
  let lastDigitWord = -1;
  for (let index = 0; index < all.length; index++) {
    if (!hasDigit(normalized, all[index]!)) continue;
    if (firstDigitWord === all.length) firstDigitWord = index;
    lastDigitWord = index;
  }
  for (let first = 0; first <= Math.min(firstDigitWord, all.length - 1); first++) {
    let letters = 0;
    for (let last = first; last < all.length; last++) {
      letters += all[last]!.letters;
      const edge = first === 0 || last === all.length - 1;
      if ((allSpans || edge) && last >= lastDigitWord && letters * 2 >= total) {
        const span = normalized.slice(all[first]!.start, all[last]!.end);
        if (span !== normalized && isSearchablePiece(span)) spans.push(span);
      }
    }
  }
  return spans;
}
