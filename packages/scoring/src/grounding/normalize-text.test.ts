import { describe, expect, it } from "vitest";
import { codePointLength, isSeparatorCode, normalizeValue } from "./normalize-text.js";

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

  it("counts code points, not code units", () => {
    expect(codePointLength("😀ab")).toBe(3);
  });
});
