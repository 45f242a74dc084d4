import { findDates, isoDateOf } from "./date-forms.js";
import { type FoldedText, foldText, foldValue } from "./fold-text.js";
import { canonicalNumber, findNumbers, numberReadings } from "./number-forms.js";
import { PatternMatcher } from "./pattern-matcher.js";
import { partialCandidates } from "./search-values.js";
import { alignTokens, buildTokenIndex, type TokenIndex, tokensOf } from "./token-alignment.js";

/** Where a value lies in the input text: code-point offsets, end exclusive (as Python counts). */
export interface TextSpan {
  start: number;
  end: number;
}

export interface SpanRequest {
  value: string | number;
  /**
   * Requests with the same series and the same value take successive occurrences in reading order:
   * the n-th item of an array whose field repeats a value gets the n-th mention, not the first again.
   */
  series: string;
  /** Whether the pieces that make a partial match (a file-name stem, a run of words) may stand in. */
  partial: boolean;
}

const MIN_LOCATED_LENGTH = 3;

interface Interval {
  start: number;
  end: number;
}

interface Descriptor {
  patterns: number[];
  pieces: number[];
  numbers: string[];
  date: string | null;
  /** The folded value, for token alignment; null for a number. */
  text: string | null;
  /** A partial match shaped like a file name: its found stem or base name is its span. */
  fileName: boolean;
  /** Candidate lists per tier built so far, each merged with the ones before; `next` is the next step. */
  tiers: Interval[][];
  next: number;
}

const TIER_COUNT = 5;
const HYPHEN_BETWEEN_LETTERS = /\p{L}[-\u2010\u2011]\p{L}/u;
// A file name found by its stem: the stem is the span, fuzzy alignment of its parts would add nothing.
const FILE_NAME_LIKE = /^\S+\.[\p{L}\p{N}]{1,8}$/u;

/**
 * Locates each requested value in `text`, in tiers tried in order until the n-th occurrence exists:
 * 1. the folded value (case, separators, line-end hyphenation, NFC/NFD differences ignored) at token
 *    boundaries — never inside a longer number, and not inside a longer word (except in scripts written
 *    without spaces, such as CJK);
 * 2. the same number written differently, or the same date written in another form;
 * 3. fuzzy ordered token alignment (token-alignment.ts);
 * 4. for a partial match, the piece of the value that was found;
 * 5. the folded value inside a longer word.
 * Each tier's list is merged with the earlier ones in reading order without overlaps. Null when the
 * value cannot be located (or has fewer mentions than requests).
 */
