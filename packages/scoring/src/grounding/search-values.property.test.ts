import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeSeparators, normalizeValue, toNfc } from "./normalize-text.js";
import { searchValues, splitFileName } from "./search-values.js";

// A small alphabet with separators, a combining mark and an astral character, so that hits are common.
const piece = fc.constantFrom("a", "b", "ab", " ", "_", "-", "  ", "e\u0301", "é", "😀", "1");
const fragment = fc.array(piece, { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join(""));

describe("grounding index agrees with a naive search", () => {
  it("exact iff the NFC text contains the NFC value; normalized iff only the normalized forms match", () => {
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 8 }),
        fc.array(fragment, { minLength: 1, maxLength: 3 }),
        (values, texts) => {
          const results = searchValues(values, texts);
          for (const value of values) {
            const basis = results.get(value);
            const raw = toNfc(value);
            const normalized = normalizeValue(value);
            const exact = texts.some((text) => toNfc(text).includes(raw));
            const loose =
              normalized !== "" &&
              texts.some((text) => normalizeSeparators(toNfc(text)).includes(normalized));
            if (exact) expect(basis).toBe("exact_match");
            else if (loose) expect(basis).toBe("normalized_match");
            else expect(["partial_match", "not_found"]).toContain(basis);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("file names", () => {
  it("are split as the file-name expression captures them", () => {
    const FILE_NAME = /^(?:.*[\\/])?(([^\\/]+?)\.[\p{L}\p{N}]{1,8})$/u;
    const part = fc.constantFrom(
      "a",
      "x9",
      ".",
      "..",
      "/",
      "\\",
      " ",
      "\n",
      "\r",
      "\u2028",
      "é",
      "😀",
      "\ud800",
      "-",
      "pdf",
      "abcdefghi",
      "東京",
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        const text = parts.join("");
        const match = FILE_NAME.exec(text);
        expect(splitFileName(text)).toEqual(match === null ? null : { base: match[1], stem: match[2] });
      }),
      { numRuns: 20000 },
    );
  });
});
