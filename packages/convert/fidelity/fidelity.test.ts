/**
 * The fidelity corpus as a regression test: for every format Groundwork reads at least as many of
 * the right words as the naive baseline, and the overall figures stay at or above the floors
 * reached (docs/fidelity.md). A structure regression (headings, tables, reading order) fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentConverter } from "../src/index.js";
import { CORPUS_FORMATS, evaluateCorpus, type FidelityReport } from "./evaluate.js";

/** Overall floors: the figures of this corpus when they were set, rounded down (issue #23's goal is 0.95/0.85/0.85/0.95). */
const OVERALL_FLOORS = { wordF1: 0.97, headingRecall: 0.95, tableCellF1: 0.8, readingOrder: 0.97 };
/** Per-format floors for what this branch fixed: PDF structure. */
const PDF_FLOORS = { wordF1: 0.99, headingRecall: 0.95, tableCellF1: 0.95, readingOrder: 0.99 };

const converter = new DocumentConverter({ workers: 1 });
let report: FidelityReport;

beforeAll(async () => {
  report = await evaluateCorpus(converter);
}, 600_000);
afterAll(() => converter.close());

function summary(format: string) {
  const found = report.formats.find((f) => f.format === format);
  if (found === undefined) throw new Error(`no ${format} in the report`);
  return found;
}

describe("fidelity corpus", () => {
  it.each(CORPUS_FORMATS)("%s: word F1 is no worse than the naive baseline", (format) => {
    const { groundwork, naive, files } = summary(format);
    expect(files).toBeGreaterThan(0);
    expect(groundwork.wordF1 ?? 0).toBeGreaterThanOrEqual((naive.wordF1 ?? 0) - 1e-9);
  });

  it("overall figures stay at or above their floors", () => {
    const { groundwork } = summary("overall");
    for (const [metric, floor] of Object.entries(OVERALL_FLOORS)) {
      expect({ metric, value: groundwork[metric as keyof typeof OVERALL_FLOORS] }).toEqual({
        metric,
        value: expect.toSatisfy((v: number | null) => v !== null && v >= floor),
      });
    }
  });

  it("PDF: headings, tables and right-to-left reading order are recovered", () => {
    const { groundwork } = summary("pdf");
    for (const [metric, floor] of Object.entries(PDF_FLOORS)) {
      expect({ metric, value: groundwork[metric as keyof typeof PDF_FLOORS] }).toEqual({
        metric,
        value: expect.toSatisfy((v: number | null) => v !== null && v >= floor),
      });
    }
  });

  it("no corpus file is refused", () => {
    const empty = report.files.filter((f) => f.groundworkMarkdown.trim() === "").map((f) => f.file);
    expect(empty).toEqual([]);
  });
});
