import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { int8Code, scanCandidates, VectorRows } from "./int8-scan.js";

const vectorOf = (dim: number) =>
  fc
    .array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: dim, maxLength: dim })
    .map((values) => Float32Array.from(values));

describe("in-memory vector rows", () => {
  it("count sign disagreements exactly (wasm popcount against a reference), across appends", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 300 })
          .chain((dim) =>
            fc.tuple(
              fc.constant(dim),
              fc.array(vectorOf(dim), { minLength: 1, maxLength: 40 }),
              vectorOf(dim),
            ),
          ),
        ([dim, vectors, query]) => {
          const rows = new VectorRows(dim);
          const codes = vectors.map((vector) => int8Code(vector));
          // Two revisions, the second appended after the first (the memory grows in place).
          const half = Math.ceil(codes.length / 2);
          rows.appendRevision(
            "d1",
            "r1",
            codes.slice(0, half).map((code, i) => [i, code]),
            half,
          );
          rows.appendRevision(
            "d2",
            "r2",
            codes.slice(half).map((code, i) => [half + i, code]),
          );
          const distances = rows.signDistances(query);
          const expected = codes.map((code) => {
            const components = new Int8Array(code.buffer, code.byteOffset + 8, dim);
            let differ = 0;
            for (let j = 0; j < dim; j++) if ((components[j] ?? 0) > 0 !== (query[j] ?? 0) > 0) differ++;
            return differ;
          });
          expect([...distances]).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("never answer a retired revision's rows or a filtered-out document's", () => {
    const dim = 64;
    let state = 7;
    const random = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 4294967296 - 0.5;
    };
    const vector = () => Float32Array.from({ length: dim }, random);
    const rows = new VectorRows(dim);
    const revisions = ["r1", "r2", "r3"];
    revisions.forEach((revision, r) => {
      rows.appendRevision(
        `d${r}`,
        revision,
        Array.from({ length: 50 }, (_, i) => [r * 1000 + i, int8Code(vector())] as [number, Buffer]),
      );
    });
    rows.retire("r2");
    expect(rows.dead).toBe(50);
    for (const maxScanDims of [8, 512]) {
      const all = scanCandidates(rows, vector(), 150, rows.allowed(null), maxScanDims, 150);
      expect(all).toHaveLength(100);
      expect(all.every((seq) => seq < 1000 || seq >= 2000)).toBe(true);
      const onlyD2 = scanCandidates(rows, vector(), 150, rows.allowed(["d2"]), maxScanDims, 150);
      expect(onlyD2).toHaveLength(50);
      expect(onlyD2.every((seq) => seq >= 2000)).toBe(true);
    }
  });
});
