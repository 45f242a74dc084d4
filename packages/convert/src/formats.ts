/**
 * Input formats, the pipeline matrix (spec document 1, "Input formats and pipeline
 * support") and format detection: magic bytes first, then the declared media type,
 * then the file name. A declaration that contradicts the bytes is not trusted.
 */
import { DocumentError } from "./document-error.js";

export const INPUT_FORMATS = [
  "pdf",
  "docx",
  "xlsx",
  "pptx",
  "html",
  "markdown",
  "csv",
  "txt",
  "msg",
  "eml",
  "zip",
  "image",
  "asciidoc",
  "dxf",
  "geo",
  "dwg",
  "step",
] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

export const PIPELINES = ["fast", "ocr", "vlm"] as const;
export type Pipeline = (typeof PIPELINES)[number];

/** The spec's matrix; DWG and STEP (matrix not shown there) are read by `fast` only. */
export const PIPELINE_SUPPORT: Readonly<Record<InputFormat, readonly Pipeline[]>> = {
  pdf: ["fast", "ocr", "vlm"],
  docx: ["fast", "ocr", "vlm"],
  xlsx: ["fast", "ocr", "vlm"],
  pptx: ["fast", "ocr", "vlm"],
  html: ["fast", "ocr", "vlm"],
  markdown: ["fast", "ocr", "vlm"],
  csv: ["fast", "ocr", "vlm"],
  txt: ["fast"],
  msg: ["fast"],
  eml: ["fast"],
  zip: ["fast"],
  image: ["ocr", "vlm"],
  asciidoc: ["ocr", "vlm"],
  dxf: ["fast"],
  geo: ["fast"],
  dwg: ["fast"],
  step: ["fast"],
};

export const FORMAT_LABELS: Readonly<Record<InputFormat, string>> = {
  pdf: "PDF",
  docx: "DOCX",
  xlsx: "XLSX",
  pptx: "PPTX",
  html: "HTML",
  markdown: "Markdown",
  csv: "CSV",
  txt: "TXT",
  msg: "MSG",
  eml: "EML",
  zip: "ZIP",
  image: "Image",
  asciidoc: "AsciiDoc",
  dxf: "DXF",
  geo: "GEO",
  dwg: "DWG",
  step: "STEP",
};

export const FORMAT_MEDIA_TYPES: Readonly<Record<InputFormat, string>> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  html: "text/html",
  markdown: "text/markdown",
  csv: "text/csv",
  txt: "text/plain",
  msg: "application/vnd.ms-outlook",
  eml: "message/rfc822",
  zip: "application/zip",
  image: "image/*",
  asciidoc: "text/asciidoc",
  dxf: "image/vnd.dxf",
  geo: "application/vnd.trumpf.geo",
  dwg: "image/vnd.dwg",
  step: "model/step",
};

const MEDIA_TYPE_FORMATS: Record<string, InputFormat> = {
  "application/pdf": "pdf",
  "application/x-pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
  "text/html": "html",
  "application/xhtml+xml": "html",
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "text/csv": "csv",
  "application/csv": "csv",
  "text/plain": "txt",
  "application/vnd.ms-outlook": "msg",
  "message/rfc822": "eml",
  "application/zip": "zip",
  "application/x-zip-compressed": "zip",
  "text/asciidoc": "asciidoc",
  "text/x-asciidoc": "asciidoc",
  "image/vnd.dxf": "dxf",
  "application/dxf": "dxf",
  "image/x-dxf": "dxf",
  "application/vnd.trumpf.geo": "geo",
  "image/vnd.dwg": "dwg",
  "application/acad": "dwg",
  "image/x-dwg": "dwg",
  "model/step": "step",
  "application/step": "step",
  "model/step+zip": "step",
};

