import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { docxOf, para } from "../../test/ooxml-parts.js";
import { isDocumentError } from "../document-error.js";
import { DEFAULT_LIMITS } from "../limits.js";
import { parseDocx } from "./docx.js";
import type { ParseOptions } from "./parse-context.js";

const options: ParseOptions = {
  filename: "t.docx",
  pipeline: "fast",
  embedImages: false,
  maxPages: undefined,
  limits: DEFAULT_LIMITS,
  expansionBudget: DEFAULT_LIMITS.maxExpandedBytes,
};

const cellArb = fc.record({
  span: fc.integer({ min: 1, max: 3 }),
  merge: fc.constantFrom("none", "restart", "continue"),
});

describe("DOCX tables with arbitrary merges", () => {
  it("every row has the table's width, every started cell's text is kept, and a continued merge repeats the slot above", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cellArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
        async (grid) => {
          let n = 0;
          const named = grid.map((row) => row.map((cell) => ({ ...cell, text: `c${n++}` })));
          const xml = named
            .map(
              (row) =>
                `<w:tr>${row
                  .map((cell) => {
                    const merge =
                      cell.merge === "restart"
                        ? '<w:vMerge w:val="restart"/>'
                        : cell.merge === "continue"
                          ? "<w:vMerge/>"
                          : "";
                    return `<w:tc><w:tcPr><w:gridSpan w:val="${cell.span}"/>${merge}</w:tcPr>${para(cell.text)}</w:tc>`;
                  })
                  .join("")}</w:tr>`,
            )
            .join("");
          const parsed = await parseDocx(await docxOf(`<w:tbl>${xml}</w:tbl>`), options);
          const table = parsed.model?.blocks[0];
          expect(table?.type).toBe("table");
          if (table?.type !== "table") return;
          const width = Math.max(...named.map((row) => row.reduce((sum, cell) => sum + cell.span, 0)));
          expect(table.rows).toHaveLength(named.length);
          for (const [r, row] of named.entries()) {
            const out = table.rows[r] as string[];
            expect(out).toHaveLength(width);
            let column = 0;
            for (const cell of row) {
              const expected = cell.merge === "continue" ? (table.rows[r - 1]?.[column] ?? "") : cell.text;
              for (let i = 0; i < cell.span; i++) expect(out[column + i]).toBe(expected);
              column += cell.span;
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("arbitrary bytes in document.xml never crash the reader: a document or a DocumentError", async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[<>/a-z:="' 0-9wm.]*$/), async (body) => {
        try {
          await parseDocx(await docxOf(body), options);
        } catch (error) {
          expect(isDocumentError(error)).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
  });
});
