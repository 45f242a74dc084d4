import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KeywordPostings, keywordTokens, seekRow } from "./keyword-postings.js";
import { bm25Idf, bm25Term, keywordPhrases, keywordTopK } from "./keyword-top-k.js";

interface Row {
  seq: number;
  text: string;
  document: string;
  revision: string;
}

/** Exact BM25 over every live row: the reference the pruned top-k must equal. */
function bruteForce(rows: Row[], terms: string[], k: number, documents: Set<string> | null) {
  const tokens = rows.map((row) => keywordTokens(row.text));
  const total = tokens.reduce((sum, list) => sum + list.length, 0);
  const average = total / rows.length;
  const phrases = keywordPhrases(terms);
  const scored = rows.flatMap((row, i) => {
    if (documents !== null && !documents.has(row.document)) return [];
    const own = tokens[i] as string[];
    let score = 0;
    let matched = false;
    for (const phrase of phrases) {
      const df = tokens.filter((list) => list.includes(phrase)).length;
      const tf = own.filter((token) => token === phrase).length;
      if (df === 0 || tf === 0) continue;
      matched = true;
      score += bm25Term(bm25Idf(rows.length, df), tf, own.length, average);
    }
    return matched ? [{ seq: row.seq, score }] : [];
  });
  return scored.sort((a, b) => b.score - a.score || a.seq - b.seq).slice(0, k);
}

const VOCABULARY = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa"];
// Skewed: the first words are common, the last rare (as in text).
const word = fc
  .integer({ min: 0, max: 999 })
  .map((n) => VOCABULARY[Math.floor(Math.sqrt(n) / 3.17)] as string);
const text = fc.array(word, { minLength: 0, maxLength: 14 }).map((words) => words.join(" "));

describe("keyword top-k (MaxScore over in-memory postings)", () => {
  it("equals exact BM25 over the live rows, across appends, retirements and document filters", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(text, { minLength: 0, maxLength: 30 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        fc.array(fc.oneof(word, fc.constantFrom("missing", "Alpha", "a-b", "")), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.integer({ min: 1, max: 12 }),
        fc.option(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 4 })),
        (revisions, retired, terms, k, filter) => {
          const postings = new KeywordPostings();
          const all: Row[] = [];
          revisions.forEach((texts, r) => {
            // Seqs descend within a revision: ties must still rank by seq, not by row ordinal.
            const rows = texts.map((t, i) => ({
              seq: r % 2 === 0 ? 5000 + r * 100 - i : 100 + r * 100 + i,
              text: t,
            }));
            const document = `d${r % 4}`;
            postings.appendRevision(
              document,
              `r${r}`,
              rows.map((row) => [row.seq, row.text] as const),
            );
            for (const row of rows) all.push({ ...row, document, revision: `r${r}` });
            // Retire an earlier revision between appends (patching, as a switch does).
            if (r > 0 && retired[r - 1]) postings.retire(`r${r - 1}`);
          });
          const live = all.filter((row) => postings.isLive(row.revision));
          const documents = filter === null ? null : new Set(filter.map((d) => `d${d}`));
          const expected = live.length === 0 ? [] : bruteForce(live, terms, k, documents);
          const actual = keywordTopK(
            postings,
            terms,
            k,
            postings.allowed(documents === null ? null : [...documents]),
          );
          expect(actual.map((hit) => [hit.seq, hit.score])).toEqual(
            expected.map((hit) => [hit.seq, hit.score]),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it("equals exact BM25 on long lists with small k (most terms become non-essential)", () => {
    // 30 words, the rarest in a few rows: terms of very different bounds.
    const skewed = fc.integer({ min: 0, max: 9999 }).map((n) => `w${Math.floor(30 * (n / 10000) ** 3)}`);
    // Some rows repeat a word many times: high frequencies raise a list's bound above most of its rows.
    const long = fc
      .tuple(fc.array(skewed, { minLength: 1, maxLength: 40 }), skewed, fc.integer({ min: 0, max: 9 }))
      .map(([words, repeated, times]) =>
        [...words, ...Array(times > 6 ? times : 0).fill(repeated)].join(" "),
      );
    fc.assert(
      fc.property(
        fc.array(long, { minLength: 300, maxLength: 1500 }),
        fc.uniqueArray(skewed, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 4 }),
        (texts, terms, k) => {
          const postings = new KeywordPostings();
          const rows = texts.map((t, i) => ({ seq: i, text: t, document: "d", revision: "r" }));
          postings.appendRevision(
            "d",
            "r",
            rows.map((row) => [row.seq, row.text] as const),
          );
          const expected = bruteForce(rows, terms, k, null);
          const actual = keywordTopK(postings, terms, k, null);
          expect(actual.map((hit) => [hit.seq, hit.score])).toEqual(
            expected.map((hit) => [hit.seq, hit.score]),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("copies a term's postings of frequency 2 or more, or in a short row, as its repeated tier", () => {
    const postings = new KeywordPostings();
    const rows = [
      "x a b c d e",
      "x x a b c d",
      "a b c d e f",
      "x",
      "a b c d e x",
      "a a a b c d",
      "b c d e f g",
      "b c d e f g",
      "x b c d e f",
    ];
    postings.appendRevision(
      "d",
      "r",
      rows.map((text, seq) => [seq, text] as const),
    );
    // Mean length 49 / 9: rows under half of it (2 terms) are short.
    expect(postings.shortBelow).toBe(2);
    const x = postings.list("x");
    expect([...(x?.rows.subarray(0, x.count) ?? [])]).toEqual([0, 1, 3, 4, 8]);
    expect([...(x?.repeated.rows.subarray(0, x.repeated.count) ?? [])]).toEqual([1, 3]);
    expect([...(x?.repeated.tfs.subarray(0, x.repeated.count) ?? [])]).toEqual([2, 1]);
    const a = postings.list("a");
    expect([...(a?.repeated.rows.subarray(0, a.repeated.count) ?? [])]).toEqual([5]);
    // The threshold stays: later, shorter rows do not move it.
    postings.appendRevision("d", "r2", [[20, "x"]]);
    expect(postings.shortBelow).toBe(2);
    expect(keywordTopK(postings, ["x"], 3, null).map((hit) => hit.seq)).toEqual([3, 20, 1]);
  });

  it("seeks rows by galloping like a linear scan", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 500 }), { maxLength: 200 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 510 }),
        (values, from, target) => {
          const postings = new KeywordPostings();
          const sorted = [...values].sort((a, b) => a - b);
          // Row r holds "x" when r is in the set: rows 0..max appended, "x" only where wanted.
          const max = sorted[sorted.length - 1] ?? -1;
          const wanted = new Set(sorted);
          postings.appendRevision(
            "d",
            "r",
            Array.from({ length: max + 1 }, (_, r) => [r, wanted.has(r) ? "x" : "y"] as const),
          );
          const list = postings.list("x");
          if (list === undefined) return;
          const start = Math.min(from, list.count);
          let expected = start;
          while (expected < list.count && (list.rows[expected] as number) < target) expected++;
          expect(seekRow(list.rows, list.count, start, target)).toBe(expected);
        },
      ),
    );
  });

  it("reads terms as FTS5's unicode61 does", () => {
    expect(keywordTokens("Quick  brown fox")).toEqual(["quick", "brown", "fox"]);
    expect(keywordTokens("naïve café")).toEqual(["naïve", "café"]);
    expect(keywordPhrases(['"odd', "a-b", "x"])).toEqual(["odd", "x"]);
  });
});