const EXTENSION_FORMATS: Record<string, InputFormat> = {
  pdf: "pdf",
  docx: "docx",
  xlsx: "xlsx",
  xlsm: "xlsx",
  pptx: "pptx",
  html: "html",
  htm: "html",
  xhtml: "html",
  md: "markdown",
  markdown: "markdown",
  csv: "csv",
  txt: "txt",
  text: "txt",
  log: "txt",
  msg: "msg",
  eml: "eml",
  zip: "zip",
  png: "image",
  jpg: "image",
  jpeg: "image",
  gif: "image",
  bmp: "image",
  tif: "image",
  tiff: "image",
  webp: "image",
  adoc: "asciidoc",
  asciidoc: "asciidoc",
  asc: "asciidoc",
  dxf: "dxf",
  geo: "geo",
  dwg: "dwg",
  stp: "step",
  step: "step",
  p21: "step",
};

/** Formats the bytes alone identify (binary signatures). */
type MagicFormat = "pdf" | "ooxml-zip" | "zip" | "ole" | "image" | "dwg" | "step";

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  return signature.every((byte, i) => bytes[offset + i] === byte);
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

export function imageMimeType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return "image/gif";
  if (ascii(bytes, 0, 2) === "BM" && bytes.length > 26) return "image/bmp";
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return "image/tiff";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return "image/webp";
  return null;
}

function magicFormat(bytes: Uint8Array): MagicFormat | null {
  // PDF allows up to 1 KiB of junk before the header.
  const head = ascii(bytes, 0, Math.min(bytes.length, 1024));
  if (head.startsWith("%PDF-") || head.slice(0, 1024).includes("%PDF-")) return "pdf";
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return head.includes("[Content_Types].xml") ||
      head.includes("word/") ||
      head.includes("xl/") ||
      head.includes("ppt/")
      ? "ooxml-zip"
      : "zip";
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return "ole";
  if (imageMimeType(bytes) !== null) return "image";
  if (/^AC10\d\d/.test(head)) return "dwg";
  if (head.startsWith("ISO-10303-21;")) return "step";
  return null;
}

/** Text-based formats recognisable from their first lines. */
function sniffText(bytes: Uint8Array): InputFormat | null {
  const head = ascii(bytes, 0, Math.min(bytes.length, 4096)).replace(/^\ufeff|^\xef\xbb\xbf/, "");
  if (/^\s*0\r?\n\s*SECTION\r?\n/.test(head)) return "dxf";
  if (/^#~1\r?\n/.test(head)) return "geo";
  if (/^\s*(<!doctype html|<html[\s>])/i.test(head)) return "html";
  const headerLines = head.split(/\r?\n/).slice(0, 30);
  const mailHeaders = headerLines.filter((line) =>
    /^(from|to|subject|date|message-id|mime-version|received|return-path|content-type):/i.test(line),
  );
  if (mailHeaders.length >= 3 && /^[\w-]+:/.test(headerLines[0] ?? "")) return "eml";
  return null;
}

export function isProbablyText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, Math.min(bytes.length, 8192));
  if (sample[0] === 0xff && sample[1] === 0xfe) return true;
  if (sample[0] === 0xfe && sample[1] === 0xff) return true;
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20)) control++;
  }
  return control <= sample.length * 0.02;
}

export function extensionOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? filename;
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot + 1).toLowerCase();
}

export function formatFromMediaType(mimeType: string | undefined): InputFormat | null {
  if (mimeType === undefined) return null;
  const bare = (mimeType.split(";")[0] ?? "").trim().toLowerCase();
  if (
    bare.startsWith("image/") &&
    bare !== "image/vnd.dxf" &&
    bare !== "image/vnd.dwg" &&
    bare !== "image/x-dxf" &&
    bare !== "image/x-dwg"
  ) {
    return "image";
  }
  return MEDIA_TYPE_FORMATS[bare] ?? null;
}

export function formatFromFilename(filename: string): InputFormat | null {
  return EXTENSION_FORMATS[extensionOf(filename)] ?? null;
}

