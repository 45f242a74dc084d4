/**
 * Parsing for ingestion: the conversion engine (`@groundwork/convert`, the
 * `fast` pipeline; images through `ocr`) turns an upload into its document
 * model, which is flattened here into the kb engine's headings and text
 * blocks with page numbers. Containers (ZIP, mail) give several documents;
 * each becomes a section headed by its file name.
 */
import {
  type Block,
  DocumentConverter,
  type DocumentModel,
  detectFormat,
  FORMAT_MEDIA_TYPES,
  type InputFormat,
  isDocumentError,
  ooxmlKindOf,
  PIPELINE_SUPPORT,
} from "@groundwork/convert";
import type { DocumentParser, RevisionSource, SourceBlock, SourceDocument } from "@groundwork/kb";

/** Detects the format of an upload; throws the converter's DocumentError for unsupported or corrupt files. */
export function detectUpload(
  bytes: Uint8Array,
  filename: string,
  mime: string | undefined,
): { format: InputFormat; mime: string } {
  const detection = detectFormat(bytes, filename, mime, ooxmlKindOf);
  return { format: detection.format, mime: FORMAT_MEDIA_TYPES[detection.format] };
}

function blockText(block: Block): SourceBlock | null {
  const page = "page" in block && block.page !== undefined ? { page: block.page } : {};
  switch (block.type) {
    case "heading":
      return { kind: "heading", level: block.level, text: block.text, ...page };
    case "paragraph":
    case "code":
      return { kind: "text", text: block.text, ...page };
    case "list":
      return {
        kind: "text",
        text: block.items.map((item) => `${"  ".repeat(item.depth)}- ${item.text}`).join("\n"),
        ...page,
      };
    case "table": {
      const rows = block.rows.map((row) => row.join(" | "));
      return {
        kind: "text",
        text: [block.caption ?? "", ...rows].filter((line) => line !== "").join("\n"),
        ...page,
      };
    }
    case "picture": {
      const text = [block.alt, block.text].filter((part) => part !== undefined && part !== "").join(" ");
      return text === "" ? null : { kind: "text", text, ...page };
    }
    case "section":
      return { kind: "heading", level: 1, text: block.title };
    case "page":
      return null;
  }
}

/** The kb engine's view of converted documents (pages carried from page boundaries and block pages). */
export function toSourceDocument(models: readonly DocumentModel[]): SourceDocument {
  const blocks: SourceBlock[] = [];
  const metadata: SourceDocument["metadata"] = {};
  for (const model of models) {
    if (models.length > 1) blocks.push({ kind: "heading", level: 1, text: model.filename });
    let page: number | undefined;
    for (const block of model.blocks) {
      if (block.type === "page") {
        page = block.number;
        continue;
      }
      const converted = blockText(block);
      if (converted === null) continue;
      if (converted.page === undefined && page !== undefined) converted.page = page;
      blocks.push(converted);
    }
    if (models.length === 1) {
      for (const [key, value] of Object.entries(model.metadata)) metadata[key] = value;
    }
  }
  if (models[0] !== undefined) metadata.format = models[0].format;
  return { blocks, metadata };
}

export class ConverterDocumentParser implements DocumentParser {
  private converter: DocumentConverter | null = null;

  async parse(source: RevisionSource, options: { signal?: AbortSignal }): Promise<SourceDocument> {
    const detected = detectUpload(source.bytes, source.filename, source.mime);
    const pipeline = PIPELINE_SUPPORT[detected.format].includes("fast") ? "fast" : "ocr";
    this.converter ??= new DocumentConverter({ workers: 1 });
    const result = await this.converter.convert(
      [{ bytes: source.bytes, filename: source.filename, mimeType: detected.mime }],
      { pipeline, options: { outputFormats: ["JSON"] } },
      options.signal === undefined ? {} : { signal: options.signal },
    );
    const models = result.documents.flatMap((document) =>
      document.jsonContent === undefined ? [] : [document.jsonContent],
    );
    if (models.length === 0) {
      const reason = result.errors[0];
      throw new Error(
        reason === undefined ? "The converter returned no document" : `${reason.code}: ${reason.message}`,
      );
    }
    return toSourceDocument(models);
  }

  async close(): Promise<void> {
    await this.converter?.close();
    this.converter = null;
  }
}

export { isDocumentError };
