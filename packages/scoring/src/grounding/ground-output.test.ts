import { describe, expect, it } from "vitest";
import type { ExtractionConfig } from "../extraction-config.js";
import { groundOutput } from "./ground-output.js";

const TEXT = [
  "Invoice INV-2024-001 issued by Acme Corporation.",
  "Attached drawing: bracket_rev3.pdf. Contact: Jane Smith.",
  "Part P-100 Steel bolt, part P-200 Brass nut.",
].join("\n");

function ground(output: unknown, config?: ExtractionConfig, jsonSchema: unknown = {}, texts = [TEXT]) {
  return groundOutput({ jsonSchema, output, texts, extractionConfig: config ?? null });
}

const field = (output: Record<string, unknown>, name: string, config?: ExtractionConfig) =>
  ground(output, config).fields[name];

const itemField = (value: unknown, config?: ExtractionConfig, name = "note") =>
  ground({ lines: [{ [name]: value }] }, config).items["lines[0]"]?.fields[name];

describe("grounding basis table", () => {
  it("exact_match 1.0: value found verbatim", () => {
    expect(field({ vendor: "Acme Corporation" }, "vendor")).toEqual({
      score: 1,
      basis: "exact_match",
      spans: [{ start: 31, end: 47 }],
    });
  });

  it("normalized_match 0.9: found after normalizing underscores", () => {
    expect(field({ invoice: "INV_2024_001" }, "invoice")).toEqual({
      score: 0.9,
      basis: "normalized_match",
      spans: [{ start: 8, end: 20 }],
    });
  });

  it("normalized_match 0.9: found after normalizing hyphens", () => {
    expect(field({ file: "bracket-rev3.pdf" }, "file")).toEqual({
      score: 0.9,
      basis: "normalized_match",
      spans: [{ start: 67, end: 83 }],
    });
  });

  it("normalized_match 0.9: found after normalizing spaces", () => {
    expect(field({ invoice: "INV 2024 001" }, "invoice")).toEqual({
      score: 0.9,
      basis: "normalized_match",
      spans: [{ start: 8, end: 20 }],
    });
    expect(field({ vendor: "Acme   Corporation" }, "vendor")).toEqual({
      score: 0.9,
      basis: "normalized_match",
      spans: [{ start: 31, end: 47 }],
    });
  });

  it("partial_match 0.8: substring of the value found", () => {
    // The span is the part found: "Acme Corporation".
    expect(field({ vendor: "Acme Corporation Ltd." }, "vendor")).toEqual({
      score: 0.8,
      basis: "partial_match",
      spans: [{ start: 31, end: 47 }],
    });
  });

  it("partial_match 0.8: file-name stem found", () => {
    const text = "see the drawing bracket_rev3 attached";
    const result = ground({ attachment: "drawings/bracket_rev3.dwg" }, undefined, {}, [text]);
    expect(result.fields.attachment).toEqual({
      score: 0.8,
      basis: "partial_match",
      spans: [{ start: 16, end: 28 }],
    });
  });

  it("unverifiable 0.5: numbers", () => {
    // Located (in "INV-2024-001") but still unverifiable: span location is provenance, not scoring.
    expect(field({ amount: 2024 }, "amount")).toEqual({
      score: 0.5,
      basis: "unverifiable",
      spans: [{ start: 12, end: 16 }],
    });
    expect(field({ amount: 7777 }, "amount")).toEqual({ score: 0.5, basis: "unverifiable" });
  });

  it("unverifiable 0.5: booleans", () => {
    expect(field({ paid: true }, "paid")).toEqual({ score: 0.5, basis: "unverifiable" });
  });

  it("unverifiable 0.5: strings shorter than 3 characters", () => {
    expect(field({ code: "zz" }, "code")).toEqual({ score: 0.5, basis: "unverifiable" });
    expect(field({ code: " 😀😀 " }, "code")?.basis).toBe("unverifiable");
  });

  it("unverifiable 0.5: objects", () => {
    expect(field({ vendor: { name: "Acme Corporation" } }, "vendor")).toEqual({
      score: 0.5,
      basis: "unverifiable",
    });
  });

  it("unverifiable 0.5: arrays with nothing searchable", () => {
    expect(field({ tags: [1, "ab", true] }, "tags")).toEqual({ score: 0.5, basis: "unverifiable" });
    expect(field({ tags: [] }, "tags")?.basis).toBe("unverifiable");
  });

  it("arrays with searchable strings take their weakest element", () => {
    expect(field({ tags: ["Steel bolt", "Brass_nut"] }, "tags")).toEqual({
      score: 0.9,
      basis: "normalized_match",
      spans: [
        { start: 117, end: 127 },
        { start: 140, end: 149 },
      ],
    });
    expect(field({ tags: ["Steel bolt", "Titanium screw"] }, "tags")).toEqual({
      score: 0.1,
      basis: "not_found",
    });
  });

  it("not_found 0.1 for a regular field", () => {
    expect(field({ note: "Completely invented" }, "note")).toEqual({ score: 0.1, basis: "not_found" });
  });

  it("not_found 0.0 for a key field", () => {
    expect(field({ invoiceNumber: "INV-9999-999" }, "invoiceNumber")).toEqual({
      score: 0,
      basis: "not_found",
    });
  });

  it("default_absent 0.8: blank string, false, empty array, numbers truncating to 0 or 1", () => {
    const config: ExtractionConfig = {
      validation: { properties: { lines: { fieldHints: { note: { scoring: "default_absent" } } } } },
    };
    for (const value of ["", "   ", false, [], 0, 1, 1.9, 0.5, -0.5]) {
      expect(itemField(value, config)).toEqual({ score: 0.8, basis: "default_absent" });
    }
  });

  it("default_absent: a non-default value is scored normally", () => {
    const config: ExtractionConfig = {
      validation: { properties: { lines: { fieldHints: { note: { scoring: "default_absent" } } } } },
    };
    expect(itemField("Steel bolt", config)?.basis).toBe("exact_match");
    expect(itemField(2, config)?.basis).toBe("unverifiable");
    expect(itemField(true, config)?.basis).toBe("unverifiable");
    expect(itemField("invented words", config)?.basis).toBe("not_found");
  });

  it("system_assigned 1.0: not compared to the input", () => {
    const config: ExtractionConfig = {
      validation: { properties: { lines: { fieldHints: { note: { scoring: "system_assigned" } } } } },
    };
    expect(itemField("uuid-not-in-text", config)).toEqual({ score: 1, basis: "system_assigned" });
  });

  it("literal: the value must appear verbatim; normalized or partial matches count as not found", () => {
    const config: ExtractionConfig = {
      validation: { properties: { lines: { fieldHints: { fileName: { scoring: "literal" } } } } },
    };
    expect(itemField("bracket_rev3.pdf", config, "fileName")?.basis).toBe("exact_match");
    expect(itemField("bracket-rev3.pdf", config, "fileName")).toEqual({ score: 0, basis: "not_found" });
    expect(itemField("bracket-rev3.pdf", undefined, "fileName")?.basis).toBe("normalized_match");
  });
});

