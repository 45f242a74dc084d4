import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateTokens } from "./tokens.js";

describe("estimateTokens", () => {
  it("counts nothing for nothing", () => {
    expect(estimateTokens("")).toBe(0);
  });

  it("charges short words one token and long words by length", () => {
    expect(estimateTokens("the cat sat")).toBe(3);
    expect(estimateTokens("internationalization")).toBe(4);
  });

  it("charges digits in groups of three and ideographs one each", () => {
    expect(estimateTokens("1234567")).toBe(3);
    expect(estimateTokens("東京都")).toBe(3);
  });

  it("lands near four characters a token on English prose", () => {
    const prose =
      "The supplier shall deliver the goods described in the purchase order to the address given, " +
      "together with an invoice stating the order number, the quantity and the agreed unit price.\n";
    const ratio = prose.length / estimateTokens(prose);
    expect(ratio).toBeGreaterThan(3.5);
    expect(ratio).toBeLessThan(5.5);
  });

  it("is additive over whitespace-separated concatenation and never negative", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const joined = estimateTokens(`${a}\n${b}`);
        expect(joined).toBeGreaterThanOrEqual(0);
        expect(joined).toBeLessThanOrEqual(estimateTokens(a) + estimateTokens(b) + 2);
      }),
    );
  });

  it("counts ASCII text by hand exactly as the piece pattern counts it", () => {
    // A leading ideograph is a piece of its own (1 token) and sends the rest through the pattern.
    const viaPattern = (text: string) => estimateTokens(`\u6771${text}`) - 1;
    const ascii = fc.string({
      unit: fc.constantFrom(
        "a",
        "Z",
        "q",
        "0",
        "7",
        " ",
        "  ",
        "\n",
        "\r",
        "\r\n",
        "\t",
        "\v",
        "\f",
        ".",
        "-",
        "#",
        "\u0000",
        "\u007f",
      ),
    });
    fc.assert(
      fc.property(ascii, (text) => {
        expect(estimateTokens(text)).toBe(viaPattern(text));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary-ascii" }), (text) => {
        expect(estimateTokens(text)).toBe(viaPattern(text));
      }),
      { numRuns: 2000 },
    );
  });
});
