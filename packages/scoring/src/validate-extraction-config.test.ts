import { describe, expect, it } from "vitest";
import { validateExtractionConfig } from "./validate-extraction-config.js";

describe("validateExtractionConfig", () => {
  it("accepts a complete, well-formed config", () => {
    const config = {
      validation: {
        enabled: true,
        properties: {
          parts: {
            confidenceThreshold: 0.7,
            keyFields: ["partNumber"],
            fieldHints: { id: { scoring: "system_assigned" }, note: { scoring: "default_absent" } },
          },
        },
      },
      confidence: { properties: { parts: { threshold: 0.5 } } },
      rules: [{ id: "r", type: "RANGE", field: "/x", min: 0 }],
    };
    expect(validateExtractionConfig(config)).toEqual({ valid: true, errors: [] });
    expect(validateExtractionConfig({})).toEqual({ valid: true, errors: [] });
  });

  it("rejects a config that is not an object", () => {
    for (const config of [null, [], "x", 1]) expect(validateExtractionConfig(config).valid).toBe(false);
  });

  it("rejects wrongly typed top-level keys", () => {
    expect(validateExtractionConfig({ validation: [], confidence: 1, rules: {} }).errors).toEqual([
      "validation must be an object",
      "confidence must be an object",
      "rules must be an array",
    ]);
  });

  it("rejects wrongly shaped nested structures", () => {
    const result = validateExtractionConfig({
      validation: {
        enabled: "yes",
        properties: { a: { keyFields: "id", fieldHints: { f: { scoring: "bogus" } } } },
      },
      confidence: { properties: { b: 0.5 } },
      rules: [1],
    });
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(5);
  });

  it("does not report rule-level problems that become ERROR outcomes at run time", () => {
    const rules = [
      { id: "a", type: "REGEX", field: "/x", pattern: "(" },
      { id: "b", type: "RANGE", field: "/x", min: 5, max: 1 },
      { type: "NOPE", severity: null },
    ];
    expect(validateExtractionConfig({ rules })).toEqual({ valid: true, errors: [] });
  });

  it("ignores composite thresholds of the wrong type, as the spec does at run time", () => {
    expect(validateExtractionConfig({ confidence: { properties: { a: { threshold: "high" } } } }).valid).toBe(
      true,
    );
  });
});
