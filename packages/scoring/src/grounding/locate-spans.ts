import { findDates, isoDateOf } from "./date-forms.js";
import { type FoldedText, type FoldedUnits, foldTextReusing, foldValue } from "./fold-text.js";
import { canonicalNumber, findNumbers, numberReadings } from "./number-forms.js";
import { partialCandidates } from "./search-values.js";
import { alignTokens, buildTokenIndex, type TokenIndex, tokensOf } from "./token-alignment.js";
import { boundaryFit, REJECTED, STRONG } from "./word-boundaries.js";
import { buildWordIndex, candidateStarts, type WordIndex } from "./word-index.js";

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
  request: SpanRequest;
  patterns: readonly number[];
  /** The other forms of the value, worked out when a tier first needs them (most values never do). */
  variants: Variants | null;
  /** The folded value, for token alignment; null for a number. */
  text: string | null;
  /**
   * Candidate lists per tier built so far, each merged with the ones before; `next` is the next step.
   * Null until the first is built (most values never need a second).
   */
  tiers: Interval[][] | null;
  next: number;
  /**
   * Where the previous mention of this value ended, per series: the next one is the first mention
   * after it, in the lowest tier that has one. (Counting mentions per tier instead would hand a later
   * request an interval a lower tier already gave, when a looser tier finds an earlier one.) Most
   * values belong to one series: its cursor is kept inline, the others in a map.
   */
  series: string | null;
  seriesEnd: number;
  otherSeries: Map<string, number> | null;
}

interface Variants {
  pieces: number[];
  numbers: string[];
  date: string | null;
  /** A partial match shaped like a file name: its found stem or base name is its span. */
  fileName: boolean;
}

const TIER_COUNT = 5;
// Shared by every value without patterns and every tier without hits; never written to.
const NO_PATTERNS: readonly number[] = Object.freeze([]);
const NO_INTERVALS: Interval[] = Object.freeze([]) as unknown as Interval[];
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
  const source = foldTextReusing(text);
  const folded = source.folded;

  const patternIds = new Map<string, number>();
  const patterns: string[] = [];
  const patternId = (pattern: string): number => {
    let id = patternIds.get(pattern);
    if (id === undefined) {
      id = patterns.push(pattern) - 1;
      patternIds.set(pattern, id);
    }
    return id;
  };
  // A distinct value's own pattern is new but for case and separator variants of one value, whose
  // hits are then found twice, the same both times: cheaper than hashing every pattern into the map.
  const addPattern = (pattern: string): number => patterns.push(pattern) - 1;
  // One descriptor per distinct (kind, partial, value), found without building a key string: values
  // are looked up as they are, in one map per kind.
  const descriptors = [
    new Map<unknown, Descriptor>(),
    new Map<unknown, Descriptor>(),
    new Map<unknown, Descriptor>(),
    new Map<unknown, Descriptor>(),
  ];
  // The mentions of each pattern at word boundaries (strong) and inside longer words (weak), each in
  // reading order without overlaps, found when first asked for.
  const strongHits: Array<Interval[] | undefined> = [];
  const weakHits: Array<Interval[] | undefined> = [];
  let wordIndex: WordIndex | null = null;
  const strong = (id: number): Interval[] => {
    const known = strongHits[id];
    if (known !== undefined) return known;
    wordIndex ??= buildWordIndex(folded, source.units);
    let hits = findStrong(source, wordIndex, patterns[id]!);
    if (hits === null) {
      const both = searchHits(folded, wordIndex, patterns[id]!);
      hits = both.strong;
      weakHits[id] = both.weak;
    }
    strongHits[id] = hits;
    return hits;
  };
  const weak = (id: number): Interval[] => {
    let hits = weakHits[id];
    if (hits === undefined) {
      wordIndex ??= buildWordIndex(folded, source.units);
      const both = searchHits(folded, wordIndex, patterns[id]!);
      hits = both.weak;
      weakHits[id] = hits;
      strongHits[id] ??= both.strong;
    }
    return hits;
  };

  let numberIndex: Map<string, Interval[]> | null = null;
  let dateIndex: Map<string, Interval[]> | null = null;
  let tokenIndex: TokenIndex | null = null;
  // Tier k of a descriptor, built only when an earlier tier lacks the wanted occurrence: most values
  // are found verbatim (tier 1), and the number, date and token indexes are then never built.
  const tierAt = (descriptor: Descriptor, tier: number): Interval[] | null => {
    if (descriptor.tiers === null) {
      const { patterns } = descriptor;
      descriptor.next = 1;
      descriptor.tiers = [
        patterns.length === 1 ? strong(patterns[0]!) : mergeIntervals(patterns.map(strong)),
      ];
    }
    const tiers = descriptor.tiers;
    while (tiers.length <= tier && descriptor.next < TIER_COUNT) {
      const step = descriptor.next++;
      const previous = tiers[tiers.length - 1]!;
      if (step === 1) {
        const { numbers, date } = variantsOf(descriptor, patternId);
        if (numbers.length === 0 && date === null) continue;
        const variants: Interval[][] = [previous];
        if (numbers.length > 0) {
          numberIndex ??= indexOccurrences(findNumbers(folded));
          for (const reading of numbers) variants.push(numberIndex.get(reading) ?? []);
        }
        if (date !== null) {
          dateIndex ??= indexOccurrences(findDates(folded));
          variants.push(dateIndex.get(date) ?? []);
        }
        tiers.push(mergeIntervals(variants));
      } else if (step === 2 && descriptor.text !== null && !variantsOf(descriptor, patternId).fileName) {
        const tokens = tokensOf(descriptor.text);
        if (tokens.length >= 2) {
          tokenIndex ??= buildTokenIndex(folded);
          tiers.push(mergeIntervals([previous, alignTokens(tokenIndex, tokens)]));
        }
      } else if (step === 3) {
        // (For a file name this comes before token alignment, which is skipped.)
        // The longest piece found stands for the value.
        const piece = variantsOf(descriptor, patternId).pieces.find((id) => strong(id).length > 0);
        if (piece !== undefined) tiers.push(mergeIntervals([previous, strong(piece)]));
      } else if (step === 4) {
        tiers.push(mergeIntervals([previous, ...descriptor.patterns.map(weak)]));
      }
    }
    return tiers[tier] ?? null;
  };

  // Requests are answered in order as they come: a descriptor's state (its tiers, its cursor per
  // series) depends only on the requests before it, so describing and locating go in one pass.
  const located: Array<TextSpan | null> = new Array(requests.length);
  for (let index = 0; index < requests.length; index++) {
    const request = requests[index]!;
    const kind = (typeof request.value === "number" ? 2 : 0) + (request.partial ? 1 : 0);
    let descriptor = descriptors[kind]!.get(request.value);
    if (descriptor === undefined) {
      descriptor = describe(request, addPattern);
      descriptors[kind]!.set(request.value, descriptor);
    }
    located[index] = descriptor.patterns.length > 0 ? next(descriptor, request.series) : null;
  }
  return located;

  /** The next mention of the descriptor's value in the series, from the lowest tier that has one. */
  function next(descriptor: Descriptor, series: string): TextSpan | null {
    const after = cursorOf(descriptor, series);
    for (let tier = 0; ; tier++) {
      const intervals = tierAt(descriptor, tier);
      if (intervals === null) {
        moveCursor(descriptor, series, Number.POSITIVE_INFINITY);
        return null;
      }
      const interval = intervals[firstStartingAt(intervals, after)];
      if (interval !== undefined) {
        moveCursor(descriptor, series, interval.end);
        return toSpan(source, interval);
      }
    }
  }
}

