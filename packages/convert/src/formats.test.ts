import {
  buildCsv,
  buildDocx,
  buildDwgHeader,
  buildDxf,
  buildEml,
  buildGeo,
  buildHtml,
  buildMarkdown,
  buildMsg,
  buildPdf,
  buildPptx,
  buildStep,
  buildTextPng,
  buildTxt,
  buildXlsx,
  buildZip,
} from "@groundwork/testkit";
import { describe, expect, it } from "vitest";
import { detectFormat } from "./formats.js";
import { ooxmlKindOf } from "./zip-directory.js";

describe("format detection", () => {
  it.each([
    ["pdf", () => buildPdf([{ lines: [{ text: "x" }] }]), "a.bin", undefined],
    ["docx", () => buildDocx([{ paragraph: "x" }]), "upload", undefined],
    ["xlsx", () => buildXlsx([{ name: "S", rows: [["a"]] }]), "upload", undefined],
    ["pptx", () => buildPptx([{ title: "x" }]), "upload", undefined],
    ["zip", () => buildZip([{ name: "a.txt", content: "a" }]), "upload", undefined],
    ["msg", () => buildMsg({ subject: "s" }), "upload", undefined],
    ["eml", () => buildEml({ subject: "s", text: "t" }), "upload", undefined],
    ["image", () => buildTextPng("x"), "upload", undefined],
    ["dxf", () => buildDxf(), "upload", undefined],
    ["geo", () => buildGeo(), "upload", undefined],
    ["step", () => buildStep(), "upload", undefined],
    ["dwg", () => buildDwgHeader(), "upload", undefined],
    ["html", () => buildHtml(), "upload", undefined],
    ["markdown", () => buildMarkdown(), "notes.md", undefined],
    ["csv", () => buildCsv(), "upload", "text/csv"],
    ["txt", () => buildTxt(), "upload", undefined],
  ] as const)("recognises %s", async (format, build, filename, mime) => {
    const bytes = await build();
    expect(detectFormat(bytes, filename, mime, ooxmlKindOf).format).toBe(format);
  });

  it("trusts the bytes over a contradicting declaration and says so", () => {
    const pdf = buildPdf([{ lines: [{ text: "x" }] }]);
    const detection = detectFormat(pdf, "report.docx", "text/plain", ooxmlKindOf);
    expect(detection).toMatchObject({ format: "pdf", detectedBy: "magic", mismatch: true, declared: "txt" });
  });

  it("refuses text that claims to be a binary format", () => {
    expect(() => detectFormat(buildTxt(), "scan.pdf", undefined, ooxmlKindOf)).toThrow(/mislabelled/);
  });

  it("refuses unknown binary content", () => {
    const bytes = new Uint8Array(64).map((_, i) => (i * 7) % 256);
    expect(() => detectFormat(bytes, "blob.bin", undefined, ooxmlKindOf)).toThrow(/Unrecognised binary/);
  });
});
