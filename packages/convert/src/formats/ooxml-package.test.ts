import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { DocumentError } from "../document-error.js";
import { openOoxmlPackage } from "./ooxml-package.js";

async function zipOf(files: Record<string, string>, compression: "STORE" | "DEFLATE"): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(files)) zip.file(name, text);
  return zip.generateAsync({ type: "uint8array", compression });
}

describe("OOXML package parts through the central directory and node's inflater", () => {
  it("reads stored and deflated parts as UTF-8 text and base64, and says null for a missing part", async () => {
    for (const compression of ["STORE", "DEFLATE"] as const) {
      const pkg = await openOoxmlPackage(
        await zipOf({ "word/document.xml": "<w:document>café ✓ עברית</w:document>" }, compression),
        "DOCX",
        1024,
      );
      expect(await pkg.text("word/document.xml")).toBe("<w:document>café ✓ עברית</w:document>");
      expect(await pkg.base64("word/document.xml")).toBe(
        Buffer.from("<w:document>café ✓ עברית</w:document>").toString("base64"),
      );
      expect(await pkg.text("word/missing.xml")).toBeNull();
    }
  });

  it("refuses a part that inflates past the cap (a zip bomb) as a corrupt document", async () => {
    const pkg = await openOoxmlPackage(
      await zipOf({ "a.xml": "x".repeat(100_000) }, "DEFLATE"),
      "PPTX",
      1000,
    );
    await expect(pkg.text("a.xml")).rejects.toMatchObject({ code: "corrupt_document" });
  });

  it("says corrupt_document for bytes that are no archive, and for a damaged part", async () => {
    await expect(
      openOoxmlPackage(new TextEncoder().encode("not a zip"), "DOCX", 1024),
    ).rejects.toBeInstanceOf(DocumentError);
    const bytes = await zipOf({ "a.xml": "<a>hello hello hello hello</a>".repeat(50) }, "DEFLATE");
    // Overwrite the deflate stream just after the local header and its name.
    bytes.fill(0xff, 30 + "a.xml".length, 30 + "a.xml".length + 20);
    const pkg = await openOoxmlPackage(bytes, "DOCX", 1 << 20);
    await expect(pkg.text("a.xml")).rejects.toMatchObject({ code: "corrupt_document" });
  });
});
