/**
 * Fuzzy, ordered token alignment: finds a value whose words appear in order but interrupted by a few
 * other words ("Acme Global Holdings" in "Acme (formerly Zenith) Global Holdings"), or with a word
 * missing. The threshold, also in docs/provenance.md:
 * - the value has at least 2 tokens (letter/digit runs of the folded text);
 * - at least ALIGN_MIN_SHARE (75 %, rounded up) of them are found, in the value's order, and the
 *   first and last value tokens found bound the span;
 * - at most max(ALIGN_MIN_INSERTED, number of value tokens) other tokens lie inside the span.
 * Among the alignments, those matching the most value tokens win; they are listed in reading order
 * without overlaps.
 */

export const ALIGN_MIN_SHARE = 0.75;
export const ALIGN_MIN_INSERTED = 3;
// A very common anchor word ("the") would make the alignment quadratic; its occurrences past this
// many are not tried.
const MAX_ANCHOR_OCCURRENCES = 5000;

export interface TokenIndex {
  starts: Int32Array;
  ends: Int32Array;
  /** Token id per text token (ids from `ids`). */
  tokenIds: Int32Array;
  ids: Map<string, number>;
  /**
   * Positions (text token indexes) per token id, in reading order: those of id `i` are
   * `positions[positionStart[i] … positionStart[i + 1])`.
   */
  positionStart: Int32Array;
  positions: Int32Array;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * The tokens of a text with an id per distinct token. Tokens are told apart by a hash of their units
 * and a comparison with the first occurrence of the token the hash points at, in the text itself:
 * only a token's first occurrence becomes a string (a long text repeats a few thousand distinct words
 * tens of thousands of times).
 */
