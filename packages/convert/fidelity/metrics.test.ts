import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  headings,
  lcsLength,
  meanScores,
  multisetF1,
  scoreDocument,
  tableCells,
  tokens,
  visibleText,
} from "./metrics.js";

describe("tokens and visible text", () => {
  it("lower-cases letter/number runs in any script", () => {
    expect(tokens("Hello, Wörld 42! שלום عالم")).toEqual(["hello", "wörld", "42", "שלום", "عالم"]);
  });

  it("strips Markdown markup and HTML tags but keeps link and image text", () => {
    const text = visibleText(
      '**Bold** [site](https://example.com/x) ![logo](a.png) <span class="c">in</span>&amp;',
    );
    expect(tokens(text)).toEqual(["bold", "site", "logo", "in"]);
  });

  it("drops the info string of a code fence", () => {
    expect(tokens(visibleText("```typescript\nconst a\n```"))).toEqual(["const", "a"]);
  });
});

describe("headings", () => {
  it("reads ATX and setext headings, normalised", () => {
    const md = "# 2.1 Methods #\n\nText\n\nSetext Title\n============\n\nSub *title*\n---\n\n####### not\n";
    expect(headings(md)).toEqual(["2 1 methods", "setext title", "sub title"]);
  });

  it("ignores headings inside code fences and a rule after a table", () => {
    expect(headings("```\n# no\n```\n| a | b |\n| - | - |\n---\n")).toEqual([]);
  });
});

describe("table cells", () => {
  it("collects normalised non-empty cells of every table, escaped pipes kept inside a cell", () => {
    const md = "| A | B |\n| --- | :-: |\n| 1,5 | a \\| b |\n|  | **x** |\n\ntext\n\nc | d\n--|--\ne | f\n";
    expect(tableCells(md)).toEqual(["a", "b", "1 5", "a b", "x", "c", "d", "e", "f"]);
  });

  it("does not take a line with a pipe and no delimiter row for a table", () => {
    expect(tableCells("a | b\nc | d\n")).toEqual([]);
  });
});

describe("scores", () => {
  it("multiset F1 counts repeats", () => {
    expect(multisetF1(["a", "a", "b"], ["a", "b", "b"])).toBeCloseTo(2 / 3);
    expect(multisetF1([], [])).toBeNull();
    expect(multisetF1(["a"], [])).toBe(0);
  });

  it("LCS of two sequences", () => {
    expect(lcsLength(["a", "b", "c", "d"], ["b", "d", "c"])).toBe(2);
  });

  it("a shuffled document keeps word F1 and loses reading order", () => {
    const truth = "# Title\n\none two three four five six\n";
    const output = "# Title\n\nsix five four three two one\n";
    const s = scoreDocument(output, truth);
    expect(s.wordF1).toBe(1);
    expect(s.headingRecall).toBe(1);
    expect(s.tableCellF1).toBeNull();
    expect(s.readingOrder).toBeCloseTo((2 * 2) / 14);
  });

  it("a heading rendered as a paragraph is not recalled", () => {
    expect(scoreDocument("Title\n\nbody", "# Title\n\nbody").headingRecall).toBe(0);
  });

  it("averages leave out documents where a metric is null", () => {
    const mean = meanScores([
      { wordF1: 1, headingRecall: null, tableCellF1: 0.5, readingOrder: 1 },
      { wordF1: 0.5, headingRecall: 1, tableCellF1: null, readingOrder: 0 },
    ]);
    expect(mean).toEqual({ wordF1: 0.75, headingRecall: 1, tableCellF1: 0.5, readingOrder: 0.5 });
  });
});

const markdownDoc = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom("# Heading", "Title\n===", "| a | b |\n| --- | --- |\n| 1 | 2 |", "- item", "שלום"),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join("\n\n"));

describe("properties", () => {
  it("every metric is in [0, 1]", () => {
    fc.assert(
      fc.property(markdownDoc, markdownDoc, (a, b) => {
        const s = scoreDocument(a, b);
        for (const value of Object.values(s)) {
          if (value === null) continue;
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it("a document scored against itself scores 1 wherever there is something to measure", () => {
    fc.assert(
      fc.property(markdownDoc, (a) => {
        const s = scoreDocument(a, a);
        expect(s.wordF1).toBe(1);
        expect(s.readingOrder).toBe(1);
        if (s.headingRecall !== null) expect(s.headingRecall).toBe(1);
        if (s.tableCellF1 !== null) expect(s.tableCellF1).toBe(1);
      }),
    );
  });

  it("word F1 is symmetric", () => {
    fc.assert(
      fc.property(markdownDoc, markdownDoc, (a, b) => {
        expect(scoreDocument(a, b).wordF1).toBeCloseTo(scoreDocument(b, a).wordF1, 12);
      }),
    );
  });
});
