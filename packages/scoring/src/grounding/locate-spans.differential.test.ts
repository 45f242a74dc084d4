import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildBenchFixture } from "../../bench/bench-fixture.js";
import { plantedCorpus } from "../../test/planted-spans.js";
import { locateSpans as previousLocateSpans } from "../../test/previous-locator/locate-spans.js";
import { canonicalNumber as previousCanonicalNumber } from "../../test/previous-locator/number-forms.js";
import { partialCandidates as previousPartialCandidates } from "../../test/previous-locator/search-values.js";
import { locateSpans, type SpanRequest } from "./locate-spans.js";
import { canonicalNumber } from "./number-forms.js";
import { partialCandidates } from "./search-values.js";

// The locator was rewritten for speed (PV15); its spans must be exactly the previous locator's.

// Words that exercise every tier and every folding rule: case, NFC/NFD, astral and unspaced scripts,
// numbers in several notations, dates, hyphenation, soft hyphens, file names.
const WORD = fc.constantFrom(
  "Acme",
  "ACME",
  "acme",
  "Bolt",
  "bolt",
  "müller",
  "Mu\u0308ller",
  "café",
  "😀",
  "東京都",
  "京都",
  "𝔘𝔫𝔦",
  "Ωmega",
  "x9",
  "1,234.50",
  "1234.5",
  "1.234,5",
  "948566.20",
  "948566.2",
  "5 March 2024",
  "05.03.2024",
  "2024-03-05",
  "inter-\nnational",
  "international",
  "well-known",
  "co\u00adop",
  "drawing_000123.pdf",
  "drawing",
  "000123",
  "PN-000042",
  "PN 000042",
  "the",
  "of",
  "Global",
  "Holdings",
  "(formerly",
  "Zenith)",
);
const SEPARATOR = fc.constantFrom(" ", "  ", "\n", "_", " - ", "\t", ", ", ". ", "-", "");
const VALUE = fc.oneof(
  fc.array(WORD, { minLength: 1, maxLength: 4 }).map((words) => words.join(" ")),
  fc.constantFrom("acme global holdings", "2024-03-05", "1234.5", "drawing_000123.pdf", "PN-000042"),
  fc.constantFrom(1234.5, 948566.2, 123, 2024, 42.5),
);

function requestsFor(values: ReadonlyArray<string | number>, partial: readonly boolean[]): SpanRequest[] {
  return values.map((value, index) => ({
    value,
    series: index % 3 === 0 ? "items.a" : "items.b",
    partial: partial[index % partial.length] ?? false,
  }));
}

// Thousands of cases through two locators: slow on a loaded machine, so each test gets ample time.
const SLOW = 120_000;

describe("span location: the rewritten locator places exactly what the previous one did", () => {
  it(
    "on the bench fixture (10,000 requests)",
    () => {
      const fixture = buildBenchFixture();
      const requests: SpanRequest[] = fixture.output.items.flatMap((item) =>
        Object.entries(item).flatMap(([name, value]) =>
          typeof value === "string" || typeof value === "number"
            ? [{ value, series: `items.${name}`, partial: name === "fileName" }]
            : [],
        ),
      );
      const located = locateSpans(fixture.inputText, requests);
      expect(located.filter((span) => span !== null).length).toBeGreaterThan(7500);
      expect(located).toEqual(previousLocateSpans(fixture.inputText, requests));
    },
    SLOW,
  );

  it(
    "on the planted-span corpus",
    () => {
      for (const planted of plantedCorpus(50)) {
        const requests = requestsFor(planted.values, [false, true]);
        expect(locateSpans(planted.text, requests)).toEqual(previousLocateSpans(planted.text, requests));
      }
    },
    SLOW,
  );

  it(
    "on random texts and values",
    () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(WORD, SEPARATOR), { minLength: 1, maxLength: 30 }),
          fc.array(VALUE, { minLength: 1, maxLength: 8 }),
          fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
          (pieces, values, partial) => {
            const text = pieces.map(([word, separator]) => word + separator).join("");
            const requests = requestsFor(values, partial);
            expect(locateSpans(text, requests)).toEqual(previousLocateSpans(text, requests));
          },
        ),
        { numRuns: 5000 },
      );
    },
    SLOW,
  );

  it(
    "cuts a value into the same partial pieces as the previous locator did",
    () => {
      const digits = fc.constantFrom("٣", "𝟏", "①", "x9", "2024", "a1b");
      fc.assert(
        fc.property(fc.array(fc.oneof(WORD, SEPARATOR, digits), { maxLength: 8 }), (pieces) => {
          const value = pieces.join("");
          expect(partialCandidates(value)).toEqual(previousPartialCandidates(value));
        }),
        { numRuns: 10000 },
      );
    },
    SLOW,
  );

  it(
    "reads JSON numbers as the previous locator did",
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.double(),
            fc.integer(),
            fc.double({ min: -1e6, max: 1e6 }),
            fc.constantFrom(0, -0, 1e21, 1e-7, 0.1, 100, 5e-324, 123456789.125),
          ),
          (value) => {
            expect(canonicalNumber(value)).toBe(previousCanonicalNumber(value));
          },
        ),
        { numRuns: 20000 },
      );
    },
    SLOW,
  );
});