function cursorOf(descriptor: Descriptor, series: string): number {
  if (descriptor.series === series) return descriptor.seriesEnd;
  return descriptor.otherSeries?.get(series) ?? 0;
}

function moveCursor(descriptor: Descriptor, series: string, end: number): void {
  if (descriptor.series === null) descriptor.series = series;
  if (descriptor.series === series) {
    descriptor.seriesEnd = end;
    return;
  }
  descriptor.otherSeries ??= new Map();
  descriptor.otherSeries.set(series, end);
}

function describe(request: SpanRequest, addPattern: (pattern: string) => number): Descriptor {
  const descriptor: Descriptor = {
    request,
    patterns: NO_PATTERNS,
    variants: null,
    text: null,
    tiers: null,
    next: 0,
    series: null,
    seriesEnd: 0,
    otherSeries: null,
  };
  if (typeof request.value === "number") {
    const canonical = canonicalNumber(request.value);
    if (canonical === null) return descriptor;
    descriptor.patterns = [addPattern(canonical)];
    descriptor.variants = { pieces: [], numbers: [canonical], date: null, fileName: false };
    return descriptor;
  }
  const value = request.value;
  const folded = foldValue(value);
  if (folded.length < MIN_LOCATED_LENGTH) return descriptor;
  const id = addPattern(folded);
  descriptor.patterns = [id];
  // A hyphenated value ("well-known") broken at a line end reads as one word in the folded text.
  if (mayHaveHyphen(value) && HYPHEN_BETWEEN_LETTERS.test(value)) {
    const joined = foldValue(value.replace(/[-\u2010\u2011]/g, ""));
    if (joined !== folded && joined.length >= MIN_LOCATED_LENGTH)
      descriptor.patterns = [id, addPattern(joined)];
  }
  descriptor.text = folded;
  return descriptor;
}

