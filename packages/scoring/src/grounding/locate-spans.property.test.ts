import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldValue } from "./fold-text.js";
import { locateSpans } from "./locate-spans.js";

// Words from several scripts, composed and decomposed accents, emoji and CJK (astral characters).
const WORD = fc.constantFrom(
  "acme",
  "Bolt",
  "müller",
  "Mu\u0308ller",
  "café",
  "😀",
  "東京都",
  "𝔘𝔫𝔦",
  "Ωmega",
  "x9",
);
const SEPARATOR = fc.constantFrom(" ", "  ", "\n", "_", " - ", "\t");

function cut(text: string, span: { start: number; end: number }): string {
  return [...text].slice(span.start, span.end).join("");
}

const textOf = (words: string[], separators: string[]) =>
  words.map((word, index) => word + (separators[index % separators.length] ?? " ")).join("");

describe("span location (properties)", () => {
  it("a located span's text folds to the value, and its offsets are valid code-point offsets", () => {
    fc.assert(
      fc.property(
        fc.array(WORD, { minLength: 1, maxLength: 12 }),
        fc.array(SEPARATOR, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (words, separators, from, take, upper) => {
          const text = textOf(words, separators);
          const first = from % words.length;
          const picked = words.slice(first, first + 1 + (take % 3));
          let value = picked.join(" ");
          if (upper) value = value.toUpperCase();
          if ([...foldValue(value)].length < 3) return;
          const [span] = locateSpans(text, [{ value, series: "f", partial: false }]);
          expect(span).not.toBeNull();
          const length = [...text].length;
          expect(span!.start).toBeGreaterThanOrEqual(0);
          expect(span!.end).toBeLessThanOrEqual(length);
          expect(span!.start).toBeLessThan(span!.end);
          expect(foldValue(cut(text, span!))).toBe(foldValue(value));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("successive requests for a repeated value get spans in reading order that never overlap", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(WORD, fc.constant("Acme Bolt")), { minLength: 1, maxLength: 20 }),
        fc.array(SEPARATOR, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 8 }),
        (words, separators, requests) => {
          const text = textOf(words, separators);
          const spans = locateSpans(
            text,
            Array.from({ length: requests }, () => ({
              value: "acme bolt",
              series: "items.name",
              partial: false,
            })),
          );
          const located = spans.filter((span) => span !== null);
          // Once a request finds no further mention, no later one does either.
          expect(spans.slice(located.length).every((span) => span === null)).toBe(true);
          for (let i = 1; i < located.length; i++)
            expect(located[i]!.start).toBeGreaterThanOrEqual(located[i - 1]!.end);
          for (const span of located) expect(foldValue(cut(text, span))).toContain("acme");
        },
      ),
      { numRuns: 300 },
    );
  });
});
