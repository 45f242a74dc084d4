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
});
