/**
 * `hash-embedding-1536`: the built-in, in-process embedding model, so knowledge
 * bases work offline. It is LEXICAL, not semantic: texts sharing words and
 * character trigrams land close together; synonyms do not. Feature hashing
 * (signed, FNV-1a) of lower-cased NFKC words (weight 1) and character trigrams of
 * each word (weight 0.5) into 1536 buckets, then L2-normalised. Deterministic
 * across runs and machines.
 */

export const HASH_EMBEDDING_MODEL = "hash-embedding-1536";
export const HASH_EMBEDDING_DIMENSIONS = 1536;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a state after `text`, continued from `hash` (so a prefix's state is computed once). */
function fnv1a(text: string, hash = FNV_OFFSET): number {
  let state = hash;
  for (let i = 0; i < text.length; i++) state = Math.imul(state ^ text.charCodeAt(i), FNV_PRIME);
  return state;
}

function add(vector: Float32Array, state: number, weight: number): void {
  const hash = state >>> 0;
  const index = hash % HASH_EMBEDDING_DIMENSIONS;
  // The top bit picks the sign, so colliding features cancel rather than pile up.
  vector[index] = (vector[index] ?? 0) + (hash & 0x80000000 ? -weight : weight);
}

/** Hash states after the feature prefixes `w:` and `t:`. */
const WORD = fnv1a("w:");
const TRIGRAM = fnv1a("t:");

export function hashEmbedding(text: string): Float32Array {
  const vector = new Float32Array(HASH_EMBEDDING_DIMENSIONS);
  const words =
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    add(vector, fnv1a(word, WORD), 1);
    // Trigrams of `^word$` (code units), hashed in place rather than sliced into strings (HP41).
    const last = word.length + 2;
    const unit = (i: number) => (i === 0 ? 94 : i === last - 1 ? 36 : word.charCodeAt(i - 1)); // ^ and $
    for (let i = 0; i + 3 <= last; i++) {
      let state = Math.imul(TRIGRAM ^ unit(i), FNV_PRIME);
      state = Math.imul(state ^ unit(i + 1), FNV_PRIME);
      state = Math.imul(state ^ unit(i + 2), FNV_PRIME);
      add(vector, state, 0.5);
    }
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) * scale;
  }
  return vector;
}
