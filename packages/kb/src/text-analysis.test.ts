import { describe, expect, it } from "vitest";
import { analyze, isTextSearchLanguage, queryTerms, TEXT_SEARCH_LANGUAGES } from "./text-analysis.js";

describe("text analysis", () => {
  it("simple lower-cases and keeps every word, stop words included, without stemming", () => {
    expect(analyze("The Runners were RUNNING, weren't they?", "simple")).toEqual([
      "the",
      "runners",
      "were",
      "running",
      "werent",
      "they",
    ]);
  });

  it("named languages stem inflections with Snowball at index and query time alike", () => {
    expect(analyze("running runs connected connections", "english")).toEqual([
      "run",
      "run",
      "connect",
      "connect",
    ]);
    expect(analyze("Häuser Hauses", "german")).toEqual(analyze("häuser hauses", "german"));
    expect(queryTerms("connection connected", "english")).toEqual(["connect"]);
    // Derived families are not joined: that is the vector leg's job.
    expect(analyze("generous generosity", "english")[0]).not.toBe(
      analyze("generous generosity", "english")[1],
    );
  });

  it("knows its languages", () => {
    expect(TEXT_SEARCH_LANGUAGES).toContain("simple");
    expect(TEXT_SEARCH_LANGUAGES).toContain("french");
    expect(isTextSearchLanguage("porter")).toBe(false);
    for (const language of TEXT_SEARCH_LANGUAGES) expect(analyze("words of text", language).length).toBe(3);
  });
});
