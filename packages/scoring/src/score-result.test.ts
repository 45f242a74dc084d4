import { describe, expect, it } from "vitest";
import type { ExtractionConfig } from "./extraction-config.js";
import { scoreResult } from "./score-result.js";

const schema = {
  type: "object",
  required: ["invoiceNumber"],
  properties: {
    invoiceNumber: { type: "string" },
    vendor: { type: "object", properties: { vatId: { type: "string", pattern: "^DE" } } },
    total: { type: "number" },
    parts: {
      type: "array",
      items: {
        type: "object",
        properties: { sku: { type: "string" }, price: { type: "number", minimum: 0 } },
      },
    },
  },
};
const text = "Invoice INV-1 from Acme GmbH (VAT FR123). SKU-1 costs 5, SKU-2 costs 7.";
const output = {
  invoiceNumber: "INV-1",
  vendor: { name: "Acme GmbH", vatId: "FR123" },
  total: 12,
  parts: [
    { sku: "SKU-1", price: -5 },
    { sku: "SKU-2", price: 7 },
  ],
};

const score = (
  config: ExtractionConfig | null = null,
  overrides: Partial<Parameters<typeof scoreResult>[0]> = {},
) => scoreResult({ jsonSchema: schema, output, inputText: text, extractionConfig: config, ...overrides });

const rule = (extra: Record<string, unknown>) => ({ id: `r${JSON.stringify(extra)}`, ...extra });

describe("attribution", () => {
  it("a violation at /vendor/vatId goes to root field vendor", () => {
    const result = score();
    expect(result.schemaValidation.violations.map((v) => v.fieldPath)).toContain("/vendor/vatId");
    expect(result.scoring?.fields.vendor?.confidence).toEqual({ score: 0.2, basis: "schema_capped" });
  });

  it("a violation at /parts/0/price goes to item field parts[0].price", () => {
    const result = score();
    expect(result.scoring?.items["parts[0]"]?.fields.price?.confidence).toEqual({
      score: 0.2,
      basis: "schema_capped",
    });
    expect(result.scoring?.items["parts[1]"]?.fields.price?.confidence?.basis).toBe("low_information");
  });

  it("signals matching no scored field lower nothing (a required violation for an omitted root field)", () => {
    const result = score(null, { output: { vendor: { name: "Acme GmbH" } } });
    expect(result.schemaValidation.violations[0]).toMatchObject({ fieldPath: "", property: "invoiceNumber" });
    expect(result.scoring?.fields.vendor?.confidence?.basis).toBe("low_information");
  });

  it("a signal on a whole array element lowers nothing", () => {
    const config = { rules: [rule({ type: "ENUM", field: "/parts/0", values: ["x"], severity: "ERROR" })] };
    const result = score(config);
    expect(result.rules.errorCount).toBe(1);
    const strict = {
      ...schema,
      properties: { ...schema.properties, parts: { type: "array", items: { type: "string" } } },
    };
    const violated = score(null, { jsonSchema: strict });
    expect(violated.schemaValidation.violations.some((v) => v.fieldPath === "/parts/0")).toBe(true);
    expect(violated.scoring?.items["parts[0]"]?.fields.sku?.confidence?.basis).toBe("grounded");
  });

  it("attribution works for array-rooted outputs and escaped keys", () => {
    const rooted = scoreResult({
      jsonSchema: {
        type: "array",
        items: { type: "object", properties: { "a/b": { type: "number", minimum: 0 } } },
      },
      output: [{ "a/b": 1 }, { "a/b": -1 }],
      inputText: "x",
    });
    expect(rooted.schemaValidation.violations[0]?.fieldPath).toBe("/1/a~1b");
    expect(rooted.scoring?.items["[1]"]?.fields["a/b"]?.confidence?.basis).toBe("schema_capped");
    expect(rooted.scoring?.items["[0]"]?.fields["a/b"]?.confidence?.basis).toBe("low_information");
  });

  it("rule outcomes are attributed to the deepest scored field by concrete pointer", () => {
    const config = { rules: [rule({ type: "RANGE", field: "/parts/*/price", min: 6, severity: "ERROR" })] };
    const result = score(config);
    expect(result.scoring?.items["parts[0]"]?.fields.price?.confidence).toEqual({
      score: 0.2,
      basis: "schema_capped",
    });
    expect(result.scoring?.items["parts[1]"]?.fields.price?.confidence?.basis).toBe("low_information");
    expect(result.scoring?.items["parts[1]"]?.fields.price?.provenance).toEqual(["rule"]);
  });

  it("wildcard and empty pointers are not attributed", () => {
    const config = {
      rules: [
        rule({ type: "RANGE", field: "/nothing/*/price", min: 0, failOnMissing: true, severity: "ERROR" }),
        rule({ type: "ENUM", field: "", values: ["x"], severity: "ERROR" }),
      ],
    };
    const result = score(config);
    expect(result.rules.failCount).toBe(1);
    expect(result.scoring?.fields.invoiceNumber?.confidence?.basis).toBe("grounded");
  });

  it("SKIPPED and ERROR verdicts change nothing", () => {
    const config = {
      rules: [rule({ type: "REGEX", field: "/total", pattern: "x", automationBlocker: true })],
    };
    const result = score(config);
    expect(result.rules.errorCount).toBe(1);
    expect(result.scoring?.fields.total?.confidence).toEqual({ score: 0.5, basis: "low_information" });
    expect(result.scoring?.fields.total?.provenance).toEqual([]);
  });

  it("a SKIPPED verdict at a scored field changes nothing", () => {
    const config = {
      rules: [
        rule({
          type: "ARITHMETIC",
          field: "/total",
          equals: { op: "SUM", operands: ["/none"] },
          severity: "ERROR",
        }),
      ],
    };
    const result = score(config);
    expect(result.rules.outcomes[0]).toMatchObject({ verdict: "SKIPPED", field: "/total" });
    expect(result.scoring?.fields.total).toMatchObject({
      confidence: { score: 0.5, basis: "low_information" },
      provenance: [],
    });
  });

  it("a failing blocker rule on a root field caps it at 0.1", () => {
    const config = {
      rules: [rule({ type: "REGEX", field: "/invoiceNumber", pattern: "X.*", automationBlocker: true })],
    };
    expect(score(config).scoring?.fields.invoiceNumber?.confidence).toEqual({
      score: 0.1,
      basis: "blocker_capped",
    });
  });
});

