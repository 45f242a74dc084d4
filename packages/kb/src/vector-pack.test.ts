import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { int8Code, VectorRows } from "./int8-scan.js";
import { type ColumnSource, type PackParts, packRows, readPackLayout } from "./vector-pack.js";

const vectorOf = (dim: number) =>
  fc
    .array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: dim, maxLength: dim })
    .map((values) => Float32Array.from(values));

/** Everything a scan reads from the rows, per row. */
function snapshot(rows: VectorRows, query: Float32Array) {
  const dims = Array.from({ length: rows.dim }, (_, j) => j);
  return {
    count: rows.count,
    seqs: [...rows.seqs.subarray(0, rows.count)],
    factors: [...rows.factors.subarray(0, rows.count)],
    documents: [...rows.documentOrdinals.subarray(0, rows.count)],
    revisions: [...rows.revisionOrdinals.subarray(0, rows.count)],
    signs: [...rows.signDistances(query)],
    dots: Array.from({ length: rows.count }, (_, row) => rows.dot(row, query)),
    sparse: [
      ...rows.sparseScores(
        dims,
        dims.map((j) => query[j] ?? 0),
      ),
    ],
    allowed: [...(rows.allowed(["d0"]) ?? [])],
  };
}

describe("vector packs", () => {
  it("load the same rows as appending them one by one, across revisions and segments", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 260 })
          .chain((dim) =>
            fc.tuple(
              fc.constant(dim),
              fc.array(fc.array(vectorOf(dim), { maxLength: 30 }), { minLength: 1, maxLength: 5 }),
              vectorOf(dim),
              fc.integer({ min: 0, max: 40 }),
            ),
          ),
        ([dim, revisions, query, expected]) => {
          const byRows = new VectorRows(dim);
          // Packs adopted, every third revision appended by rows between them as a patch of rows
          // written before packs would.
          const byPacks = new VectorRows(dim);
          let seq = 1;
          revisions.forEach((vectors, r) => {
            const source: ColumnSource[] = vectors.map((vector) => [seq++ * 3, int8Code(vector)]);
            const hint = r === 0 ? expected : 0; // the first sized by a guess, the rest grown
            expect(byRows.appendRevision(`d${r % 2}`, `r${r}`, source, hint)).toBe(true);
            const pack = packRows(source);
            expect(pack).not.toBeNull();
            expect(
              r % 3 === 2
                ? byPacks.appendRevision(`d${r % 2}`, `r${r}`, source, hint)
                : byPacks.appendPacked(`d${r % 2}`, `r${r}`, pack as PackParts, hint),
            ).toBe(true);
          });
          byRows.retire("r1");
          byPacks.retire("r1");
          expect(byPacks.dead).toBe(byRows.dead);
          expect(byPacks.liveRevisions()).toEqual(byRows.liveRevisions());
          expect(snapshot(byPacks, query)).toEqual(snapshot(byRows, query));
        },
      ),
      { numRuns: 80 },
    );
  });

  it("refuse rows of mixed or foreign widths and malformed bytes", () => {
    const narrow = int8Code(Float32Array.from([0.5, -0.25]));
    const wide = int8Code(Float32Array.from([0.5, -0.25, 1]));
    expect(
      packRows([
        [1, narrow],
        [2, wide],
      ]),
    ).toBeNull();
    const pack = packRows([[1, wide]]) as PackParts;
    expect(readPackLayout(pack)?.count).toBe(1);
    expect(new VectorRows(2).appendPacked("d", "r", pack)).toBe(false); // foreign width
    expect(readPackLayout({ ...pack, head: pack.head.subarray(0, pack.head.length - 1) })).toBeNull();
    expect(readPackLayout({ ...pack, codes: pack.codes.subarray(1) })).toBeNull();
    expect(new VectorRows(3).appendPacked("d", "r", { ...pack, codes: pack.codes.subarray(1) })).toBe(false);
    expect(new VectorRows(3).appendPacked("d", "r", pack)).toBe(true);
    // An empty revision is held (served, no rows) whatever the width.
    const rows = new VectorRows(2);
    expect(rows.appendPacked("d", "r", packRows([]) as PackParts)).toBe(true);
    expect(rows.isLive("r")).toBe(true);
    expect(rows.count).toBe(0);
  });
});
