import {
  buildCsv,
  buildDocx,
  buildHugeXlsx,
  buildLyingZipBomb,
  buildNestedZip,
  buildPdf,
  buildSparseHugeXlsx,
  buildTextPdf,
  buildTxt,
  buildWideZip,
  buildZip,
  buildZipBomb,
} from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentConverter } from "./converter.js";

const converter = new DocumentConverter({
  limits: { maxSheetRows: 1000, maxExpandedBytes: 8 * 1024 * 1024, maxNestingDepth: 4 },
});
afterAll(() => converter.close());

let bomb: Uint8Array;
beforeAll(async () => {
  bomb = await buildZipBomb(32);
});

const good = () => ({ bytes: buildTxt(), filename: "good.txt" });

describe("bad input fails one document, never the batch", () => {
  it.each([
    [
      "a truncated PDF",
      () => buildPdf([{ lines: [{ text: "x" }] }]).slice(0, 60),
      "broken.pdf",
      "corrupt_document",
    ],
    [
      "a DOCX that is a zip without document.xml",
      () => buildZip([{ name: "word/other.xml", content: "<x/>" }]),
      "bad.docx",
      null,
    ],
    [
      "random bytes named .xlsx",
      () => new Uint8Array(512).map((_, i) => (i * 131) % 251),
      "data.xlsx",
      "corrupt_document",
    ],
    [
      "an unknown binary type",
      () => new Uint8Array([0, 1, 2, 3, 255, 254, 0, 7, 9, 0, 0, 1]),
      "thing.bin",
      "unsupported_format",
    ],
    ["an empty file", () => new Uint8Array(0), "empty.pdf", "corrupt_document"],
  ] as const)("%s", async (_, build, filename, code) => {
    const result = await converter.convert([{ bytes: await build(), filename }, good()]);
    expect(result.status).toBe("PARTIAL_SUCCESS");
    expect(result.documents.map((d) => d.filename)).toEqual(["good.txt"]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.filename).toBe(filename);
    if (code !== null) expect(result.errors[0]?.code).toBe(code);
    expect(result.errors[0]?.message.length).toBeGreaterThan(10);
  });

  it("refuses a zip bomb by its compression ratio before inflating", async () => {
    const result = await converter.convert([{ bytes: bomb, filename: "bomb.zip" }, good()]);
    expect(result.errors[0]).toMatchObject({ filename: "bomb.zip", code: "limit_exceeded" });
    expect(result.errors[0]?.message).toMatch(/ratio|expands/);
    expect(result.documents).toHaveLength(1);
  });

  it("stops a bomb whose headers lie about its size by counting inflated bytes", async () => {
    const liar = await buildLyingZipBomb(32, 1000);
    const result = await converter.convert([{ bytes: liar, filename: "liar.zip" }, good()]);
    expect(result.errors[0]).toMatchObject({ filename: "liar.zip", code: "limit_exceeded" });
    expect(result.errors[0]?.message).toMatch(/inflates past/);
    expect(result.documents.map((d) => d.filename)).toEqual(["good.txt"]);
  });

  it("converts a sparse sheet whose used range passes the default row cap: the caps count real cells", async () => {
    const defaults = new DocumentConverter();
    try {
      const result = await defaults.convert(
        [{ bytes: buildSparseHugeXlsx(150_000), filename: "sparse.xlsx" }, good()],
        { options: { outputFormats: ["MD"] } },
      );
      expect(result.errors).toEqual([]);
      expect(result.documents[0]?.mdContent).toBe(
        "## Sparse\n\n| Header |\n| --- |\n\n| Far away |\n| --- |\n",
      );
    } finally {
      await defaults.close();
    }
  });

  it("caps the total bytes expanded from one archive", async () => {
    const wide = await buildWideZip(12, 1024 * 1024); // 12 MiB total, each entry only mildly compressible
    const result = await converter.convert([{ bytes: wide, filename: "wide.zip" }, good()]);
    expect(result.errors[0]).toMatchObject({ filename: "wide.zip", code: "limit_exceeded" });
    expect(result.errors[0]?.message).toMatch(/expanded content/);
  });

  it("stops at the nesting cap but keeps what lies above it", async () => {
    const nested = await buildNestedZip(7);
    const result = await converter.convert([{ bytes: nested, filename: "deep.zip" }, good()]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.code).toBe("limit_exceeded");
    expect(result.errors[0]?.filename).toBe("deep.zip/level-2.zip/level-3.zip/level-4.zip/level-5.zip");
    expect(result.errors[0]?.message).toMatch(/nested deeper than 4/);
    expect(result.status).toBe("PARTIAL_SUCCESS");
  });

  it("refuses a sheet larger than the row cap", async () => {
    const result = await converter.convert([{ bytes: buildHugeXlsx(1500), filename: "huge.xlsx" }, good()]);
    expect(result.errors[0]).toMatchObject({ filename: "huge.xlsx", code: "limit_exceeded" });
    expect(result.errors[0]?.message).toMatch(/1500 rows; at most 1000/);
  });

  it("enforces the per-document timeout and recovers for the next document", async () => {
    const slow = buildTextPdf(150);
    const result = await converter.convert([{ bytes: slow, filename: "slow.pdf" }, good()], {
      timeout: 0.05,
    });
    expect(result.errors[0]).toMatchObject({ filename: "slow.pdf", code: "timeout" });

    expect(result.errors[0]?.message).toMatch(/0.05 s/);
    expect(result.documents.map((d) => d.filename)).toEqual(["good.txt"]);
  });

  it("abortOnError stops the batch at the first error and reports FAILURE", async () => {
    const docx = await buildDocx([{ paragraph: "never reached" }]);
    const result = await converter.convert(
      [
        good(),
        { bytes: new Uint8Array([1, 2, 3, 0]), filename: "x.bin" },
        { bytes: docx, filename: "late.docx" },
      ],
      { abortOnError: true },
    );
    expect(result.status).toBe("FAILURE");
    expect(result.documents.map((d) => d.filename)).toEqual(["good.txt"]);
    expect(result.errors.map((e) => e.filename)).toEqual(["x.bin"]);
  });

  it("reports FAILURE when every document fails and SUCCESS when none does", async () => {
    const failed = await converter.convert([{ bytes: new Uint8Array([0, 0, 0, 1]), filename: "a.bin" }]);
    expect(failed.status).toBe("FAILURE");
    const ok = await converter.convert([{ bytes: buildCsv(), filename: "a.csv" }], {
      extractMetadata: false,
    });
    expect(ok.status).toBe("SUCCESS");
    expect(ok.documents[0]?.metadata).toBeUndefined();
    expect(typeof ok.processingTime).toBe("number");
  });

  it("a loader failure (e.g. a refused URL) is a per-document error", async () => {
    const result = await converter.convert([
      {
        filename: "https://example.invalid/a.pdf",
        load: async () => {
          const { DocumentError } = await import("./document-error.js");
          throw new DocumentError("fetch_failed", "The source answered 404");
        },
      },
      good(),
    ]);
    expect(result.errors[0]).toMatchObject({
      code: "fetch_failed",
      filename: "https://example.invalid/a.pdf",
    });
  });

  it("cancellation of the whole batch rejects the call", async () => {
    const controller = new AbortController();
    const pending = converter.convert(
      [{ bytes: buildTextPdf(200), filename: "big.pdf" }],
      {},
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error("canceled by test")), 20);
    await expect(pending).rejects.toThrow("canceled by test");
  });
});
