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

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function add(vector: Float32Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const index = hash % HASH_EMBEDDING_DIMENSIONS;
  // The top bit picks the sign, so colliding features cancel rather than pile up.
  vector[index] = (vector[index] ?? 0) + (hash & 0x80000000 ? -weight : weight);
}

export function hashEmbedding(text: string): Float32Array {
  const vector = new Float32Array(HASH_EMBEDDING_DIMENSIONS);
  const words =
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    add(vector, `w:${word}`, 1);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(vector, `t:${padded.slice(i, i + 3)}`, 0.5);
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) * scale;
  }
  return vector;
}
