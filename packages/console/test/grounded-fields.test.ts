/**
 * The review view's pure part: scored fields as rows (pointers, values, flags) and where their
 * values sit in the input text — spans in code points mapped to UTF-16, the fallback search, and
 * overlapping marks cut into segments.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  codePointIndex,
  type FieldRow,
  fieldRows,
  markRanges,
  pointerOf,
  reviewScoreName,
  segments,
  valueAt,
} from "../web/grounded-fields.ts";

const output = {
  invoiceNumber: "INV-1",
  "a/b~c": "odd key",
  lines: [
    { partNumber: "PN-1", qty: 2 },
    { partNumber: "PN-2", qty: 3 },
  ],
};

const scoring = {
  fields: {
    invoiceNumber: {
      grounding: { score: 1, basis: "exact_match" },
      confidence: { score: 0.95, basis: "grounded" },
    },
    "a/b~c": { grounding: { score: 0.1, basis: "not_found" }, confidence: { score: 0.1, basis: "x" } },
  },
  items: {
    "lines[1]": {
      grounding: { score: 1, basis: "exact_match" },
      fields: {
        partNumber: { grounding: { score: 1, basis: "exact_match", spans: [{ start: 3, end: 7 }] } },
      },
    },
  },
  confidence: { flags: [{ field: "a/b~c", confidence: 0.1, threshold: 0.5, source: "LEGACY_GROUNDING" }] },
};

function row(
  pointer: string,
  value: unknown,
  basis: string | null,
  spans?: Array<{ start: number; end: number }>,
): FieldRow {
  return { pointer, key: pointer, value, basis, groundingScore: null, confidence: null, flags: [], spans };
}

describe("fieldRows", () => {
  it("makes one row per scored root field and item field, with RFC 6901 pointers, values and flags", () => {
    const rows = fieldRows(output, scoring);
    expect(rows.map((r) => [r.pointer, r.key, r.value])).toEqual([
      ["/invoiceNumber", "invoiceNumber", "INV-1"],
      ["/a~1b~0c", "a/b~c", "odd key"],
      ["/lines/1/partNumber", "lines[1].partNumber", "PN-2"],
    ]);
    expect(rows[0]?.confidence).toBe(0.95);
    expect(rows[1]?.flags).toHaveLength(1);
    expect(rows[2]?.spans).toEqual([{ start: 3, end: 7 }]);
    expect(rows[2]?.confidence).toBe(1);
    expect(fieldRows(output, null)).toEqual([]);
  });

  it("reads root-array items (`[0]`)", () => {
    const rows = fieldRows([{ name: "x" }], {
      items: { "[0]": { fields: { name: { grounding: { score: 1, basis: "exact_match" } } } } },
    });
    expect(rows.map((r) => [r.pointer, r.value])).toEqual([["/0/name", "x"]]);
  });

  it("pointerOf and valueAt are inverse for any keys", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), fc.jsonValue(), (keys, leaf) => {
        let document: unknown = leaf;
        for (const key of [...keys].reverse()) document = { [key]: document };
        expect(valueAt(document, pointerOf(keys))).toEqual(leaf);
      }),
    );
  });
});

describe("markRanges", () => {
  it("maps code-point spans to UTF-16 offsets (astral characters count once)", () => {
    const text = "🚢🚢 PN-2 ok";
    const [range] = markRanges(text, [row("/p", "PN-2", "exact_match", [{ start: 3, end: 7 }])]);
    expect(text.slice(range?.start, range?.end)).toBe("PN-2");
  });

  it("drops spans outside the text or empty", () => {
    const rows = [
      row("/p", "x", "exact_match", [
        { start: 5, end: 99 },
        { start: 2, end: 2 },
        { start: -1, end: 1 },
      ]),
    ];
    expect(markRanges("short", rows)).toEqual([]);
  });

  it("falls back to the first case-insensitive occurrence for located bases without spans, never for others", () => {
    const text = "Vendor: acme tools gmbh, ACME TOOLS GMBH";
    expect(markRanges(text, [row("/v", "ACME Tools GmbH", "exact_match")])).toEqual([
      { start: 8, end: 23, pointer: "/v" },
    ]);
    expect(markRanges(text, [row("/v", "ACME Tools GmbH", "not_found")])).toEqual([]);
    expect(markRanges(text, [row("/v", "ACME Tools GmbH", "unverifiable")])).toEqual([]);
    // Spans, when present, win: an empty list marks nothing.
    expect(markRanges(text, [row("/v", "ACME Tools GmbH", "exact_match", [])])).toEqual([]);
  });

  it("every span of any text lands on the same characters in UTF-16", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.nat(),
        (text, a, b) => {
          const chars = Array.from(text);
          const start = a % chars.length;
          const end = start + 1 + (b % (chars.length - start));
          const [range] = markRanges(text, [row("/x", null, null, [{ start, end }])]);
          expect(text.slice(range?.start, range?.end)).toBe(chars.slice(start, end).join(""));
        },
      ),
    );
  });
});

describe("segments", () => {
  it("cover the text exactly once, in order, each with the marks that cover it", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom("/a", "/b", "/c")), { maxLength: 8 }),
        (length, raw) => {
          const ranges = raw
            .map(([x, y, pointer]) => ({
              start: Math.min(x, y) % length,
              end: (Math.max(x, y) % length) + 1,
              pointer,
            }))
            .filter((range) => range.start < range.end);
          const cut = segments(length, ranges);
          expect(cut[0]?.start).toBe(0);
          expect(cut.at(-1)?.end).toBe(length);
          for (let i = 1; i < cut.length; i++) expect(cut[i]?.start).toBe(cut[i - 1]?.end);
          for (const segment of cut) {
            const expected = new Set(
              ranges.filter((r) => r.start <= segment.start && r.end >= segment.end).map((r) => r.pointer),
            );
            expect(new Set(segment.pointers)).toEqual(expected);
          }
        },
      ),
    );
  });

  it("nests the longer mark outside", () => {
    const cut = segments(10, [
      { start: 2, end: 4, pointer: "/short" },
      { start: 0, end: 8, pointer: "/long" },
    ]);
    expect(cut.find((s) => s.start === 2)?.pointers).toEqual(["/long", "/short"]);
  });
});

describe("codePointIndex", () => {
  it("has one entry per code point plus the end", () => {
    expect(codePointIndex("a😀b")).toEqual([0, 1, 3, 4]);
  });
});

describe("reviewScoreName", () => {
  it("names a field's review score within the score-name rules", () => {
    expect(reviewScoreName("/lines/0/partNumber")).toBe("field.lines.0.partNumber");
    expect(reviewScoreName("/a~1b~0c d")).toBe("field.a_b_c_d");
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (keys) => {
        expect(reviewScoreName(pointerOf(keys))).toMatch(/^[A-Za-z0-9_.:-]{1,100}$/);
      }),
    );
  });
});
