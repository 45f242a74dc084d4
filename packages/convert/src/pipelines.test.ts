import type { ChatCompletion, ChatModel, ChatRequest } from "@groundwork/core";
import {
  buildAsciidoc,
  buildDocx,
  buildPdf,
  buildTextPng,
  buildTextRgb,
  buildTxt,
} from "@groundwork/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { DocumentConverter } from "./converter.js";

const converter = new DocumentConverter();
afterAll(() => converter.close());

/** A vision model stand-in: answers with Markdown that names what it was sent. */
class RecordingVisionModel implements ChatModel {
  readonly requests: ChatRequest[] = [];
  async complete(request: ChatRequest): Promise<ChatCompletion> {
    this.requests.push(request);
    const parts = request.messages[0]?.content;
    const image = Array.isArray(parts) ? parts.find((part) => part.type === "image_url") : undefined;
    const url = image?.type === "image_url" ? image.image_url.url : "";
    return {
      id: `cmpl-${this.requests.length}`,
      object: "chat.completion",
      created: 0,
      model: request.model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: `\`\`\`markdown\n# Page ${this.requests.length}\n\n| Field | Value |\n| --- | --- |\n| bytes | ${url.length} |\n\`\`\``,
          },
          finish_reason: "stop",
        },
      ],
    };
  }
  // biome-ignore lint/correctness/useYield: streaming is not used by the vlm pipeline
  async *stream(): AsyncIterable<never> {
    throw new Error("not used");
  }
}

