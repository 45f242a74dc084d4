import { describe, expect, it } from "vitest";
import type { ExtractionConfig } from "./extraction-config.js";
import { scoreResult } from "./score-result.js";
import { MAX_RECORDED_FLAGS } from "./thresholds.js";

const text = "Invoice INV-1. Parts: SKU-1, SKU-2.";
const output = {
  invoiceNumber: "INV-1",
  vendor: "Unknown Vendor",
  parts: [{ sku: "SKU-1" }, { sku: "SKU-9" }],
};

const run = (config: ExtractionConfig, out: unknown = output, jsonSchema: unknown = {}) =>
  scoreResult({ jsonSchema, output: out, inputText: text, extractionConfig: config }).scoring;

describe("thresholds and flags", () => {
  it("validation.properties.<p>.confidenceThreshold compares the grounding score: LEGACY_GROUNDING", () => {
    const scoring = run({ validation: { properties: { vendor: { confidenceThreshold: 0.5 } } } });
    expect(scoring?.confidence?.flags).toEqual([
      { field: "vendor", confidence: 0.1, threshold: 0.5, source: "LEGACY_GROUNDING" },
    ]);
  });

  it("confidence.properties.<p>.threshold compares the composite score: COMPOSITE", () => {
    const config: ExtractionConfig = {
      confidence: { properties: { invoiceNumber: { threshold: 0.5 } } },
      rules: [{ id: "r", type: "REGEX", field: "/invoiceNumber", pattern: "X", severity: "ERROR" }],
    };
    expect(run(config)?.confidence?.flags).toEqual([
      { field: "invoiceNumber", confidence: 0.3, threshold: 0.5, source: "COMPOSITE" },
    ]);
  });

  it("strictly below flags; equal passes", () => {
    expect(
      run({ validation: { properties: { vendor: { confidenceThreshold: 0.1 } } } })?.confidence?.flagCount,
    ).toBe(0);
    expect(run({ confidence: { properties: { vendor: { threshold: 0.1 } } } })?.confidence?.flagCount).toBe(
      0,
    );
  });

  it("meeting a composite threshold adds threshold provenance", () => {
    const scoring = run({ confidence: { properties: { invoiceNumber: { threshold: 1 } } } });
    expect(scoring?.fields.invoiceNumber?.provenance).toEqual(["grounding", "threshold"]);
  });

  it("an array property covers all scored fields of all its elements; keys are flat", () => {
    const scoring = run({ validation: { properties: { parts: { confidenceThreshold: 0.9 } } } });
    expect(scoring?.confidence?.flags).toEqual([
      { field: "parts[1].sku", confidence: 0, threshold: 0.9, source: "LEGACY_GROUNDING" },
    ]);
  });

  it("$root covers the elements of an array-rooted output", () => {
    const scoring = run({ confidence: { properties: { $root: { threshold: 0.9 } } } }, [
      { sku: "SKU-1" },
      { sku: "SKU-7" },
    ]);
    expect(scoring?.confidence?.flags).toEqual([
      { field: "[1].sku", confidence: 0, threshold: 0.9, source: "COMPOSITE" },
    ]);
    expect(scoring?.thresholds).toEqual({ $root: { confidenceThreshold: null, threshold: 0.9 } });
  });

  it("the composite threshold must be a JSON number in [0, 1]; anything else is ignored", () => {
    for (const threshold of [1.5, -0.1, "0.9", null, true]) {
      const config = { confidence: { properties: { vendor: { threshold } } } } as unknown as ExtractionConfig;
      expect(run(config)?.confidence?.flagCount).toBe(0);
    }
  });

  it("a non-number grounding threshold is ignored", () => {
    const config = {
      validation: { properties: { vendor: { confidenceThreshold: "0.9" } } },
    } as unknown as ExtractionConfig;
    expect(run(config)?.confidence?.flagCount).toBe(0);
  });

  it("the thresholds hint map lists only array properties and $root", () => {
    const scoring = run({
      validation: {
        properties: { parts: { confidenceThreshold: 0.7 }, vendor: { confidenceThreshold: 0.5 } },
      },
      confidence: { properties: { parts: { threshold: 0.4 } } },
    });
    expect(scoring?.thresholds).toEqual({ parts: { confidenceThreshold: 0.7, threshold: 0.4 } });
  });

  it("at most 100 flags; flagCount is the true total; truncated says so", () => {
    const parts = Array.from({ length: 120 }, (_, i) => ({ sku: `MISSING-${i}` }));
    const scoring = run({ validation: { properties: { parts: { confidenceThreshold: 0.5 } } } }, { parts });
    expect(scoring?.confidence?.flags).toHaveLength(MAX_RECORDED_FLAGS);
    expect(scoring?.confidence).toMatchObject({ flagCount: 120, truncated: true });
  });

  it("flags never change scores", () => {
    const flagged = run({ validation: { properties: { vendor: { confidenceThreshold: 0.9 } } } });
    const plain = run({});
    expect(flagged?.fields).toEqual(plain?.fields);
  });
});
