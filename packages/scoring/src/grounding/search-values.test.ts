import { describe, expect, it } from "vitest";
import { normalizeValue } from "./normalize-text.js";
import { PatternMatcher } from "./pattern-matcher.js";
import { partialCandidates, searchValues } from "./search-values.js";

describe("PatternMatcher (Aho–Corasick)", () => {
  it("finds every pattern, including ones that overlap or nest", () => {
    const patterns = ["he", "she", "his", "hers", "absent"];
    const matcher = new PatternMatcher(patterns);
    const found = new Uint8Array(patterns.length);
    matcher.scan("ushers", found);
    expect([...found]).toEqual([1, 1, 0, 1, 0]);
  });

  it("scans the separator-normalized form of the text", () => {
    const matcher = new PatternMatcher(["a b c"]);
    const found = new Uint8Array(1);
    matcher.scan("xx a__-  b\tc yy", found);
    expect(found[0]).toBe(1);
  });

  it("reports raw offsets of occurrences for verification", () => {
    const matcher = new PatternMatcher(["a b"]);
    const seen: Array<[number, number]> = [];
    matcher.scan("zz a  b zz a b", new Uint8Array(1), Uint8Array.of(1), (_, start, end) =>
      seen.push([start, end]),
    );
    expect(seen).toEqual([
      [3, 7],
      [11, 14],
    ]);
  });

  it("an empty pattern list scans nothing", () => {
    const found = new Uint8Array(0);
    new PatternMatcher([]).scan("anything", found);
    expect(found).toHaveLength(0);
  });
});

describe("searchValues", () => {
  it("classifies exact, normalized, partial and not found", () => {
    const result = searchValues(
      ["Acme Corp", "Acme_Corp", "Acme Corp Intl", "Acme Corp International", "Globex"],
      ["Invoice from Acme Corp, Springfield"],
    );
    expect(Object.fromEntries(result)).toEqual({
      "Acme Corp": "exact_match",
      Acme_Corp: "normalized_match",
      "Acme Corp Intl": "partial_match",
      // "Acme Corp" carries only 8 of its 21 letters: not enough for a partial match.
      "Acme Corp International": "not_found",
      Globex: "not_found",
    });
  });

  it("a value with separators is exact only where it occurs verbatim, anywhere in the text", () => {
    const text = "first A-1 then A_1 later";
    expect(searchValues(["A_1"], [text]).get("A_1")).toBe("exact_match");
    expect(searchValues(["A 1"], [text]).get("A 1")).toBe("normalized_match");
  });

  it("leading and trailing separators of a value are part of the verbatim check", () => {
    expect(searchValues([" Acme "], ["x Acme y"]).get(" Acme ")).toBe("exact_match");
    expect(searchValues([" Acme "], ["Acme"]).get(" Acme ")).toBe("normalized_match");
  });

  it("a value of separators only is looked for verbatim", () => {
    expect(searchValues(["___"], ["a ___ b"]).get("___")).toBe("exact_match");
    expect(searchValues(["___"], ["a - b"]).get("___")).toBe("not_found");
  });
});

describe("partial candidates", () => {
  it("file names give their base name and stem", () => {
    expect(partialCandidates("C:\\docs\\bracket_rev3.pdf")).toEqual(
      expect.arrayContaining(["bracket rev3.pdf", "bracket rev3"]),
    );
  });

  it("word runs carrying at least half of the letters and digits", () => {
    const candidates = partialCandidates("John Smith");
    expect(candidates).toContain("Smith");
    expect(candidates).not.toContain("John");
  });

  it("pieces shorter than 3 characters are never searched", () => {
    expect(partialCandidates("ab cd")).toEqual([]);
  });

  it("never includes the whole normalized value itself", () => {
    expect(partialCandidates("Steel bolt")).not.toContain(normalizeValue("Steel bolt"));
  });
});

describe("partial candidates keep the numbers", () => {
  it("a span may not drop a word with a digit in it", () => {
    expect(partialCandidates("SKU-9")).toEqual([]);
    expect(partialCandidates("INV-2024-999")).toEqual(["2024 999"]);
    expect(partialCandidates("Supplier 012 GmbH")).toContain("Supplier 012");
    expect(partialCandidates("Supplier 012 GmbH")).not.toContain("Supplier");
  });
});
