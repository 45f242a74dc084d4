import { describe, expect, it } from "vitest";
import { extractionQuality } from "./extraction-quality.js";

const field = (score: number | null) => ({
  grounding: { score: 1, basis: "exact_match" },
  confidence: score === null ? null : { score, basis: "grounded" },
  provenance: score === null ? null : ["grounding"],
});

describe("extractionQuality", () => {
  it("averages every non-null composite score of fields and item fields", () => {
    const result = {
      structuredOutput: {},
      resultMetadata: {
        schemaValidation: { applied: true, violationCount: 2, truncated: false, violations: [] },
        scoring: {
          methods: ["grounding", "confidence"],
          fields: { vendor: field(1), total: field(0.2), note: field(null) },
          items: { "lines[0]": { grounding: {}, fields: { sku: field(0.6), qty: field(null) } } },
          confidence: { calibrated: false, flags: [], flagCount: 3, truncated: false },
        },
      },
    };
    const facts = extractionQuality(result);
    expect(facts.confidence).toBeCloseTo(0.6, 12);
    expect(facts).toMatchObject({ flagCount: 3, validationApplied: true, violationCount: 2 });
  });

  it("has no confidence without scores, and nothing at all without a result", () => {
    expect(
      extractionQuality({
        resultMetadata: {
          schemaValidation: { applied: false, violationCount: 0 },
          scoring: null,
        },
      }),
    ).toEqual({ confidence: null, flagCount: null, validationApplied: false, violationCount: 0 });
    expect(extractionQuality(null)).toEqual({
      confidence: null,
      flagCount: null,
      validationApplied: null,
      violationCount: null,
    });
    expect(
      extractionQuality({ resultMetadata: { scoring: { fields: "x", items: [1, null] } } }).confidence,
    ).toBeNull();
  });
});
