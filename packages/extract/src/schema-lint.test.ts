import { describe, expect, it } from "vitest";
import { lintSchema, schemaDefinitionErrors } from "./schema-lint.js";

const rulesOf = (schema: unknown, providers: string[] = []) =>
  lintSchema(schema, { providers }).warnings.map((w) => [w.rule, w.pointer]);

describe("schema definition errors", () => {
  it.each([[[]], ["string"], [null], [true], [42]])("rejects %j as not an object", (value) => {
    const result = lintSchema(value);
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      { rule: "not-an-object", pointer: "", message: "The schema definition must be a JSON object" },
    ]);
  });

  it("requires at least one schema keyword", () => {
    for (const value of [{}, { title: "x", description: "y" }, { foo: 1 }]) {
      const [error] = schemaDefinitionErrors(value);
      expect(error?.rule).toBe("no-schema-keyword");
    }
    expect(schemaDefinitionErrors({ $schema: "https://json-schema.org/draft/2020-12/schema" })).toEqual([]);
    expect(schemaDefinitionErrors({ properties: {} })).toEqual([]);
  });

  it("reports an invalid definition as `Invalid JSON Schema: <detail>`", () => {
    const [typo] = schemaDefinitionErrors({ type: "strin" });
    expect(typo?.rule).toBe("invalid-schema");
    expect(typo?.message).toMatch(/^Invalid JSON Schema: .*type/);
    const [badRef] = schemaDefinitionErrors({
      type: "object",
      properties: { a: { $ref: "#/$defs/missing" } },
    });
    expect(badRef?.message).toMatch(/^Invalid JSON Schema: /);
    const [badMin] = schemaDefinitionErrors({ type: "array", minItems: -1 });
    expect(badMin?.message).toMatch(/^Invalid JSON Schema: /);
  });

  it("reads a leftover draft-07 $schema as 2020-12, like scoring does", () => {
    expect(
      schemaDefinitionErrors({ $schema: "http://json-schema.org/draft-07/schema#", type: "object" }),
    ).toEqual([]);
  });
});

describe("lint warnings", () => {
  it("flags required non-nullable fields, not nullable or untyped ones", () => {
    const schema = {
      type: "object",
      required: ["a", "b", "c", "d", "e", "f/g"],
      properties: {
        a: { type: "string" },
        b: { type: ["string", "null"] },
        c: {},
        d: { anyOf: [{ type: "string" }, { type: "null" }] },
        e: { oneOf: [{ type: "number" }] },
        "f/g": { type: "integer" },
        notRequired: { type: "string" },
      },
    };
    const warnings = lintSchema(schema).warnings.filter((w) => w.rule === "required-non-nullable");
    expect(warnings.map((w) => w.pointer)).toEqual(["/properties/a", "/properties/f~1g"]);
    expect(warnings[0]?.suggestion).toContain('["string","null"]');
    expect(warnings[0]?.message).toContain('"a"');
  });

  it("flags required enums without an escape value instead of required-non-nullable", () => {
    const schema = {
      type: "object",
      required: ["status", "kind", "level"],
      properties: {
        status: { type: "string", enum: ["open", "closed"] },
        kind: { type: "string", enum: ["a", "insufficient_evidence"] },
        level: { type: ["string", "null"], enum: ["low", null] },
      },
    };
    expect(rulesOf(schema).filter(([rule]) => String(rule).startsWith("required"))).toEqual([
      ["required-enum", "/properties/status"],
    ]);
    expect(lintSchema(schema).warnings[0]?.suggestion).toContain("insufficient_evidence");
  });

  it("finds required fields in nested objects and array items", () => {
    const schema = {
      type: "object",
      properties: {
        parts: {
          type: "array",
          minItems: 1,
          items: { type: "object", required: ["sku"], properties: { sku: { type: "string" } } },
        },
      },
    };
    expect(rulesOf(schema)).toEqual([
      ["min-items", "/properties/parts/minItems"],
      ["required-non-nullable", "/properties/parts/items/properties/sku"],
    ]);
  });

  it("does not flag minItems 0", () => {
    expect(rulesOf({ type: "array", minItems: 0 })).toEqual([]);
  });

  it("reports keywords structured-output providers ignore, always checking cloud-a", () => {
    const schema = {
      type: "object",
      properties: {
        email: { type: ["string", "null"], format: "email", pattern: "@" },
        // a property *named* like a keyword is not a keyword
        format: { type: ["number", "null"], minimum: 0 },
        tags: { type: "array", maxItems: 3, uniqueItems: true },
      },
    };
    const warnings = lintSchema(schema).warnings;
    expect(warnings.map((w) => [w.rule, w.pointer])).toEqual([
      ["provider-rewrite", "/properties/email/pattern"],
      ["provider-rewrite", "/properties/email/format"],
      ["provider-rewrite", "/properties/format/minimum"],
      ["provider-rewrite", "/properties/tags/maxItems"],
      ["provider-rewrite", "/properties/tags/uniqueItems"],
    ]);
    expect(warnings[0]?.message).toContain("cloud-a");
    expect(warnings[0]?.suggestion).toBeDefined();
    // minItems goes to its own rule, never to provider-rewrite
    expect(rulesOf({ type: "array", minItems: 2 })).toEqual([["min-items", "/minItems"]]);
  });

  it("names configured structured providers and flags the whole schema for prompt-only ones", () => {
    const schema = { type: "object", properties: { a: { type: ["string", "null"], maxLength: 5 } } };
    const warnings = lintSchema(schema, { providers: ["hosted-a", "hosted-b", "self-hosted"] }).warnings;
    expect(warnings.map((w) => [w.rule, w.pointer])).toEqual([
      ["provider-rewrite", ""],
      ["provider-rewrite", "/properties/a/maxLength"],
    ]);
    expect(warnings[0]?.message).toContain("hosted-b");
    expect(warnings[1]?.message).toContain("hosted-a, cloud-a");
    expect(lintSchema(schema, { providers: ["hosted-d"] }).warnings[0]?.message).toContain("hosted-d");
  });

  it("keeps valid true whatever the warnings", () => {
    const result = lintSchema({ type: "object", required: ["a"], properties: { a: { type: "string" } } });
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.warnings.length).toBeGreaterThan(0);
  });
});
