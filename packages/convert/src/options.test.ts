import { buildTextPng, buildTxt } from "@groundwork/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { DocumentConverter } from "./converter.js";
import { type OcrEngineName, resolveOptions } from "./options.js";

const converter = new DocumentConverter({ workers: 1 });
afterAll(() => converter.close());

describe("ocrEngine", () => {
  it("accepts tesseract in any case", () => {
    expect(() => resolveOptions({ options: { ocrEngine: "tesseract" } })).not.toThrow();
    expect(() => resolveOptions({ options: { ocrEngine: "Tesseract" as OcrEngineName } })).not.toThrow();
  });

  it("refuses other engines before any document is read, listing the supported one", async () => {
    await expect(
      converter.convert([{ bytes: buildTxt(), filename: "a.txt" }], {
        options: { ocrEngine: "easyocr" as OcrEngineName },
      }),
    ).rejects.toThrow(new RangeError('OCR engine "easyocr" is not supported; this server runs: tesseract'));
  });
});

describe("pdfBackend, tableStructure, pictureClassification", () => {
  it("are accepted and not applied; ocr and vlm documents say so in their notes", async () => {
    const result = await converter.convert([{ bytes: buildTextPng("Order 77"), filename: "scan.png" }], {
      pipeline: "ocr",
      options: { pdfBackend: "dlparser", tableStructure: true, pictureClassification: false },
    });
    expect(result.errors).toEqual([]);
    expect(result.documents[0]?.metadata?.notes).toEqual([
      'pdfBackend "dlparser" was ignored: pdf.js is the only PDF backend here',
      "tableStructure was ignored: tables come from the document's own structure; no table-structure model runs on page images",
      "pictureClassification was ignored: no picture classifier is available",
    ]);
  });

  it("leave fast documents, which never use them, without notes", async () => {
    const result = await converter.convert([{ bytes: buildTxt(), filename: "a.txt" }], {
      options: { pdfBackend: "pypdfium2", tableStructure: false },
    });
    expect(result.documents[0]?.metadata?.notes).toBeUndefined();
  });
});