export function buildTokenIndex(text: string): TokenIndex {
  const length = text.length;
  let starts: Int32Array = new Int32Array(1024);
  let ends: Int32Array = new Int32Array(1024);
  let tokenIds: Int32Array = new Int32Array(1024);
  let count = 0;
  const ids = new Map<string, number>();
  // Open addressing over token hashes: slot → id + 1 (0 empty); per id its hash and first occurrence.
  let slots = new Int32Array(4096);
  let idHashes: Int32Array = new Int32Array(1024);
  let idStarts: Int32Array = new Int32Array(1024);
  let idEnds: Int32Array = new Int32Array(1024);
  let i = 0;
  while (i < length) {
    if (!isTokenUnit(text, i)) {
      i++;
      continue;
    }
    const start = i;
    let hash = FNV_OFFSET;
    while (i < length && isTokenUnit(text, i)) hash = Math.imul(hash ^ text.charCodeAt(i++), FNV_PRIME);
    const end = i;
    let mask = slots.length - 1;
    let slot = hash & mask;
    let id = -1;
    for (let entry = slots[slot]!; entry !== 0; entry = slots[slot]!) {
      const candidate = entry - 1;
      if (
        idHashes[candidate] === hash &&
        sameUnits(text, idStarts[candidate]!, idEnds[candidate]!, start, end)
      ) {
        id = candidate;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (id === -1) {
      id = ids.size;
      ids.set(text.slice(start, end), id);
      if (id === idHashes.length) {
        idHashes = grown(idHashes);
        idStarts = grown(idStarts);
        idEnds = grown(idEnds);
      }
      idHashes[id] = hash;
      idStarts[id] = start;
      idEnds[id] = end;
      slots[slot] = id + 1;
      // At most half full, so probes stay short.
      if ((id + 1) * 2 > slots.length) {
        slots = new Int32Array(slots.length * 2);
        mask = slots.length - 1;
        for (let known = 0; known <= id; known++) {
          let free = idHashes[known]! & mask;
          while (slots[free] !== 0) free = (free + 1) & mask;
          slots[free] = known + 1;
        }
      }
    }
    if (count === starts.length) {
      starts = grown(starts);
      ends = grown(ends);
      tokenIds = grown(tokenIds);
    }
    starts[count] = start;
    ends[count] = end;
    tokenIds[count++] = id;
  }
  // Positions grouped by id, each group in reading order (a counting sort).
  const positionStart = new Int32Array(ids.size + 1);
  for (let token = 0; token < count; token++) positionStart[tokenIds[token]! + 1]!++;
  for (let id = 0; id < ids.size; id++) positionStart[id + 1]! += positionStart[id]!;
  const cursor = positionStart.slice(0, ids.size);
  const positions = new Int32Array(count);
  for (let token = 0; token < count; token++) positions[cursor[tokenIds[token]!]!++] = token;
  return {
    starts: starts.subarray(0, count),
    ends: ends.subarray(0, count),
    tokenIds: tokenIds.subarray(0, count),
    ids,
    positionStart,
    positions,
  };
}

function grown(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

function sameUnits(text: string, start: number, end: number, otherStart: number, otherEnd: number): boolean {
  if (end - start !== otherEnd - otherStart) return false;
  for (let k = 0; k < end - start; k++)
    if (text.charCodeAt(start + k) !== text.charCodeAt(otherStart + k)) return false;
  return true;
}

const TOKEN_CHAR = /[\p{L}\p{N}\p{M}]/u;

/** Whether the UTF-16 unit at `at` belongs to a token (a surrogate pair is judged as a whole). */
function isTokenUnit(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80)
    return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  if (code >= 0xdc00 && code <= 0xdfff && at > 0) return TOKEN_CHAR.test(text.slice(at - 1, at + 1));
  return TOKEN_CHAR.test(String.fromCodePoint(text.codePointAt(at)!));
}

export function tokensOf(folded: string): string[] {
  const index = buildTokenIndex(folded);
  return Array.from(index.starts, (start, token) => folded.slice(start, index.ends[token]!));
}

export interface Alignment {
  start: number;
  end: number;
  matched: number;
}

/** Every alignment of the value's tokens (see the threshold above), best-matching, in reading order. */
export function alignTokens(index: TokenIndex, valueTokens: readonly string[]): Alignment[] {
  const count = valueTokens.length;
  if (count < 2) return [];
  const wanted = valueTokens.map((token) => index.ids.get(token) ?? -1);
  const required = Math.ceil(count * ALIGN_MIN_SHARE);
  const maxInserted = Math.max(ALIGN_MIN_INSERTED, count);
  const candidates: Alignment[] = [];
  // The first token found is one of the first (count - required + 1) value tokens.
  for (let anchor = 0; anchor <= count - required; anchor++) {
    const anchorId = wanted[anchor]!;
    if (anchorId === -1) continue;
    const from = index.positionStart[anchorId]!;
    const limit = Math.min(index.positionStart[anchorId + 1]! - from, MAX_ANCHOR_OCCURRENCES);
    for (let o = 0; o < limit; o++) {
      const first = index.positions[from + o]!;
      let next = anchor + 1;
      let matched = 1;
      let last = first;
      let inserted = 0;
      for (let position = first + 1; position < index.tokenIds.length && next < count; position++) {
        const id = index.tokenIds[position]!;
        // The nearest value token still ahead that this text token is (skipping missing ones).
        let hit = -1;
        for (let k = next; k < count; k++) {
          if (wanted[k] === id) {
            hit = k;
            break;
          }
        }
        if (hit !== -1 && matched + (count - hit) >= required) {
          matched++;
          next = hit + 1;
          last = position;
          continue;
        }
        inserted++;
        if (inserted > maxInserted) break;
      }
      if (matched < required) continue;
      // Only the words between the first and the last found token count as inserted.
      const within = last - first + 1 - matched;
      if (within > maxInserted) continue;
      candidates.push({ start: index.starts[first]!, end: index.ends[last]!, matched });
    }
  }
  if (candidates.length === 0) return [];
  const best = Math.max(...candidates.map((candidate) => candidate.matched));
  const kept = candidates.filter((candidate) => candidate.matched === best).sort((a, b) => a.start - b.start);
  const result: Alignment[] = [];
  for (const candidate of kept) {
    const previous = result.at(-1);
    if (previous !== undefined && candidate.start < previous.end) continue;
    result.push(candidate);
  }
  return result;
}
