import type { ConversionService } from "@groundwork/platform";
import { buildTextPng } from "@groundwork/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { b64, conversionApp, json } from "../../../test/convert-test-support.js";
import { bearer, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import type { App } from "../../app.js";

let tenant: TestTenant;
let app: App;
let service: ConversionService;

beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  ({ app, service } = conversionApp(tenant.store, { workers: { leaseMs: 2000, pollMs: 20 } }));
});
afterEach(async () => {
  await service.stopWorker();
  await tenant.store.close();
});

function post(path: string, body: unknown) {
  return app.request(path, {
    method: "POST",
    headers: { ...bearer(tenant.keys.member), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function upload(path: string, options: unknown) {
  const form = new FormData();
  form.append("files", new Blob([buildTextPng("x")], { type: "image/png" }), "scan.png");
  form.append("pipeline", "ocr");
  form.append("options", new Blob([JSON.stringify(options)], { type: "application/json" }));
  return app.request(path, { method: "POST", headers: bearer(tenant.keys.member), body: form });
}

const png = b64(buildTextPng("Order 77"));
const source = (options: Record<string, unknown>) => ({
  sources: [{ kind: "base64", content: png, filename: "scan.png" }],
  options: { pipeline: "ocr", options },
});

describe("ocrEngine", () => {
  it.each([
    ["easyocr", '"easyocr"'],
    ["auto", '"auto"'],
    ["tesseract.js", '"tesseract.js"'],
    ["", '""'],
    [7, "a number"],
    [null, "a null"],
  ])("answers 400 for %j, naming it and listing the engines this server runs", async (engine, shown) => {
    for (const path of ["/v1/convert/source", "/v1/convert/source/async"]) {
      const response = await post(path, source({ ocrEngine: engine }));
      expect(response.status).toBe(400);
      expect((await json(response)).error).toEqual({
        message: `options.options.ocrEngine: OCR engine ${shown} is not supported; this server runs: tesseract`,
        type: "invalid_request_error",
        param: "options.options.ocrEngine",
        code: "invalid_request",
      });
    }
  });

  it("answers 400 on the file endpoints too, naming the options part's field", async () => {
    for (const path of ["/v1/convert/file", "/v1/convert/file/async"]) {
      const response = await upload(path, { ocrEngine: "easyocr" });
      expect(response.status).toBe(400);
      expect((await json(response)).error).toMatchObject({
        type: "invalid_request_error",
        code: "invalid_request",
        param: "options.ocrEngine",
        message: expect.stringContaining(
          'OCR engine "easyocr" is not supported; this server runs: tesseract',
        ),
      });
    }
  });

  it("accepts tesseract in any case", async () => {
    const response = await post("/v1/convert/source", source({ ocrEngine: "Tesseract" }));
    expect(response.status).toBe(200);
    const [document] = (await json(response)).documents;
    expect(document.metadata).toMatchObject({ ocrEngine: "tesseract" });
    expect(document.textContent).toMatch(/Order 77/);
  });
});

describe("pdfBackend, tableStructure, pictureClassification", () => {
  it("are accepted, not applied, and the documents say so", async () => {
    const response = await post(
      "/v1/convert/source",
      source({ pdfBackend: "dlparser", tableStructure: true, pictureClassification: true }),
    );
    expect(response.status).toBe(200);
    const [document] = (await json(response)).documents;
    expect(document.metadata.notes).toEqual([
      expect.stringMatching(/^pdfBackend "dlparser" was ignored/),
      expect.stringMatching(/^tableStructure was ignored/),
      expect.stringMatching(/^pictureClassification was ignored/),
    ]);
  });

  it.each([
    [{ pdfBackend: 5 }, "options.options.pdfBackend"],
    [{ pdfBackend: "x".repeat(65) }, "options.options.pdfBackend"],
    [{ tableStructure: "yes" }, "options.options.tableStructure"],
    [{ pictureClassification: 1 }, "options.options.pictureClassification"],
  ])("answer 400 for a value of the wrong kind %#", async (options, param) => {
    const response = await post("/v1/convert/source", source(options));
    expect(response.status).toBe(400);
    expect((await json(response)).error).toMatchObject({
      type: "invalid_request_error",
      code: "invalid_request",
      param,
    });
  });
});

describe("ocrLanguages", () => {
  it("reads French with installed traineddata, offline", async () => {
    const french = b64(buildTextPng(["Voilà un été très réussi"], { fontSize: 48 }));
    const response = await post("/v1/convert/source", {
      sources: [{ kind: "base64", content: french, filename: "carte.png" }],
      options: { pipeline: "ocr", options: { ocrLanguages: ["fra"] } },
    });
    expect(response.status).toBe(200);
    expect((await json(response)).documents[0].textContent).toMatch(/Voilà un été très/);
  });

  it("fails a document whose language is not installed with how to install it", async () => {
    const response = await post("/v1/convert/source", source({ ocrLanguages: ["deu"] }));
    expect(response.status).toBe(422);
    expect((await json(response)).errors[0]).toMatchObject({
      filename: "scan.png",
      code: "unsupported_language",
      message: expect.stringContaining("pnpm add @tesseract.js-data/deu"),
    });
  });
});