export function locateSpans(text: string, requests: readonly SpanRequest[]): Array<TextSpan | null> {
  if (requests.length === 0) return [];
  const source = foldText(text);
  const folded = source.folded;

  const patternIds = new Map<string, number>();
  const patterns: string[] = [];
  const need: number[] = [];
  const patternId = (pattern: string): number => {
    let id = patternIds.get(pattern);
    if (id === undefined) {
      id = patterns.push(pattern) - 1;
      patternIds.set(pattern, id);
      need.push(0);
    }
    return id;
  };
  const descriptors = new Map<string, Descriptor>();
  const requestDescriptors: Array<Descriptor | null> = [];
  const requestKeys: string[] = [];
  for (const request of requests) {
    const key = `${typeof request.value === "number" ? "n" : "s"}${request.partial ? "p" : "-"}${request.value}`;
    let descriptor = descriptors.get(key);
    if (descriptor === undefined) {
      descriptor = describe(request, patternId);
      descriptors.set(key, descriptor);
    }
    for (const id of descriptor.patterns) need[id]!++;
    for (const id of descriptor.pieces) need[id]!++;
    requestDescriptors.push(descriptor.patterns.length + descriptor.numbers.length > 0 ? descriptor : null);
    requestKeys.push(`${request.series}\u0000${key}`);
  }

  const strong: Interval[][] = patterns.map(() => []);
  const weak: Interval[][] = patterns.map(() => []);
  if (patterns.length > 0) {
    const matcher = new PatternMatcher(patterns);
    const verify = new Uint8Array(patterns.length).fill(1);
    const found = new Uint8Array(patterns.length);
    matcher.scan(folded, found, verify, (id, start, end) => {
      const fit = boundaryFit(folded, start, end);
      if (fit === REJECTED) return;
      const list = fit === STRONG ? strong[id]! : weak[id]!;
      const last = list.at(-1);
      if (last !== undefined && start < last.end) return;
      if (list.length < need[id]!) list.push({ start, end });
      if (strong[id]!.length >= need[id]!) verify[id] = 0;
    });
  }

  let numberIndex: Map<string, Interval[]> | null = null;
  let dateIndex: Map<string, Interval[]> | null = null;
  let tokenIndex: TokenIndex | null = null;
  // Tier k of a descriptor, built only when an earlier tier lacks the wanted occurrence: most values
  // are found verbatim (tier 1), and the number, date and token indexes are then never built.
  const tierAt = (descriptor: Descriptor, tier: number): Interval[] | null => {
    const tiers = descriptor.tiers;
    while (tiers.length <= tier && descriptor.next < TIER_COUNT) {
      const step = descriptor.next++;
      const previous = tiers.at(-1) ?? [];
      if (step === 0) {
        tiers.push(mergeIntervals(descriptor.patterns.map((id) => strong[id]!)));
      } else if (step === 1 && (descriptor.numbers.length > 0 || descriptor.date !== null)) {
        const variants: Interval[][] = [previous];
        if (descriptor.numbers.length > 0) {
          numberIndex ??= indexOccurrences(findNumbers(folded));
          for (const reading of descriptor.numbers) variants.push(numberIndex.get(reading) ?? []);
        }
        if (descriptor.date !== null) {
          dateIndex ??= indexOccurrences(findDates(folded));
          variants.push(dateIndex.get(descriptor.date) ?? []);
        }
        tiers.push(mergeIntervals(variants));
      } else if (step === 2 && descriptor.text !== null && !descriptor.fileName) {
        const tokens = tokensOf(descriptor.text);
        if (tokens.length >= 2) {
          tokenIndex ??= buildTokenIndex(folded);
          tiers.push(mergeIntervals([previous, alignTokens(tokenIndex, tokens)]));
        }
      } else if (step === 3 && descriptor.pieces.length > 0) {
        // (For a file name this comes before token alignment, which is skipped.)
        // The longest piece found stands for the value.
        const piece = descriptor.pieces.find((id) => strong[id]!.length > 0);
        if (piece !== undefined) tiers.push(mergeIntervals([previous, strong[piece]!]));
      } else if (step === 4) {
        tiers.push(mergeIntervals([previous, ...descriptor.patterns.map((id) => weak[id]!)]));
      }
    }
    return tiers[tier] ?? null;
  };

  // Where the previous mention of each (series, value) ended: the next one is the first mention
  // after it, in the lowest tier that has one. (Counting mentions per tier instead would hand a
  // later request an interval a lower tier already gave, when a looser tier finds an earlier one.)
  const lastEnd = new Map<string, number>();
  return requests.map((_, index) => {
    const descriptor = requestDescriptors[index];
    if (descriptor === null || descriptor === undefined) return null;
    const key = requestKeys[index]!;
    const after = lastEnd.get(key) ?? 0;
    for (let tier = 0; ; tier++) {
      const intervals = tierAt(descriptor, tier);
      if (intervals === null) {
        lastEnd.set(key, Number.POSITIVE_INFINITY);
        return null;
      }
      const interval = intervals.find((candidate) => candidate.start >= after);
      if (interval !== undefined) {
        lastEnd.set(key, interval.end);
        return toSpan(source, interval);
      }
    }
  });
}

