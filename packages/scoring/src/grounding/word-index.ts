import { isWordCode, joinedAt } from "./word-boundaries.js";

/**
 * The words of a folded text (runs split where `joinedAt` says there is a boundary), indexed by a hash
 * of each word: built once per text, it turns "where does this value lie at word boundaries" into a
 * look-up of the value's rarest word and a check of the few places it occurs, instead of a search
 * through the whole text per value.
 *
 * Positions are grouped by hash bucket, not by word: two words sharing a bucket only add candidates,
 * which the caller's check of the whole value discards.
 */
export interface WordIndex {
  /** Bucket `b` holds `positions[bucketStart[b] … bucketStart[b + 1])`, word starts in reading order. */
  bucketStart: Int32Array;
  positions: Int32Array;
  mask: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

// Letters and digits of ASCII: the text's common case, decided without a call.
const ASCII_WORD = new Uint8Array(0x80);
for (const [from, to] of [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x61, 0x7a],
]) {
  ASCII_WORD.fill(1, from!, to! + 1);
}

/** Where the next word at or after `at` starts (the text's length when none does). */
function wordStart(text: string, at: number): number {
  const length = text.length;
  for (; at < length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80 ? ASCII_WORD[code] === 1 : isWordCode(text, at)) return at;
  }
  return length;
}

/** Where the word starting at `start` ends. */
function wordEnd(text: string, start: number): number {
  const length = text.length;
  let previous = text.charCodeAt(start);
  let at = start + 1;
  for (; at < length; at++) {
    const code = text.charCodeAt(at);
    // Between two ASCII characters, a word goes on exactly while letters and digits do.
    if (code < 0x80 && previous < 0x80 ? ASCII_WORD[code] === 0 : !joinedAt(text, at)) break;
    previous = code;
  }
  return at;
}

function hashOf(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let at = start; at < end; at++) hash = Math.imul(hash ^ text.charCodeAt(at), FNV_PRIME);
  return hash;
}

// Kept between calls, like the folded text's buffers (fold-text.ts): a long text has tens of thousands
// of words, and span location builds its index on every call. The index a call returns is valid until
// the next call.
let wordStarts = new Int32Array(1024);
let wordHashes = new Int32Array(1024);
let sharedPositions = new Int32Array(1024);
let sharedBuckets = new Int32Array(1025);

/** `units` are the text's UTF-16 units (`units[i] === text.charCodeAt(i)`): the scan reads them there. */
export function buildWordIndex(text: string, units: Uint16Array): WordIndex {
  const length = text.length;
  // One pass: each word's extent and hash together (the same splits as wordStart/wordEnd, the same
  // hash as hashOf, which look-ups of values use).
  let starts = wordStarts;
  let hashes = wordHashes;
  let count = 0;
  let at = 0;
  while (at < length) {
    let code = units[at]!;
    if (code < 0x80 ? ASCII_WORD[code] !== 1 : !isWordCode(text, at)) {
      at++;
      continue;
    }
    const start = at;
    let hash = Math.imul(FNV_OFFSET ^ code, FNV_PRIME);
    let previous = code;
    for (at++; at < length; at++) {
      code = units[at]!;
      // Between two ASCII characters, a word goes on exactly while letters and digits do.
      if (code < 0x80 && previous < 0x80 ? ASCII_WORD[code] === 0 : !joinedAt(text, at)) break;
      hash = Math.imul(hash ^ code, FNV_PRIME);
      previous = code;
    }
    if (count === starts.length) {
      const grownStarts = new Int32Array(count * 2);
      grownStarts.set(starts);
      starts = grownStarts;
      const grownHashes = new Int32Array(count * 2);
      grownHashes.set(hashes);
      hashes = grownHashes;
    }
    starts[count] = start;
    hashes[count++] = hash;
  }
  wordStarts = starts;
  wordHashes = hashes;
  // At least one bucket per word (most words repeat, so far fewer distinct ones) keeps unrelated words
  // mostly apart; more buckets would cost more to clear and sum than the collisions they spare.
  let size = 1024;
  while (size < count) size *= 2;
  const mask = size - 1;
  if (sharedBuckets.length < size + 1) sharedBuckets = new Int32Array(size + 1);
  const bucketStart = sharedBuckets.subarray(0, size + 1);
  bucketStart.fill(0);
  // Counted into each bucket's own slot, summed to where each bucket ends, then filled back to front
  // from those ends: each bucket's positions come out in reading order and `bucketStart[b]` ends up
  // where bucket b begins, without a cursor array.
  for (let word = 0; word < count; word++) bucketStart[hashes[word]! & mask]!++;
  for (let bucket = 1; bucket < size; bucket++) bucketStart[bucket]! += bucketStart[bucket - 1]!;
  bucketStart[size] = count;
  if (sharedPositions.length < count) sharedPositions = new Int32Array(count);
  const positions = sharedPositions;
  for (let word = count - 1; word >= 0; word--)
    positions[--bucketStart[hashes[word]! & mask]!] = starts[word]!;
  return { bucketStart, positions, mask };
}

/** Where a value may start: `positions[from … to)` of the index, each minus `shift`. Valid until the next look-up. */
export interface Candidates {
  from: number;
  to: number;
  shift: number;
}

/**
 * Where `value` may start in the indexed text: one candidate per occurrence of (the bucket of) one of
 * its words, the rarest, in reading order. With `anywhere`, the candidates cover every occurrence of
 * the value, also inside longer words; then only a word inside the value qualifies (its first and last
 * words may be parts of longer words of the text). Otherwise they cover its occurrences at word
 * boundaries. Null when the value has no word to look up by (the caller searches for it instead).
 */
export function candidateStarts(index: WordIndex, value: string, anywhere = false): Candidates | null {
  // A value opening with a lone low surrogate could hide a boundary the text does not have.
  const first = value.charCodeAt(0);
  if (first >= 0xdc00 && first <= 0xdfff) return null;
  const { bucketStart, mask } = index;
  let found = false;
  const best = CANDIDATES;
  const length = value.length;
  for (let start = wordStart(value, 0); start < length; ) {
    const end = wordEnd(value, start);
    // With `anywhere`, whole words only: not one the value opens or closes with.
    if (!anywhere || (start > 0 && end < length)) {
      const bucket = hashOf(value, start, end) & mask;
      const from = bucketStart[bucket]!;
      const to = bucketStart[bucket + 1]!;
      if (!found || to - from < best.to - best.from) {
        found = true;
        best.from = from;
        best.to = to;
        best.shift = start;
      }
    }
    start = wordStart(value, end);
  }
  return found ? best : null;
}

// The one answer of `candidateStarts`, overwritten by its next call (its callers read it at once): a
// look-up per distinct value and word would otherwise leave an object behind each time.
const CANDIDATES: Candidates = { from: 0, to: 0, shift: 0 };
