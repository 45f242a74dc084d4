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

/** A word of a value: its offset in the value and its hash. */
export interface ValueWord {
  offset: number;
  hash: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Calls `visit(start, hash)` for each word of `text`, in reading order. */
function forEachWord(text: string, visit: (start: number, hash: number) => void): void {
  const length = text.length;
  let at = 0;
  while (at < length) {
    if (!isWordCode(text, at)) {
      at++;
      continue;
    }
    const start = at;
    let hash = Math.imul(FNV_OFFSET ^ text.charCodeAt(at), FNV_PRIME);
    at++;
    while (at < length && joinedAt(text, at)) {
      hash = Math.imul(hash ^ text.charCodeAt(at), FNV_PRIME);
      at++;
    }
    visit(start, hash);
  }
}

export function buildWordIndex(text: string): WordIndex {
  // At most one word per two code units (a word and its boundary), plus one.
  let starts = new Int32Array(1024);
  let hashes = new Int32Array(1024);
  let count = 0;
  forEachWord(text, (start, hash) => {
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
  });
  // About two buckets per word keeps unrelated words mostly apart.
  let size = 1024;
  while (size < count * 2) size *= 2;
  const mask = size - 1;
  const bucketStart = new Int32Array(size + 1);
  for (let word = 0; word < count; word++) bucketStart[(hashes[word]! & mask) + 1]!++;
  for (let bucket = 0; bucket < size; bucket++) bucketStart[bucket + 1]! += bucketStart[bucket]!;
  const cursor = bucketStart.slice(0, size);
  const positions = new Int32Array(count);
  for (let word = 0; word < count; word++) positions[cursor[hashes[word]! & mask]!++] = starts[word]!;
  return { bucketStart, positions, mask };
}

/** The words of a folded value, split exactly as the text's words are. */
export function wordsOf(value: string): ValueWord[] {
  const words: ValueWord[] = [];
  forEachWord(value, (offset, hash) => {
    words.push({ offset, hash });
  });
  return words;
}

/**
 * Where `value` may start in the indexed text if it lies there at word boundaries: one candidate per
 * occurrence of (the bucket of) its rarest word, in reading order. Null when the value has no word to
 * look up by (the caller searches for it instead).
 */
export function candidateStarts(index: WordIndex, value: string): Int32Array | null {
  // A value opening with a lone low surrogate could hide a boundary the text does not have.
  const first = value.charCodeAt(0);
  if (first >= 0xdc00 && first <= 0xdfff) return null;
  const words = wordsOf(value);
  if (words.length === 0) return null;
  let best = words[0]!;
  let bestSize = Number.POSITIVE_INFINITY;
  for (const word of words) {
    const bucket = word.hash & index.mask;
    const size = index.bucketStart[bucket + 1]! - index.bucketStart[bucket]!;
    if (size < bestSize) {
      best = word;
      bestSize = size;
    }
  }
  const bucket = best.hash & index.mask;
  const from = index.bucketStart[bucket]!;
  const candidates = new Int32Array(bestSize);
  for (let i = 0; i < bestSize; i++) candidates[i] = index.positions[from + i]! - best.offset;
  return candidates;
}