export interface Detection {
  format: InputFormat;
  /** What decided: the bytes, the declared media type or the file name. */
  detectedBy: "magic" | "content" | "mimeType" | "filename";
  declared: InputFormat | null;
  /** True when the declaration named another format than the one used. */
  mismatch: boolean;
}

const TEXT_FORMATS: ReadonlySet<InputFormat> = new Set([
  "html",
  "markdown",
  "csv",
  "txt",
  "asciidoc",
  "dxf",
  "geo",
  "eml",
  "step",
]);

/** Container entries (ZIP) whose names say "OOXML" are told apart by their part names. */
export type OoxmlKind = "docx" | "xlsx" | "pptx";

export function detectFormat(
  bytes: Uint8Array,
  filename: string,
  mimeType: string | undefined,
  ooxmlKind: (bytes: Uint8Array) => OoxmlKind | null = () => null,
): Detection {
  const byMime = formatFromMediaType(mimeType);
  const byName = formatFromFilename(filename);
  const declared = byMime ?? byName;
  const result = (format: InputFormat, detectedBy: Detection["detectedBy"]): Detection => ({
    format,
    detectedBy,
    declared,
    mismatch: declared !== null && declared !== format,
  });
  if (bytes.length === 0) throw new DocumentError("corrupt_document", "The document is empty (0 bytes)");
  const magic = magicFormat(bytes);
  switch (magic) {
    case "pdf":
    case "image":
    case "dwg":
    case "step":
      return result(magic, "magic");
    case "ole":
      // OLE compound files are also legacy .doc/.xls; only Outlook messages are supported.
      if (declared !== null && declared !== "msg") {
        throw new DocumentError(
          "format_mismatch",
          `Declared as ${FORMAT_LABELS[declared]} but the bytes are an OLE compound file (legacy Office or Outlook MSG); only MSG is supported among those`,
        );
      }
      return result("msg", "magic");
    case "ooxml-zip":
    case "zip": {
      const kind = ooxmlKind(bytes);
      if (kind !== null) return result(kind, "magic");
      if (declared === "docx" || declared === "xlsx" || declared === "pptx") {
        throw new DocumentError(
          "corrupt_document",
          `Declared as ${FORMAT_LABELS[declared]} but the ZIP package lacks its main part (no ${declared === "docx" ? "word/document.xml" : declared === "xlsx" ? "xl/workbook.xml" : "ppt/presentation.xml"})`,
        );
      }
      return result("zip", "magic");
    }
    default:
      break;
  }
  if (!isProbablyText(bytes)) {
    if (declared !== null && !TEXT_FORMATS.has(declared)) {
      throw new DocumentError(
        "corrupt_document",
        `Declared as ${FORMAT_LABELS[declared]} but the bytes do not carry a ${FORMAT_LABELS[declared]} signature: the file is corrupt or mislabelled`,
      );
    }
    throw new DocumentError(
      "unsupported_format",
      "Unrecognised binary content: no supported format signature found",
    );
  }
  const sniffed = sniffText(bytes);
  if (
    sniffed !== null &&
    (declared === null ||
      (declared === "txt" && byName !== "txt") ||
      !TEXT_FORMATS.has(declared) ||
      declared === sniffed)
  ) {
    return result(sniffed, "content");
  }
  if (declared !== null && !TEXT_FORMATS.has(declared)) {
    throw new DocumentError(
      "corrupt_document",
      `Declared as ${FORMAT_LABELS[declared]} but the content is plain text without a ${FORMAT_LABELS[declared]} signature: the file is corrupt or mislabelled`,
    );
  }
  if (byMime !== null && byMime !== "txt") return result(byMime, "mimeType");
  if (byName !== null) return result(byName, "filename");
  if (byMime !== null) return result(byMime, "mimeType");
  if (sniffed !== null) return result(sniffed, "content");
  return result("txt", "content");
}
