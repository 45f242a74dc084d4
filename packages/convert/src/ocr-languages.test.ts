import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { buildTextPng, makeTempDir } from "@groundwork/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { DocumentConverter } from "./converter.js";
import { TesseractOcrEngine } from "./ocr.js";
import { availableLanguages, locateLanguage, locateLanguages } from "./ocr-languages.js";

const temp = makeTempDir("groundwork-ocr-");
const converter = new DocumentConverter({ workers: 1, ocrOptions: { cachePath: join(temp.path, "cache") } });
afterAll(async () => {
  await converter.close();
  temp.remove();
});

// Words whose accents English traineddata does not know.
const FRENCH = buildTextPng(["Voilà un été très réussi", "Noël à Besançon"], { fontSize: 48 });

async function ocrText(languages: string[]): Promise<string> {
  const result = await converter.convert([{ bytes: FRENCH, filename: "carte.png" }], {
    pipeline: "ocr",
    options: { ocrLanguages: languages },
  });
  expect(result.errors).toEqual([]);
  return result.documents[0]?.textContent ?? "";
}

describe("OCR languages beyond English, offline", () => {
  it("reads French with the installed @tesseract.js-data/fra package", async () => {
    const text = await ocrText(["fr"]);
    expect(text).toMatch(/Voilà/);
    expect(text).toMatch(/été très/);
    expect(text).toMatch(/Besançon/);
  });

  it("combines languages that come from different data packages (eng + fra)", async () => {
    const text = await ocrText(["eng", "fra"]);
    expect(text).toMatch(/été/);
    expect(text).toMatch(/Besançon/);
  });

  it("reads traineddata from a tessdataDir folder the host names, before the packages", async () => {
    const dir = join(temp.path, "tessdata");
    const packaged = locateLanguage("fra") as string;
    expect(packaged).toMatch(/@tesseract\.js-data[\\/]fra[\\/]4\.0\.0_best_int[\\/]fra\.traineddata\.gz$/);
    // The usual tessdata layout: uncompressed `<lang>.traineddata` files.
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "fra.traineddata"), gunzipSync(readFileSync(packaged)));
    expect(locateLanguage("fra", { tessdataDir: dir })).toBe(join(dir, "fra.traineddata"));
    expect(availableLanguages({ tessdataDir: dir })).toEqual(expect.arrayContaining(["eng", "fra"]));

    const engine = new TesseractOcrEngine({
      tessdataDir: dir,
      cachePath: join(temp.path, "cache"),
      poolSize: 1,
    });
    try {
      // eng from its package, fra from the folder: two sources in one recogniser.
      const { text } = await engine.recognize(FRENCH, ["fra", "eng"]);
      expect(text).toMatch(/Besançon/);
    } finally {
      await engine.close();
    }
  });

  it("fails a document whose language is not installed, naming it and how to install it", async () => {
    const result = await converter.convert([{ bytes: FRENCH, filename: "karte.png" }], {
      pipeline: "ocr",
      options: { ocrLanguages: ["de"] },
    });
    expect(result.errors).toEqual([
      expect.objectContaining({ filename: "karte.png", code: "unsupported_language" }),
    ]);
    const message = result.errors[0]?.message ?? "";
    expect(message).toMatch(/^OCR language\(s\) deu not installed; available: eng, fra/);
    expect(message).toContain("pnpm add @tesseract.js-data/deu");
    expect(message).toContain("tessdataDir");
    expect(() => locateLanguages(["../eng"])).toThrow(/not installed/);
  });
});
