import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPositionFieldName, resequenceItems } from "./resequence.js";

describe("resequencing", () => {
  it("recognises position names, not identifiers that end like them", () => {
    for (const name of [
      "lineNumber",
      "line_number",
      "number",
      "index",
      "pos",
      "nr",
      "sortOrder",
      "sequence",
      "position",
      "itemNum",
    ]) {
      expect(isPositionFieldName(name), name).toBe(true);
    }
    for (const name of ["partNumber", "orderNumber", "invoice_number", "sku", "name", "posture"]) {
      expect(isPositionFieldName(name), name).toBe(false);
    }
  });

  it("yields 1..n whenever it renumbers (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ lineNumber: fc.option(fc.integer({ min: -3, max: 30 }), { nil: null }) }), {
          minLength: 1,
          maxLength: 30,
        }),
        (items) => {
          const copy = structuredClone(items);
          const renumbered = resequenceItems(copy, []);
          const values = copy.map((item) => item.lineNumber);
          if (renumbered.includes("lineNumber")) {
            expect(values).toEqual(values.map((_, index) => index + 1));
          } else {
            // left alone: no position present at all, or already gap- and duplicate-free
            expect(copy).toEqual(items);
            if (values.every((value) => value === null)) return;
            expect(values.every((value) => value !== null)).toBe(true);
            const sorted = [...(values as number[])].sort((a, b) => a - b);
            sorted.forEach((value, index) => {
              if (index > 0) expect(value - (sorted[index - 1] ?? 0)).toBe(1);
            });
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("keeps string positions strings and never touches identifiers or non-numbers", () => {
    const items = [
      { pos: "1", partNumber: 10, purchaseOrder: "PO-1" },
      { pos: "1", partNumber: 10, purchaseOrder: "PO-1" },
      { pos: "4", partNumber: 30, purchaseOrder: "PO-9" },
    ];
    expect(resequenceItems(items, [])).toEqual(["pos"]);
    expect(items.map((item) => item.pos)).toEqual(["1", "2", "3"]);
    expect(items.map((item) => item.partNumber)).toEqual([10, 10, 30]);
  });

  it("leaves a consecutive run alone even when it does not start at 1", () => {
    const items = [{ index: 5 }, { index: 6 }, { index: 7 }];
    expect(resequenceItems(items, [])).toEqual([]);
    expect(items).toEqual([{ index: 5 }, { index: 6 }, { index: 7 }]);
  });
});
