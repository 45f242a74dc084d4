import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  codePointLength,
  isSeparatorCode,
  normalizeSeparators,
  normalizeValue,
  toNfc,
} from "./normalize-text.js";

describe("normalisation", () => {
  it("collapses runs of underscores, hyphens and whitespace into one space and trims", () => {
    expect(normalizeValue("  INV__2024 - 001\t")).toBe("INV 2024 001");
  });

  it("composes to NFC", () => {
    expect(normalizeValue("e\u0301")).toBe("é");
  });

  it("the separator table agrees with the separator regular expression for every code unit", () => {
    const expected = /^[\s_\-\u2010\u2011]$/u;
    for (let code = 0; code < 0x10000; code++) {
      if (isSeparatorCode(code) !== expected.test(String.fromCharCode(code))) {
        throw new Error(`mismatch at U+${code.toString(16)}`);
      }
    }
  });

  it("collapses separators in a loop exactly as the expression and trim do", () => {
    const piece = fc.constantFrom(
      "a",
      "É",
      "e\u0301",
      "😀",
      "\ud800",
      " ",
      "  ",
      "_",
      "-",
      "\u2010",
      "\n",
      "\t",
      "\u00a0",
      "\u3000",
      "\ufeff",
      "x9",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const value = pieces.join("");
        expect(normalizeValue(value)).toBe(normalizeSeparators(toNfc(value)).trim());
      }),
      { numRuns: 3000 },
    );
  });

  it("counts code points, not code units", () => {
    expect(codePointLength("😀ab")).toBe(3);
  });
});