describe("items, weights and keys", () => {
  it("item score is the weighted average; key fields weigh 3 times; unverifiable is excluded", () => {
    const result = ground({ parts: [{ partNumber: "P-100", description: "made up", quantity: 3 }] });
    // (3 × 1.0 + 1 × 0.1) / 4 = 0.775 → 0.78
    expect(result.items["parts[0]"]?.grounding).toEqual({ score: 0.78, basis: "not_found" });
    expect(result.scoredFields.find((f) => f.name === "partNumber")?.keyField).toBe(true);
  });

  it("configured keyFields replace auto-detection", () => {
    const config: ExtractionConfig = {
      validation: { properties: { parts: { keyFields: ["description"] } } },
    };
    const result = ground({ parts: [{ partNumber: "P-999", description: "Steel bolt" }] }, config);
    // partNumber is now a regular field: 0.1 not 0.0; description weighs 3: (0.1 + 3) / 4 = 0.775
    expect(result.items["parts[0]"]?.fields.partNumber).toEqual({ score: 0.1, basis: "not_found" });
    expect(result.items["parts[0]"]?.grounding.score).toBe(0.78);
  });

  it("item basis is the basis of its weakest scored field", () => {
    const result = ground({ parts: [{ a: "Steel bolt", b: "Brass_nut" }] });
    expect(result.items["parts[0]"]?.grounding).toEqual({ score: 0.95, basis: "normalized_match" });
  });

  it("an item with nothing checkable is unverifiable 0.5", () => {
    const result = ground({ parts: [{ qty: 2, ok: true }] });
    expect(result.items["parts[0]"]?.grounding).toEqual({ score: 0.5, basis: "unverifiable" });
  });

  it("root-level fields are scored without hints", () => {
    const config: ExtractionConfig = {
      validation: { properties: { vendor: { fieldHints: { vendor: { scoring: "system_assigned" } } } } },
    };
    expect(field({ vendor: "Invented Vendor" }, "vendor", config)?.basis).toBe("not_found");
  });

  it("omitted or null properties appear in neither fields nor items", () => {
    const result = ground({ vendor: null, parts: [{ partNumber: null, description: "Steel bolt" }] });
    expect(result.fields).toEqual({});
    expect(Object.keys(result.items["parts[0]"]?.fields ?? {})).toEqual(["description"]);
  });

  it("items are keyed <property>[<index>]", () => {
    const result = ground({ parts: [{ d: "Steel bolt" }, { d: "Brass nut" }] });
    expect(Object.keys(result.items)).toEqual(["parts[0]", "parts[1]"]);
    expect(result.scoredFields.map((f) => [f.key, f.pointer])).toEqual([
      ["parts[0].d", "/parts/0/d"],
      ["parts[1].d", "/parts/1/d"],
    ]);
  });

  it("items are keyed [<index>] when the schema root is an array", () => {
    const result = ground([{ d: "Steel bolt" }], undefined, { type: "array", items: { type: "object" } });
    expect(Object.keys(result.items)).toEqual(["[0]"]);
    expect(result.scoredFields[0]).toMatchObject({ key: "[0].d", pointer: "/0/d", group: "$root" });
  });

  it("an array whose schema declares object items holds items; an array of strings is a field", () => {
    const schema = {
      type: "object",
      properties: { parts: { type: "array", items: { $ref: "#/$defs/part" } } },
      $defs: { part: { type: "object" } },
    };
    const result = ground({ parts: [{ d: "Steel bolt" }], tags: ["Steel bolt"] }, undefined, schema);
    expect(Object.keys(result.items)).toEqual(["parts[0]"]);
    expect(Object.keys(result.fields)).toEqual(["tags"]);
  });

  it("field names with / and ~ are escaped in pointers", () => {
    const result = ground({ "a/b": "Steel bolt", "c~d": [{ "e/f": "Brass nut" }] });
    expect(result.scoredFields.map((f) => f.pointer)).toEqual(["/a~1b", "/c~0d/0/e~1f"]);
  });

  it("the top-level score averages every checkable field, with key weights; its basis is null", () => {
    const result = ground({
      vendor: "Acme Corporation",
      parts: [{ partNumber: "P-999", note: "Steel bolt" }],
    });
    // (1.0 + 3 × 0.0 + 1.0) / 5 = 0.4
    expect(result.grounding).toEqual({ score: 0.4, basis: null });
  });

  it("nothing scored: top-level score 1.0 and empty fields/items", () => {
    expect(ground({ a: null })).toMatchObject({
      grounding: { score: 1, basis: null },
      fields: {},
      items: {},
    });
    expect(ground("just a string").scoredFields).toEqual([]);
  });
});

describe("texts and Unicode", () => {
  it("matches across NFC and NFD forms", () => {
    const decomposed = "Cafe\u0301 Mu\u0308ller GmbH";
    const result = ground({ vendor: "Café Müller GmbH" }, undefined, {}, [decomposed]);
    expect(result.fields.vendor?.basis).toBe("exact_match");
  });

  it("non-ASCII text before a value does not disturb exact/normalized decisions", () => {
    const text = "日本語のテキスト 😀😀 Größe: Teil_Nr 42-A und Straße";
    const result = ground({ a: "Teil_Nr 42-A", b: "Teil Nr 42 A", c: "Straße" }, undefined, {}, [text]);
    expect(result.fields.a?.basis).toBe("exact_match");
    expect(result.fields.b?.basis).toBe("normalized_match");
    expect(result.fields.c?.basis).toBe("exact_match");
  });

  it("chunk texts are searched one by one; nothing matches across a boundary", () => {
    const result = ground({ a: "Steel bolt", b: "bolt Brass" }, undefined, {}, ["Steel bolt", "Brass nut"]);
    expect(result.fields.a?.basis).toBe("exact_match");
    expect(result.fields.b?.basis).not.toBe("exact_match");
  });
});