describe("ocr pipeline", () => {
  it("reads text from a generated PNG", async () => {
    const png = buildTextPng(["Invoice INV-2024-001", "Total 1250 EUR"]);
    const result = await converter.convert([{ bytes: png, filename: "scan.png" }], { pipeline: "ocr" });
    expect(result.errors).toEqual([]);
    const document = result.documents[0];
    expect(document?.textContent).toMatch(/Invoice INV-2024-001/);
    expect(document?.textContent).toMatch(/1250/);
    expect(document?.mdContent).toContain("<!-- image -->");
    expect(document?.metadata).toMatchObject({ format: "image", pipeline: "ocr", ocrEngine: "tesseract" });
  });

  it("embeds the picture with imageExportMode embedded", async () => {
    const png = buildTextPng("Embedded picture");
    const result = await converter.convert([{ bytes: png, filename: "pic.png" }], {
      pipeline: "ocr",
      options: { imageExportMode: "embedded" },
    });
    expect(result.documents[0]?.mdContent).toMatch(/!\[image\]\(data:image\/png;base64,/);
  });

  it("renders a scanned PDF page and OCRs it, keeping text-layer pages as they are", async () => {
    const pdf = buildPdf([
      { lines: [{ text: "Cover page with a text layer", size: 14 }] },
      { image: buildTextRgb(["Scanned Delivery Note 4711"], { width: 900, fontSize: 48 }) },
    ]);
    const result = await converter.convert([{ bytes: pdf, filename: "mixed.pdf" }], { pipeline: "ocr" });
    expect(result.errors).toEqual([]);
    const text = result.documents[0]?.textContent ?? "";
    expect(text).toContain("Cover page with a text layer");
    expect(text).toMatch(/Delivery Note 4711/);
    expect(text.indexOf("Cover page")).toBeLessThan(text.indexOf("4711"));
    expect(result.documents[0]?.metadata).toMatchObject({ ocrPages: 1 });
  });

  it("OCRs pictures embedded in HTML (and DOCX/PPTX) documents", async () => {
    const png = Buffer.from(buildTextPng("Embedded Receipt 5521")).toString("base64");
    const html = `<html><body><h1>Expense report</h1><img alt="receipt" src="data:image/png;base64,${png}"></body></html>`;
    const result = await converter.convert(
      [{ bytes: new TextEncoder().encode(html), filename: "report.html" }],
      {
        pipeline: "ocr",
      },
    );
    expect(result.errors).toEqual([]);
    const md = result.documents[0]?.mdContent ?? "";
    expect(md).toContain("# Expense report");
    expect(md).toMatch(/<!-- image -->\n\nEmbedded Receipt 5521/);
    expect(md).not.toContain("base64"); // placeholder mode: the picture itself is not exported
  });

  it("cancels OCR that outlives the document timeout and keeps serving the next document", async () => {
    const big = buildTextPng(
      Array.from({ length: 12 }, (_, i) => `Line ${i} of a long scanned page`),
      { width: 1600 },
    );
    const result = await converter.convert(
      [
        { bytes: big, filename: "slow.png" },
        { bytes: buildTxt(), filename: "after.txt" },
      ],
      { pipeline: "ocr", timeout: 0.05 },
    );
    expect(result.errors[0]).toMatchObject({ filename: "slow.png", code: "timeout" });
    const next = await converter.convert([{ bytes: buildTextPng("Recovered 42"), filename: "ok.png" }], {
      pipeline: "ocr",
    });
    expect(next.documents[0]?.textContent).toMatch(/Recovered 42/);
  });

  it("fails a document whose OCR language is not installed", async () => {
    const result = await converter.convert([{ bytes: buildTextPng("x"), filename: "x.png" }], {
      pipeline: "ocr",
      options: { ocrLanguages: ["klingon"] },
    });
    expect(result.errors[0]).toMatchObject({ code: "unsupported_language", filename: "x.png" });
    expect(result.status).toBe("FAILURE");
  });
});

describe("vlm pipeline", () => {
  it("sends rendered PDF pages to the vision model and reads its Markdown", async () => {
    const model = new RecordingVisionModel();
    const pdf = buildPdf([
      { lines: [{ text: "Page one" }] },
      { lines: [{ text: "Page two" }] },
      { lines: [{ text: "Three" }] },
    ]);
    const result = await converter.convert(
      [{ bytes: pdf, filename: "form.pdf" }],
      { pipeline: "vlm", options: { maxPages: 2, outputFormats: ["MD", "JSON"] } },
      { vision: { chatModel: model, model: "vision-test-1" } },
    );
    expect(result.errors).toEqual([]);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]?.model).toBe("vision-test-1");
    const md = result.documents[0]?.mdContent ?? "";
    expect(md).toContain("# Page 1");
    expect(md).toContain("# Page 2");
    expect(md).not.toContain("# Page 3");
    expect(md).toMatch(/\| bytes \| \d{4,} \|/); // a real PNG data URL went out
    expect(result.documents[0]?.metadata).toMatchObject({ visionModel: "vision-test-1" });
  });

  it("sends an image as is", async () => {
    const model = new RecordingVisionModel();
    const result = await converter.convert(
      [{ bytes: buildTextPng("hello"), filename: "photo.png" }],
      { pipeline: "vlm" },
      { vision: { chatModel: model, model: "vision-test-1" } },
    );
    expect(result.errors).toEqual([]);
    expect(result.documents[0]?.textContent).toContain("Page 1");
  });

  it("fails the document clearly when no vision model is configured", async () => {
    const result = await converter.convert([{ bytes: buildTextPng("x"), filename: "x.png" }], {
      pipeline: "vlm",
    });
    expect(result.status).toBe("FAILURE");
    expect(result.errors[0]).toMatchObject({ code: "vlm_unavailable", pipeline: "vlm", format: "image" });
    expect(result.errors[0]?.message).toMatch(/vision model/);
  });
});

describe("pipeline matrix", () => {
  it("refuses TXT with ocr, naming the supported pipelines, while the batch continues", async () => {
    const docx = await buildDocx([{ paragraph: "Still converted" }]);
    const result = await converter.convert(
      [
        { bytes: buildTxt(), filename: "notes.txt" },
        { bytes: docx, filename: "b.docx" },
      ],
      { pipeline: "ocr" },
    );
    expect(result.status).toBe("PARTIAL_SUCCESS");
    expect(result.errors).toEqual([
      {
        filename: "notes.txt",
        code: "unsupported_pipeline",
        message: 'TXT documents support the fast pipeline; "ocr" was requested',
        pipeline: "ocr",
        format: "txt",
      },
    ]);
    expect(result.documents[0]?.textContent).toContain("Still converted");
  });

  it("refuses images and AsciiDoc with fast", async () => {
    const result = await converter.convert(
      [
        { bytes: buildTextPng("x"), filename: "x.png" },
        { bytes: buildAsciidoc(), filename: "m.adoc" },
      ],
      { pipeline: "fast" },
    );
    expect(result.errors.map((e) => [e.code, e.message])).toEqual([
      ["unsupported_pipeline", 'Image documents support the ocr, vlm pipelines; "fast" was requested'],
      ["unsupported_pipeline", 'AsciiDoc documents support the ocr, vlm pipelines; "fast" was requested'],
    ]);
    expect(result.status).toBe("FAILURE");
  });
});
