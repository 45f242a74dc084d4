import { describe, expect, it } from "vitest";
import { regionRows, type SheetCell, tableRegions } from "./table-regions.js";

function cellsOf(grid: string[][]): SheetCell[] {
  return grid.flatMap((row, r) => row.map((text, c) => ({ r, c, text })));
}

const tablesOf = (grid: string[][]) => tableRegions(cellsOf(grid)).map(regionRows);

describe("tableRegions", () => {
  it("drops the empty margin around a single table", () => {
    expect(
      tablesOf([
        ["", "", ""],
        ["", "a", "b"],
        ["", "1", ""],
        ["", "", ""],
      ]),
    ).toEqual([
      [
        ["a", "b"],
        ["1", ""],
      ],
    ]);
  });

  it("cuts again inside a column block (a gap that only one side of the band has)", () => {
    expect(
      tablesOf([
        ["a", "", "x"],
        ["", "", "y"],
        ["b", "", "z"],
      ]),
    ).toEqual([[["a"]], [["b"]], [["x"], ["y"], ["z"]]]);
  });

  it("treats whitespace-only cells as empty and has no region for an empty grid", () => {
    expect(tablesOf([[" ", ""], []])).toEqual([]);
  });

  it("costs the real cells, not the distance between them", () => {
    const regions = tableRegions([
      { r: 0, c: 0, text: "top" },
      { r: 1_048_575, c: 16_383, text: "corner" },
    ]);
    expect(regions.map(regionRows)).toEqual([[["top"]], [["corner"]]]);
  });
});