/** The number readings, ISO date and partial pieces of a string value (worked out once). */
function variantsOf(descriptor: Descriptor, patternId: (pattern: string) => number): Variants {
  if (descriptor.variants !== null) return descriptor.variants;
  const variants: Variants = { pieces: [], numbers: [], date: null, fileName: false };
  descriptor.variants = variants;
  const { value, partial } = descriptor.request;
  if (typeof value !== "string" || descriptor.text === null) return variants;
  // Cheap first-character tests spare most values the expressions behind them.
  const lead = value.trimStart().charCodeAt(0);
  const digitFirst = lead >= 0x30 && lead <= 0x39;
  if (digitFirst || lead === 0x2b || lead === 0x2d) variants.numbers = numberReadings(value.trim());
  if (digitFirst) variants.date = isoDateOf(value);
  if (partial) {
    variants.fileName = FILE_NAME_LIKE.test(value.trim());
    const folded = descriptor.text;
    const pieces = partialCandidates(value)
      .map(foldValue)
      .filter((piece) => piece.length >= MIN_LOCATED_LENGTH && piece !== folded)
      .sort((a, b) => b.length - a.length);
    variants.pieces = [...new Set(pieces)].map(patternId);
  }
  return variants;
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
  // The date forms are found form by form: each list is put in reading order for the look-up.
  for (const list of index.values()) list.sort((a, b) => a.start - b.start);
  return index;
}

/** The lists merged in reading order; an interval overlapping one already kept is dropped. */
function mergeIntervals(lists: readonly (readonly Interval[])[]): Interval[] {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 0) return NO_INTERVALS;
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

/** Index of the first interval starting at or after `offset` (intervals sorted by start). */
function firstStartingAt(intervals: readonly Interval[], offset: number): number {
  let low = 0;
  let high = intervals.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (intervals[middle]!.start < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A list of hits being collected: kept in a scratch array reused between lists and copied out at its
 * exact length when done (an array grown by pushes from empty reserves room for 17 elements, and most
 * values have one or two mentions).
 */
class HitCollector {
  private readonly scratch: Interval[] = [];
  private size = 0;

  start(): this {
    this.size = 0;
    return this;
  }

  /** Keeps `[start, end)` unless it overlaps the last interval kept: the earliest mentions win. */
  keep(start: number, end: number): void {
    if (this.size > 0 && start < this.scratch[this.size - 1]!.end) return;
    const interval = { start, end };
    if (this.size < this.scratch.length) this.scratch[this.size++] = interval;
    else {
      this.scratch.push(interval);
      this.size++;
    }
  }

  done(): Interval[] {
    return this.size === 0 ? NO_INTERVALS : this.scratch.slice(0, this.size);
  }
}

const strongCollector = new HitCollector();
const weakCollector = new HitCollector();

/**
 * The mentions of `pattern` at word boundaries, found through the word index: the value's strong
 * mentions consist of whole words of the text, so each is an occurrence of its rarest word. Null when
 * the pattern has no word to look up by.
 */
function findStrong(source: FoldedUnits, index: WordIndex, pattern: string): Interval[] | null {
  const candidates = candidateStarts(index, pattern);
  if (candidates === null) return null;
  const hits = strongCollector.start();
  const { positions } = index;
  const { folded: text, units } = source;
  const length = pattern.length;
  // Compared unit by unit in the folded units (a few units, where a `startsWith` call costs more than
  // the comparison). Most candidates (other words in the same bucket, or the word in another context)
  // differ at the value's first unit.
  const first = pattern.charCodeAt(0);
  const { to, shift } = candidates;
  scan: for (let at = candidates.from; at < to; at++) {
    const start = positions[at]! - shift;
    if (start < 0 || units[start] !== first || start + length > units.length) continue;
    for (let k = 1; k < length; k++) if (units[start + k] !== pattern.charCodeAt(k)) continue scan;
    const end = start + length;
    if (boundaryFit(text, start, end) === STRONG) hits.keep(start, end);
  }
  return hits.done();
}

/**
 * Every mention of `pattern`, at word boundaries or not: through the word index when the pattern holds
 * a whole word, else by a search through the text. The fallback for patterns without a word, and the
 * weak tier.
 */
function searchHits(
  text: string,
  index: WordIndex,
  pattern: string,
): { strong: Interval[]; weak: Interval[] } {
  const strong = strongCollector.start();
  const weak = weakCollector.start();
  const add = (start: number) => {
    const end = start + pattern.length;
    const fit = boundaryFit(text, start, end);
    if (fit !== REJECTED) (fit === STRONG ? strong : weak).keep(start, end);
  };
  const candidates = candidateStarts(index, pattern, true);
  if (candidates !== null) {
    const first = pattern.charCodeAt(0);
    const { to, shift } = candidates;
    for (let at = candidates.from; at < to; at++) {
      const start = index.positions[at]! - shift;
      if (start >= 0 && text.charCodeAt(start) === first && text.startsWith(pattern, start)) add(start);
    }
  } else {
    for (let start = text.indexOf(pattern); start !== -1; start = text.indexOf(pattern, start + 1))
      add(start);
  }
  return { strong: strong.done(), weak: weak.done() };
}
