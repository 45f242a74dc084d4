import { describe, expect, it } from "vitest";
import { finishChunked } from "./extraction-engine.js";
import { itemArraysOf } from "./item-arrays.js";
import { mergeChunkOutputs } from "./merge.js";

const invoiceSchema = {
  type: "object",
  properties: {
    invoice: {
      type: "object",
      properties: {
        number: { type: "string" },
        lineItems: { $ref: "#/$defs/lines" },
      },
    },
    tags: { type: "array", items: { type: "string" } },
  },
  $defs: {
    lines: {
      type: "array",
      items: {
        type: "object",
        properties: {
          position: { type: "integer" },
          sku: { type: "string" },
          description: { type: ["string", "null"] },
        },
      },
    },
  },
};

describe("item arrays", () => {
  it("finds arrays in nested objects by dotted path, with the item schema behind a $ref", () => {
    const output = { invoice: { number: "INV-1", lineItems: [{ sku: "A-1" }] }, tags: ["x"] };
    const arrays = itemArraysOf(invoiceSchema, output, null);
    expect(arrays.map((array) => array.property).sort()).toEqual(["invoice.lineItems", "tags"]);
    const lines = arrays.find((array) => array.property === "invoice.lineItems");
    expect(lines?.keyFields).toContain("sku");
    lines?.replace([]);
    expect(output.invoice.lineItems).toEqual([]);
  });

  it("does not enter the arrays inside items (they are the items' own fields)", () => {
    const output = { orders: [{ id: "o-1", lines: [{ sku: "A" }, { sku: "A" }] }] };
    expect(itemArraysOf({}, output, null).map((array) => array.property)).toEqual(["orders"]);
  });

  it("a chunked run deduplicates, validates and resequences an array inside a nested object", () => {
    const chunks = [
      { text: "Invoice INV-1. 1 A-1 Widget. 2 B-7 Gadget." },
      { text: "Overlap: 2 B-7 Gadget. 3 C-9 Bolt." },
    ];
    const merged = mergeChunkOutputs([
      {
        invoice: {
          number: "INV-1",
          lineItems: [
            { position: 1, sku: "A-1", description: "Widget" },
            { position: 2, sku: "B-7", description: null },
          ],
        },
      },
      {
        invoice: {
          lineItems: [
            { position: 2, sku: "B-7", description: "Gadget" },
            { position: 4, sku: "C-9", description: "Bolt" },
            { position: 5, sku: "ZZ-404", description: "Invented" },
          ],
        },
      },
    ]);
    const config = { validation: { properties: { "invoice.lineItems": { keyFields: ["sku"] } } } };
    const result = finishChunked({ jsonSchema: invoiceSchema, extractionConfig: config }, merged, chunks);
    expect(result.structuredOutput).toEqual({
      invoice: {
        number: "INV-1",
        lineItems: [
          { position: 1, sku: "A-1", description: "Widget" },
          { position: 2, sku: "B-7", description: "Gadget" },
          { position: 3, sku: "C-9", description: "Bolt" },
        ],
      },
    });
    expect(result.resultMetadata.dedup).toMatchObject({
      applied: true,
      itemsMerged: 1,
      resequenced: true,
      originalItemCount: 5,
      finalItemCount: 4,
    });
    expect(result.resultMetadata.postValidation).toMatchObject({
      hallucinatedItemsRemoved: 1,
      removedItemKeys: ["ZZ-404"],
    });
  });
});
