import { isWordCode, joinedAt } from "../../src/grounding/word-boundaries.js";

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

export function buildWordIndex(text: string): WordIndex {
  const length = text.length;
  let starts = new Int32Array(Math.max(1024, length >> 2));
  let hashes = new Int32Array(starts.length);
  let count = 0;
  for (let start = wordStart(text, 0); start < length; ) {
    const end = wordEnd(text, start);
    if (count === starts.length) {
      const grownStarts = new Int32Array(count * 2);
      grownStarts.set(starts);
      starts = grownStarts;
      const grownHashes = new Int32Array(count * 2);
      grownHashes.set(hashes);
      hashes = grownHashes;
    }
    starts[count] = start;
    hashes[count++] = hashOf(text, start, end);
    start = wordStart(text, end);
  }
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

/** Where a value may start: `positions[from … to)` of the index, each minus `shift`. */
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
  let best: Candidates | null = null;
  const length = value.length;
  for (let start = wordStart(value, 0); start < length; ) {
    const end = wordEnd(value, start);
    // With `anywhere`, whole words only: not one the value opens or closes with.
    if (!anywhere || (start > 0 && end < length)) {
      const bucket = hashOf(value, start, end) & mask;
      const from = bucketStart[bucket]!;
      const to = bucketStart[bucket + 1]!;
      if (best === null || to - from < best.to - best.from) best = { from, to, shift: start };
    }
    start = wordStart(value, end);
  }
  return best;
}
