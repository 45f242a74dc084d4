import { describe, expect, it } from "vitest";
import { withoutPageFurniture } from "./page-furniture.js";

interface L {
  text: string;
  y: number;
  page: number;
  table?: string[][];
}

/** A page of body lines between an optional header (top) and footer (bottom), in stream order. */
function page(number: number, body: string[], header?: string, footer?: string): L[] {
  const lines: L[] = body.map((text, i) => ({ text, y: 760 - i * 14, page: number }));
  if (header !== undefined) lines.push({ text: header, y: 806, page: number });
  if (footer !== undefined) lines.push({ text: footer, y: 44, page: number });
  return lines;
}

describe("page furniture", () => {
  it("drops a running header and numbered footers found on every page, wherever the stream puts them", () => {
    const lines = [1, 2, 3, 4].flatMap((n) =>
      page(
        n,
        [`Body line ${n}a`, `Body line ${n}b`, `Body line ${n}c`],
        "Annual Report 2025",
        `Page ${n} of 4`,
      ),
    );
    expect(withoutPageFurniture(lines).map((l) => l.text)).toEqual(
      [1, 2, 3, 4].flatMap((n) => [`Body line ${n}a`, `Body line ${n}b`, `Body line ${n}c`]),
    );
  });

  it("keeps edge lines that repeat on fewer than half of the pages, and everything in a two-page document", () => {
    const lines = [1, 2, 3, 4, 5, 6, 7].flatMap((n) =>
      page(
        n,
        [
          `Text on page ${"abcdefg"[n]}`,
          `Then ${"abcdefg"[n]}`,
          "Shared sentence",
          `Still ${"abcdefg"[n]}`,
          `More of ${"abcdefg"[n]}`,
        ],
        n <= 3 ? "Draft" : undefined,
      ),
    );
    expect(withoutPageFurniture(lines)).toEqual(lines);
    const short = [1, 2].flatMap((n) => page(n, ["a", "b", "c"], "Header", `${n}`));
    expect(withoutPageFurniture(short)).toEqual(short);
  });

  it("keeps a repeated line when it is not at the same height, and never drops a table", () => {
    const moving = [1, 2, 3, 4].flatMap((n) => [
      { text: "Summary", y: 900 - n * 40, page: n },
      ...page(
        n,
        ["The x of it", "The y of it", "The z of it"].map((t) => `${t} ${"abcd"[n - 1]}`),
      ),
    ]);
    expect(withoutPageFurniture(moving)).toEqual(moving);
    const tables = [1, 2, 3, 4].flatMap((n) => [
      { text: "Item Qty", y: 806, page: n, table: [["Item", "Qty"]] },
      ...page(
        n,
        ["The x of it", "The y of it", "The z of it"].map((t) => `${t} ${"abcd"[n - 1]}`),
      ),
    ]);
    expect(withoutPageFurniture(tables)).toEqual(tables);
  });
});
