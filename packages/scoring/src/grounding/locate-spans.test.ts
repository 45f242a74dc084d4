import { describe, expect, it } from "vitest";
import { locateSpans, type SpanRequest } from "./locate-spans.js";

/** The text a span covers, cut by code points as the span counts them. */
function cut(text: string, span: { start: number; end: number } | null): string | null {
  if (span === null) return null;
  return [...text].slice(span.start, span.end).join("");
}

function locate(text: string, value: string | number, series = "s", partial = false) {
  return locateSpans(text, [{ value, series, partial }])[0] ?? null;
}

describe("span location", () => {
  it("finds a verbatim value at its code-point offsets", () => {
    const text = "Invoice from Acme GmbH, Berlin";
    expect(locate(text, "Acme GmbH")).toEqual({ start: 13, end: 22 });
  });

  it("ignores case and whitespace differences", () => {
    expect(cut("Seller: Acme  \n GmbH.", locate("Seller: Acme  \n GmbH.", "ACME GMBH"))).toBe(
      "Acme  \n GmbH",
    );
  });

  it("joins a word hyphenated at a line end", () => {
    const text = "the inter-\n  national office";
    expect(cut(text, locate(text, "international"))).toBe("inter-\n  national");
  });

  it("finds a number written with grouping and trailing zeros", () => {
    const text = "Total due: 1,234.50 EUR";
    expect(cut(text, locate(text, "1234.5"))).toBe("1,234.50");
    expect(cut(text, locate(text, 1234.5))).toBe("1,234.50");
  });

  it("never matches a string value inside a longer number", () => {
    const text = "ref 948566.20 and later 948566.2 again";
    expect(locate(text, "948566.2")).toEqual({ start: 24, end: 32 });
    expect(locate("id 1948566.2", "948566.2")).toBeNull();
  });

  it("finds a normalised date written in another form", () => {
    const text = "Signed on 5 March 2024 in Berlin; due March 31st, 2024 or 01.04.2024";
    expect(cut(text, locate(text, "2024-03-05"))).toBe("5 March 2024");
    expect(cut(text, locate(text, "2024-03-31"))).toBe("March 31st, 2024");
    expect(cut(text, locate(text, "2024-04-01"))).toBe("01.04.2024");
  });

  it("aligns tokens interrupted by a few other words", () => {
    const text = "Buyer: Acme (formerly Zenith) Global Holdings, Berlin";
    expect(cut(text, locate(text, "Acme Global Holdings"))).toBe("Acme (formerly Zenith) Global Holdings");
  });

  it("gives the n-th repeated request the n-th mention", () => {
    const text = "Widget 10 pcs. Widget 20 pcs. Widget 30 pcs.";
    const requests: SpanRequest[] = [0, 1, 2, 3].map(() => ({
      value: "Widget",
      series: "items.name",
      partial: false,
    }));
    expect(locateSpans(text, requests)).toEqual([
      { start: 0, end: 6 },
      { start: 15, end: 21 },
      { start: 30, end: 36 },
      null,
    ]);
  });

  it("never hands a later mention an earlier interval that a looser tier found (reading order holds)", () => {
    // The exact "Acme Bolt" is the first request's; token alignment also finds "acme Müller Bolt"
    // before it, which must not become the second request's span.
    const text = "acme Müller Bolt Acme Bolt";
    const requests: SpanRequest[] = [0, 1].map(() => ({
      value: "acme bolt",
      series: "items.name",
      partial: false,
    }));
    expect(locateSpans(text, requests)).toEqual([{ start: 17, end: 26 }, null]);
  });

  it("maps spans in NFD-stored text back to the original offsets", () => {
    const text = "Cafe\u0301 Mu\u0308ller GmbH";
    const span = locate(text, "Café Müller");
    expect(span).toEqual({ start: 0, end: 13 });
    expect(cut(text, span)).toBe("Cafe\u0301 Mu\u0308ller");
  });

  it("counts astral characters once", () => {
    const text = "😀😀 注文番号 東京都港区 😀 Acme";
    expect(locate(text, "Acme")).toEqual({ start: 16, end: 20 });
    expect(cut(text, locate(text, "東京都"))).toBe("東京都");
  });

  it("prefers a whole word, and falls back to a match inside a longer one", () => {
    expect(locate("Acmeson and Acme", "Acme")).toEqual({ start: 12, end: 16 });
    expect(locate("Acmeson only", "Acme")).toEqual({ start: 0, end: 4 });
  });

  it("locates the found piece of a partial match", () => {
    const text = "see drawing bracket_rev3 attached";
    expect(cut(text, locate(text, "drawings/bracket_rev3.dwg", "s", true))).toBe("bracket_rev3");
  });
});
