import { describe, expect, it } from "vitest";
import { detectKeyFields, fieldNameWords, isKeyFieldName } from "./key-fields.js";

describe("key-field auto-detection", () => {
  it("splits names into words", () => {
    expect(fieldNameWords("partNumber")).toEqual(["part", "number"]);
    expect(fieldNameWords("file_name")).toEqual(["file", "name"]);
    expect(fieldNameWords("HTTPUrl")).toEqual(["http", "url"]);
    expect(fieldNameWords("vat-ID")).toEqual(["vat", "id"]);
  });

  it.each([
    "id",
    "ID",
    "uuid",
    "vatId",
    "customer_id",
    "sku",
    "name",
    "fileName",
    "filename",
    "sourceFile",
    "filePath",
    "partNumber",
    "invoiceNo",
    "orderNumber",
    "productCode",
    "reference",
    "title",
    "vendorName",
  ])("%s is an identifier", (name) => {
    expect(isKeyFieldName(name)).toBe(true);
  });

  it.each([
    "description",
    "quantity",
    "price",
    "number",
    "nr",
    "pos",
    "lineNumber",
    "itemNo",
    "pageNr",
    "sequenceNumber",
    "countryCode",
    "currencyCode",
    "code",
    "paid",
  ])("%s is not an identifier", (name) => {
    expect(isKeyFieldName(name)).toBe(false);
  });

  it("reads an item schema's properties, skipping fields typed only boolean, array or object", () => {
    const schema = {
      type: "object",
      properties: {
        partNumber: { type: "string" },
        name: { type: ["string", "null"] },
        fileId: { type: "object" },
        description: { type: "string" },
      },
    };
    expect(detectKeyFields(schema)).toEqual(["partNumber", "name"]);
  });

  it("reads a sample item when given one", () => {
    expect(detectKeyFields({ partNumber: "P-1", quantity: 2, name: null, tagsId: ["x"] })).toEqual([
      "partNumber",
      "name",
    ]);
  });

  it("anything else has no key fields", () => {
    expect(detectKeyFields(null)).toEqual([]);
    expect(detectKeyFields(["id"])).toEqual([]);
  });
});
