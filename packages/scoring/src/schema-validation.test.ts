import { describe, expect, it } from "vitest";
import { canonicalJson, MAX_RECORDED_VIOLATIONS, validateAgainstSchema } from "./schema-validation.js";

const schema = {
  type: "object",
  required: ["invoiceNumber", "total"],
  properties: {
    invoiceNumber: { type: "string" },
    total: { type: "number", minimum: 0 },
    "a/b~c": { type: "integer" },
    lines: {
      type: "array",
      items: { type: "object", required: ["sku"], properties: { sku: { type: "string" } } },
    },
  },
};

describe("schema validation report", () => {
  it("a clean output is applied:true with an empty list", () => {
    expect(validateAgainstSchema(schema, { invoiceNumber: "A", total: 1 })).toEqual({
      applied: true,
      violationCount: 0,
      truncated: false,
      violations: [],
    });
  });

  it("violations carry fieldPath, keyword, property null and an English message", () => {
    const report = validateAgainstSchema(schema, { invoiceNumber: "A", total: -1 });
    expect(report.violations).toEqual([
      {
        fieldPath: "/total",
        keyword: "minimum",
        property: null,
        message: expect.any(String),
        source: "MODEL",
      },
    ]);
    expect(report.violations[0]?.message).toMatch(/must be >= 0/);
  });

  it("fieldPath escapes ~ as ~0 and / as ~1", () => {
    const report = validateAgainstSchema(schema, { invoiceNumber: "A", total: 1, "a/b~c": "x" });
    expect(report.violations[0]).toMatchObject({ fieldPath: "/a~1b~0c", keyword: "type" });
  });

  it("a missing required top-level field is anchored at the root with property", () => {
    const report = validateAgainstSchema(schema, { invoiceNumber: "A" });
    expect(report.violations).toEqual([
      { fieldPath: "", keyword: "required", property: "total", message: expect.any(String), source: "MODEL" },
    ]);
  });

  it("a nested missing required field is anchored on its containing object", () => {
    const report = validateAgainstSchema(schema, { invoiceNumber: "A", total: 1, lines: [{ sku: "x" }, {}] });
    expect(report.violations[0]).toMatchObject({
      fieldPath: "/lines/1",
      keyword: "required",
      property: "sku",
    });
  });

  it("source is RESTORED_NULL for fields restored as null after a chunk merge", () => {
    const report = validateAgainstSchema(
      schema,
      { invoiceNumber: null, total: null },
      { restoredNullPointers: ["/total"] },
    );
    const bySource = Object.fromEntries(report.violations.map((v) => [v.fieldPath, v.source]));
    expect(bySource).toEqual({ "/invoiceNumber": "MODEL", "/total": "RESTORED_NULL" });
  });

  it("records at most 100 violations; violationCount is the true total; truncated says so", () => {
    const many = { type: "array", items: { type: "string" } };
    const report = validateAgainstSchema(
      many,
      Array.from({ length: 150 }, (_, i) => i),
    );
    expect(report).toMatchObject({ applied: true, violationCount: 150, truncated: true });
    expect(report.violations).toHaveLength(MAX_RECORDED_VIOLATIONS);
    const exactly = validateAgainstSchema(
      many,
      Array.from({ length: 100 }, (_, i) => i),
    );
    expect(exactly).toMatchObject({ violationCount: 100, truncated: false });
  });

  it("formats are checked (ajv-formats)", () => {
    const report = validateAgainstSchema({ type: "string", format: "email" }, "not-an-email");
    expect(report.violations[0]).toMatchObject({ fieldPath: "", keyword: "format" });
  });

  it("a schema that does not compile makes the report applied:false (never 'passed')", () => {
    expect(validateAgainstSchema({ type: "no-such-type" }, {})).toEqual({
      applied: false,
      violationCount: 0,
      truncated: false,
      violations: [],
    });
    expect(validateAgainstSchema({ $ref: "#/missing" }, {}).applied).toBe(false);
    expect(validateAgainstSchema("not a schema", {}).applied).toBe(false);
  });

  it("a leftover draft-07 $schema is read as 2020-12", () => {
    const report = validateAgainstSchema(
      { $schema: "http://json-schema.org/draft-07/schema#", type: "string" },
      1,
    );
    expect(report).toMatchObject({ applied: true, violationCount: 1 });
  });

  it("draft 2020-12 keywords work (prefixItems, unevaluatedProperties)", () => {
    const strict = { type: "object", properties: { a: {} }, unevaluatedProperties: false };
    expect(validateAgainstSchema(strict, { a: 1, b: 2 }).violations[0]).toMatchObject({
      keyword: "unevaluatedProperties",
      property: "b",
    });
    const tuple = { type: "array", prefixItems: [{ type: "string" }] };
    expect(validateAgainstSchema(tuple, [1]).violations[0]).toMatchObject({
      fieldPath: "/0",
      keyword: "type",
    });
  });

  it("schemas that reuse the same $id validate independently (one validator per schema)", () => {
    const a = { $id: "https://example.com/s", type: "string" };
    const b = { $id: "https://example.com/s", type: "number" };
    expect(validateAgainstSchema(a, "x").violationCount).toBe(0);
    expect(validateAgainstSchema(b, "x").violationCount).toBe(1);
  });

  it("validators are cached by a hash of the canonical schema (key order does not matter)", () => {
    expect(canonicalJson({ b: 1, a: [true, { d: null, c: "x" }] })).toBe(
      '{"a":[true,{"c":"x","d":null}],"b":1}',
    );
    const first = validateAgainstSchema({ type: "string", minLength: 2 }, "x");
    const second = validateAgainstSchema({ minLength: 2, type: "string" }, "x");
    expect(second).toEqual(first);
  });

  it("never modifies the output", () => {
    const output = { invoiceNumber: 1, lines: [{}] };
    const before = structuredClone(output);
    validateAgainstSchema({ ...schema, properties: { ...schema.properties, x: { default: 5 } } }, output);
    expect(output).toEqual(before);
  });
});