function describe(request: SpanRequest, patternId: (pattern: string) => number): Descriptor {
  const descriptor: Descriptor = {
    patterns: [],
    pieces: [],
    numbers: [],
    date: null,
    text: null,
    fileName: false,
    tiers: [],
    next: 0,
  };
  if (typeof request.value === "number") {
    const canonical = canonicalNumber(request.value);
    if (canonical === null) return descriptor;
    descriptor.patterns.push(patternId(canonical));
    descriptor.numbers.push(canonical);
    return descriptor;
  }
  const value = request.value;
  const folded = foldValue(value);
  if (folded.length < MIN_LOCATED_LENGTH) return descriptor;
  descriptor.patterns.push(patternId(folded));
  // A hyphenated value ("well-known") broken at a line end reads as one word in the folded text.
  if (mayHaveHyphen(value) && HYPHEN_BETWEEN_LETTERS.test(value)) {
    const joined = foldValue(value.replace(/[-\u2010\u2011]/g, ""));
    if (joined !== folded && joined.length >= MIN_LOCATED_LENGTH) descriptor.patterns.push(patternId(joined));
  }
  // Cheap first-character tests spare most values the expressions behind them.
  const lead = value.trimStart().charCodeAt(0);
  const digitFirst = lead >= 0x30 && lead <= 0x39;
  if (digitFirst || lead === 0x2b || lead === 0x2d) descriptor.numbers = numberReadings(value.trim());
  if (digitFirst) descriptor.date = isoDateOf(value);
  descriptor.text = folded;
  if (request.partial) {
    descriptor.fileName = FILE_NAME_LIKE.test(value.trim());
    const pieces = partialCandidates(value)
      .map(foldValue)
      .filter((piece) => piece.length >= MIN_LOCATED_LENGTH && piece !== folded)
      .sort((a, b) => b.length - a.length);
    descriptor.pieces = [...new Set(pieces)].map(patternId);
  }
  return descriptor;
}

function mayHaveHyphen(value: string): boolean {
  return value.includes("-") || value.includes("\u2010") || value.includes("\u2011");
}

function indexOccurrences(occurrences: ReadonlyArray<Interval & { readings: string[] }>) {
  const index = new Map<string, Interval[]>();
  for (const occurrence of occurrences) {
    for (const reading of occurrence.readings) {
      let list = index.get(reading);
      if (list === undefined) {
        list = [];
        index.set(reading, list);
      }
      list.push({ start: occurrence.start, end: occurrence.end });
    }
  }
  return index;
}

/** The lists merged in reading order; an interval overlapping one already kept is dropped. */
function mergeIntervals(lists: readonly (readonly Interval[])[]): Interval[] {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 0) return [];
  if (nonEmpty.length === 1) return nonEmpty[0] as Interval[];
  const all = nonEmpty.flat().sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Interval[] = [];
  for (const interval of all) {
    const last = merged.at(-1);
    if (last !== undefined && interval.start < last.end) continue;
    merged.push(interval);
  }
  return merged;
}

function toSpan(source: FoldedText, interval: Interval): TextSpan {
  return { start: source.origin[interval.start]!, end: source.origin[interval.end - 1]! + 1 };
}

const REJECTED = 0;
const WEAK = 1;
const STRONG = 2;

const WORD = /[\p{L}\p{N}\p{M}]/u;
const MARK = /\p{M}/u;
// Scripts written without spaces between words: a value may sit inside a longer run of them.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isWordCode(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) return isDigit(code) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  return WORD.test(charAt(text, at));
}

function charAt(text: string, at: number): string {
  return String.fromCodePoint(text.codePointAt(at)!);
}

/** A decimal or grouping mark between two digits: "948566.20" continues past "948566.2". */
function continuesNumber(text: string, mark: number, digit: number): boolean {
  const code = text.charCodeAt(mark);
  return (code === 0x2e || code === 0x2c || code === 0x27) && isDigit(text.charCodeAt(digit));
}

function boundaryFit(text: string, start: number, end: number): number {
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
  if (end < text.length && text.charCodeAt(end) >= 0x300 && MARK.test(charAt(text, end))) return REJECTED;
  if (text.charCodeAt(start) >= 0x300 && MARK.test(charAt(text, start))) return REJECTED;
  const before = start > 0 && isWordCode(text, start - 1) && isWordCode(text, start);
  const after = end < text.length && isWordCode(text, end) && isWordCode(text, end - 1);
  if (!before && !after) return STRONG;
  const inside =
    (before && !(UNSPACED.test(charAt(text, start)) || UNSPACED.test(charBefore(text, start)))) ||
    (after && !(UNSPACED.test(charBefore(text, end)) || UNSPACED.test(charAt(text, end))));
  return inside ? WEAK : STRONG;
}

function charBefore(text: string, at: number): string {
  const code = text.charCodeAt(at - 1);
  if (code >= 0xdc00 && code <= 0xdfff && at >= 2) return text.slice(at - 2, at);
  return text[at - 1]!;
}
