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
  /** Positions (text token indexes) per token id, in reading order. */
  positions: Map<number, number[]>;
}

export function buildTokenIndex(text: string): TokenIndex {
  const starts: number[] = [];
  const ends: number[] = [];
  const tokenIds: number[] = [];
  const ids = new Map<string, number>();
  const positions = new Map<number, number[]>();
  const length = text.length;
  let i = 0;
  while (i < length) {
    if (!isTokenUnit(text, i)) {
      i++;
      continue;
    }
    const start = i;
    while (i < length && isTokenUnit(text, i)) i++;
    const token = text.slice(start, i);
    let id = ids.get(token);
    if (id === undefined) {
      id = ids.size;
      ids.set(token, id);
      positions.set(id, []);
    }
    positions.get(id)!.push(tokenIds.length);
    tokenIds.push(id);
    starts.push(start);
    ends.push(i);
  }
  return {
    starts: Int32Array.from(starts),
    ends: Int32Array.from(ends),
    tokenIds: Int32Array.from(tokenIds),
    ids,
    positions,
  };
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
  return [...index.tokenIds].map((id) => [...index.ids.keys()][id]!);
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
    const occurrences = index.positions.get(anchorId)!;
    const limit = Math.min(occurrences.length, MAX_ANCHOR_OCCURRENCES);
    for (let o = 0; o < limit; o++) {
      const first = occurrences[o]!;
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
