import { describe, expect, it } from "vitest";
import { tableRegions } from "./table-regions.js";

describe("tableRegions", () => {
  it("drops the empty margin around a single table", () => {
    expect(
      tableRegions([
        ["", "", ""],
        ["", "a", "b"],
        ["", "1", "2"],
        ["", "", ""],
      ]),
    ).toEqual([
      [
        ["a", "b"],
        ["1", "2"],
      ],
    ]);
  });

  it("cuts again inside a column block (a gap that only one side of the band has)", () => {
    expect(
      tableRegions([
        ["a", "", "x"],
        ["", "", "y"],
        ["b", "", "z"],
      ]),
    ).toEqual([[["a"]], [["b"]], [["x"], ["y"], ["z"]]]);
  });

  it("treats whitespace-only cells as empty and has no region for an empty grid", () => {
    expect(tableRegions([[" ", ""], []])).toEqual([]);
  });
});
