import { describe, expect, it } from "vitest";
import { detectTables, type TableLine } from "./table-detection.js";

/** A line of runs, each `[text, x, width]`, at height y, 10 pt. */
function line(y: number, ...runs: Array<[string, number, number]>): TableLine {
  return {
    text: runs.map(([text]) => text).join(" "),
    y,
    size: 10,
    runs: runs.map(([text, x, width]) => ({ text, x, end: x + width, size: 10 })),
  };
}

describe("unruled table columns", () => {
  it("a row whose long text sits closer than the cell gap to the next column does not merge two columns", () => {
    const lines = [
      line(700, ["Item", 0, 20], ["Tower", 100, 30], ["Are", 200, 18]),
      line(680, ["Gateway", 0, 40], ["4073", 100, 22], ["9930", 200, 22]),
      // 90 + 10 pt gap < 1.4 × 10 pt: this row alone reads as two cells.
      line(660, ["Module shipment", 0, 90], ["8809", 100, 22], ["3248", 200, 22]),
      line(640, ["How", 0, 20], ["3236", 100, 22], ["3762", 200, 22]),
    ];
    expect(detectTables(lines, [])).toEqual([
      {
        first: 0,
        last: 3,
        rows: [
          ["Item", "Tower", "Are"],
          ["Gateway", "4073", "9930"],
          ["Module shipment", "8809", "3248"],
          ["How", "3236", "3762"],
        ],
      },
    ]);
  });
});
