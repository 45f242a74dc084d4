import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HASH_EMBEDDING_DIMENSIONS, hashEmbedding } from "./hash-embedding.js";

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}

describe("hash-embedding-1536", () => {
  it("is 1536 wide, unit length and deterministic", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => /[\p{L}\p{N}]/u.test(s)),
        (text) => {
          const a = hashEmbedding(text);
          expect(a).toHaveLength(HASH_EMBEDDING_DIMENSIONS);
          expect(cosine(a, a)).toBeCloseTo(1, 5);
          expect(hashEmbedding(text)).toEqual(a);
        },
      ),
    );
  });

  it("puts texts sharing words closer than unrelated texts (lexical, not semantic)", () => {
    const query = hashEmbedding("invoice total amount");
    const related = hashEmbedding("the total amount of the invoice is due");
    const unrelated = hashEmbedding("penguins swim in cold water");
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated) + 0.2);
  });

  it("gives text without words the zero vector", () => {
    expect(Array.from(hashEmbedding("... !!!")).every((v) => v === 0)).toBe(true);
  });

  it("hashes features in place exactly as hashing their strings (the reference below)", () => {
    const reference = (text: string): Float32Array => {
      const fnv = (feature: string) => {
        let hash = 0x811c9dc5;
        for (let i = 0; i < feature.length; i++) hash = Math.imul(hash ^ feature.charCodeAt(i), 0x01000193);
        return hash >>> 0;
      };
      const vector = new Float32Array(1536);
      const add = (feature: string, weight: number) => {
        const hash = fnv(feature);
        vector[hash % 1536] = (vector[hash % 1536] ?? 0) + (hash & 0x80000000 ? -weight : weight);
      };
      for (const word of text
        .normalize("NFKC")
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? []) {
        add(`w:${word}`, 1);
        const padded = `^${word}$`;
        for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.5);
      }
      const norm = vector.reduce((sum, value) => sum + value * value, 0);
      const scale = 1 / Math.sqrt(norm);
      return norm > 0 ? vector.map((value) => value * scale) : vector;
    };
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect([...hashEmbedding(text)]).toEqual([...reference(text)]);
      }),
      { numRuns: 300 },
    );
  });
});
