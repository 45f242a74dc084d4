import { buildXlsx } from "@groundwork/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { DocumentConverter } from "../converter.js";

const converter = new DocumentConverter({ workers: 1 });
afterAll(() => converter.close());

async function xlsxToMarkdown(bytes: Uint8Array): Promise<string> {
  const result = await converter.convert([{ bytes, filename: "book.xlsx" }], {
    options: { outputFormats: ["MD"] },
  });
  expect(result.errors).toEqual([]);
  return result.documents[0]?.mdContent ?? "";
}

describe("XLSX structure", () => {
  it("a sheet is headed by its name", async () => {
    const md = await xlsxToMarkdown(buildXlsx([{ name: "Prices", rows: [["Item"], ["Bolt"]] }]));
    expect(md).toBe("## Prices\n\n| Item |\n| --- |\n| Bolt |\n");
  });
});
