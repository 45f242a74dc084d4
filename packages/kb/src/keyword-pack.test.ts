import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keywordPackRuns, readKeywordPackLayout } from "./keyword-pack.js";
import { KeywordPostings, keywordTokens } from "./keyword-postings.js";
import { keywordTopK } from "./keyword-top-k.js";

// Plain ASCII words (the load's fast path) and others it must handle the slow way.
const word = fc.oneof(
  fc.constantFrom("alpha", "beta", "gamma", "delta", "eps", "zeta", "a1", "7"),
  fc.constantFrom("Straße", "日本語", "emoji😀x", "café", "ÅNGSTRÖM", "co-op", "x.y", "ß"),
);
const text = fc.array(word, { minLength: 0, maxLength: 12 }).map((words) => words.join(" "));
const revision = fc.array(text, { minLength: 0, maxLength: 25 });

/** Everything a search reads from postings, for the given terms. */
function snapshot(postings: KeywordPostings, terms: readonly string[]) {
  return {
    count: postings.count,
    liveRows: postings.liveRows,
    liveLength: postings.liveLength,
    lengths: [...postings.lengths.subarray(0, postings.count)],
    seqs: [...postings.seqs.subarray(0, postings.count)],
    revisions: [...postings.rowRevision.subarray(0, postings.count)],
    lists: terms.map((term) => {
      const list = postings.list(term);
      return list === undefined
        ? null
        : {
            rows: [...list.rows.subarray(0, list.count)],
            tfs: [...list.tfs.subarray(0, list.count)],
            maxTf: list.maxTf,
            minLength: list.minLength,
            repeated: [...list.repeated.rows.subarray(0, list.repeated.count)],
            repeatedTfs: [...list.repeated.tfs.subarray(0, list.repeated.count)],
            df: postings.documentFrequency(term),
          };
    }),
    top: keywordTopK(postings, terms, 7, null),
  };
}

describe("keyword packs", () => {
  it("hold the same postings as appending the rows, mixed with appended revisions and retirements", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(revision, fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 5 }),
        fc.array(word, { minLength: 1, maxLength: 5 }),
        (revisions, query) => {
          const appended = new KeywordPostings();
          const packed = new KeywordPostings();
          revisions.forEach(([texts, usePack, retire], r) => {
            const rows = texts.map((t, i) => [r * 100 + (r % 2 === 0 ? i : 50 - i), t] as const);
            appended.appendRevision(`d${r % 3}`, `r${r}`, rows);
            if (usePack)
              expect(packed.appendPacked(`d${r % 3}`, `r${r}`, KeywordPostings.pack(rows))).toBe(true);
            else packed.appendRevision(`d${r % 3}`, `r${r}`, rows);
            if (retire && r > 0) {
              appended.retire(`r${r - 1}`);
              packed.retire(`r${r - 1}`);
            }
          });
          const terms = [...new Set(query.flatMap((q) => keywordTokens(q)))];
          expect(snapshot(packed, terms)).toEqual(snapshot(appended, terms));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("survive an unaligned copy (a BLOB at any offset) and refuse bytes that are not a pack", () => {
    const pack = KeywordPostings.pack([
      [3, "alpha beta alpha"],
      [1, "日本語 beta"],
    ]);
    const shifted = new Uint8Array(pack.byteLength + 3);
    shifted.set(pack, 3);
    const postings = new KeywordPostings();
    expect(postings.appendPacked("d", "r", shifted.subarray(3))).toBe(true);
    expect(postings.documentFrequency("beta")).toBe(2);
    expect(postings.list("alpha")?.tfs[0]).toBe(2);

    const refused = new KeywordPostings();
    expect(refused.appendPacked("d", "r", pack.subarray(0, pack.byteLength - 1))).toBe(false);
    expect(refused.appendPacked("d", "r", new Uint8Array(3))).toBe(false);
    const corrupt = pack.slice();
    const layout = readKeywordPackLayout(corrupt);
    if (layout === null) throw new Error("not a pack");
    corrupt[layout.postingRows] = 200; // a posting past the revision's rows
    expect(keywordPackRuns(corrupt)).toBeNull();
    expect(refused.appendPacked("d", "r", corrupt)).toBe(false);
    expect(refused.holds("r")).toBe(false);
    expect(refused.count).toBe(0);
  });
});
