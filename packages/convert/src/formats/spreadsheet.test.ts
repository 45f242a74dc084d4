import { buildOverdeclaredXlsx, buildXlsx } from "@groundwork/testkit";
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

describe("XLSX table regions", () => {
  it("blocks separated by an empty row or column become separate tables, top to bottom then left to right", async () => {
    const md = await xlsxToMarkdown(
      buildXlsx([
        {
          name: "Data",
          rows: [["Name", "Qty", "", "Code"], ["Bolt", 5, "", "A1"], [], ["Region", "Sales"], ["North", 10]],
        },
      ]),
    );
    const tables = [
      "| Name | Qty |\n| --- | --- |\n| Bolt | 5 |",
      "| Code |\n| --- |\n| A1 |",
      "| Region | Sales |\n| --- | --- |\n| North | 10 |",
    ];
    expect(md).toBe(`## Data\n\n${tables.join("\n\n")}\n`);
  });
});

describe("XLSX limits count real cells", () => {
  it("converts a sheet whose declared range is the whole grid but which holds two cells", async () => {
    const md = await xlsxToMarkdown(await buildOverdeclaredXlsx("A1:XFD1048576"));
    expect(md).toBe("## Wide\n\n| Name |\n| --- |\n| Bolt |\n");
  });

  it("converts a sheet whose declared range passes the cell cap but not the row cap", async () => {
    const md = await xlsxToMarkdown(await buildOverdeclaredXlsx("A1:Z99999"));
    expect(md).toBe("## Wide\n\n| Name |\n| --- |\n| Bolt |\n");
  });
});
