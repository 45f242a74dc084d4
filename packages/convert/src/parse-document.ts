/** Runs inside a parse worker: one input format's reader per call. */
import { DocumentError } from "./document-error.js";
import { asciidocToBlocks } from "./formats/asciidoc.js";
import { parseDwg, parseDxf, parseGeo, parseStep } from "./formats/cad.js";
import { parseDocx } from "./formats/docx.js";
import { htmlToBlocks } from "./formats/html.js";
import { parseEml, parseMsg } from "./formats/mail.js";
import { markdownToBlocks } from "./formats/markdown.js";
import {
  compactMetadata,
  documentOf,
  type ParsedDocument,
  type ParseOptions,
} from "./formats/parse-context.js";
import { parsePdf } from "./formats/pdf.js";
import { decodeText, textToBlocks } from "./formats/plain-text.js";
import { parsePptx } from "./formats/pptx.js";
import { parseCsv, parseXlsx } from "./formats/spreadsheet.js";
import { parseZip } from "./formats/zip.js";
import type { InputFormat } from "./formats.js";

export async function parseDocument(
  format: InputFormat,
  bytes: Uint8Array,
  options: ParseOptions,
): Promise<ParsedDocument> {
  switch (format) {
    case "pdf":
      return parsePdf(bytes, options);
    case "docx":
      return parseDocx(bytes, options);
    case "xlsx":
      return parseXlsx(bytes, options);
    case "csv":
      return parseCsv(bytes, options);
    case "pptx":
      return parsePptx(bytes, options);
    case "eml":
      return parseEml(bytes, options);
    case "msg":
      return parseMsg(bytes, options);
    case "zip":
      return parseZip(bytes, options);
    case "dxf":
      return parseDxf(bytes);
    case "geo":
      return parseGeo(bytes);
    case "step":
      return parseStep(bytes);
    case "dwg":
      return parseDwg(bytes);
    case "html": {
      const { blocks, title, meta } = htmlToBlocks(decodeText(bytes), { embedImages: options.embedImages });
      return documentOf(
        "html",
        blocks,
        compactMetadata({
          title: title ?? undefined,
          author: meta.author,
          description: meta.description,
          keywords: meta.keywords,
        }),
      );
    }
    case "markdown": {
      const { blocks, title } = markdownToBlocks(decodeText(bytes));
      return documentOf("markdown", blocks, compactMetadata({ title: title ?? undefined }));
    }
    case "asciidoc": {
      const { blocks, title, attributes } = asciidocToBlocks(decodeText(bytes));
      return documentOf(
        "asciidoc",
        blocks,
        compactMetadata({
          title: title ?? undefined,
          author: attributes.author,
          revision: attributes.revnumber,
        }),
      );
    }
    case "txt":
      return documentOf("txt", textToBlocks(decodeText(bytes)), {});
    case "image":
      throw new DocumentError(
        "internal_error",
        "Images are read by the OCR or vision pipeline, not by a parse worker",
      );
  }
}