describe("scoring report", () => {
  it("methods shows grounding and confidence; calibrated is false", () => {
    const result = score();
    expect(result.scoring?.methods).toEqual(["grounding", "confidence"]);
    expect(result.scoring?.confidence?.calibrated).toBe(false);
    expect(result.scoring?.grounding.basis).toBeNull();
  });

  it("fields hold root-level properties with grounding, confidence and provenance", () => {
    expect(score().scoring?.fields.invoiceNumber).toEqual({
      grounding: { score: 1, basis: "exact_match", spans: [{ start: 8, end: 13 }] },
      confidence: { score: 1, basis: "grounded" },
      provenance: ["grounding"],
    });
  });

  it("image-only extraction: scoring is null", () => {
    const result = score(null, { inputText: null });
    expect(result.scoring).toBeNull();
    expect(result.schemaValidation.applied).toBe(true);
  });

  it("validation off for the version: no schema validation, no scoring, but rules still run", () => {
    const config = {
      validation: { enabled: false },
      rules: [rule({ type: "RANGE", field: "/total", max: 5 })],
    };
    const result = score(config);
    expect(result.schemaValidation).toEqual({
      applied: false,
      violationCount: 0,
      truncated: false,
      violations: [],
    });
    expect(result.scoring).toBeNull();
    expect(result.rules).toMatchObject({ applied: true, failCount: 1 });
  });

  it("nothing could be scored: methods shows grounding at 1.0 with empty fields/items and null confidence", () => {
    const result = score(null, { output: { invoiceNumber: null, parts: [] } });
    expect(result.scoring).toEqual({
      methods: ["grounding"],
      grounding: { score: 1, basis: null },
      thresholds: {},
      fields: {},
      items: {},
      confidence: null,
    });
  });

  it("a schema that cannot compile still scores, without schema signals", () => {
    const result = score(null, { jsonSchema: { type: 42 } });
    expect(result.schemaValidation.applied).toBe(false);
    expect(result.scoring?.methods).toEqual(["grounding", "confidence"]);
  });

  it("chunk texts, when given, are what grounding searches", () => {
    const result = score(null, { inputText: "nothing relevant", chunkTexts: ["INV-1"] });
    expect(result.scoring?.fields.invoiceNumber?.grounding.basis).toBe("exact_match");
    const noChunks = score(null, { inputText: "nothing relevant" });
    expect(noChunks.scoring?.fields.invoiceNumber?.grounding.basis).toBe("not_found");
  });

  it("a field named __proto__ is reported as an own field, not as a prototype", () => {
    const parsed = JSON.parse('{"__proto__": "Acme GmbH", "parts": [{"__proto__": "SKU-1"}]}') as unknown;
    const scoring = scoreResult({ jsonSchema: {}, output: parsed, inputText: text }).scoring;
    expect(Object.keys(scoring?.fields ?? {})).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(scoring?.fields)).toBe(Object.prototype);
    expect(Object.hasOwn(scoring?.items["parts[0]"]?.fields ?? {}, "__proto__")).toBe(true);
  });

  it("never throws on bad output or config and never modifies the output", () => {
    const weird = { a: [null, [1, [2]], { b: undefined }], invoiceNumber: 5 };
    const before = structuredClone(weird);
    const config = { validation: "nope", rules: [null, 5, { id: 3 }] } as unknown as ExtractionConfig;
    expect(() =>
      scoreResult({ jsonSchema: schema, output: weird, inputText: "x", extractionConfig: config }),
    ).not.toThrow();
    expect(weird).toEqual(before);
    for (const value of [undefined, null, 1, "s", [], [[]]]) {
      expect(() => scoreResult({ jsonSchema: undefined, output: value, inputText: "" })).not.toThrow();
    }
  });
});
