export {
  type ConversionErrorEntry,
  type ConversionInput,
  type ConversionResult,
  type ConversionStatus,
  type ConvertCallOptions,
  type ConvertedDocument,
  DocumentConverter,
  type DocumentConverterOptions,
  statusOf,
} from "./converter.js";
export { DocumentError, type DocumentErrorCode, isDocumentError } from "./document-error.js";
export {
  type Block,
  type BoundingBox,
  type CodeBlock,
  DOCUMENT_MODEL_VERSION,
  type DocumentModel,
  type HeadingBlock,
  type ListBlock,
  type ListItem,
  type MetadataValue,
  type PageBoundary,
  type ParagraphBlock,
  type PictureBlock,
  type SectionBoundary,
  type TableBlock,
} from "./document-model.js";
export {
  type Detection,
  detectFormat,
  FORMAT_LABELS,
  FORMAT_MEDIA_TYPES,
  INPUT_FORMATS,
  type InputFormat,
  PIPELINE_SUPPORT,
  PIPELINES,
  type Pipeline,
} from "./formats.js";
export { type ConversionLimits, DEFAULT_LIMITS } from "./limits.js";
export type { OcrEngine, OcrResult } from "./ocr.js";
export {
  type ConversionOptions,
  DEFAULT_IMAGES_SCALE,
  DEFAULT_TIMEOUT_SECONDS,
  OCR_ENGINES,
  type OcrEngineName,
  OUTPUT_FORMATS,
  type OutputFormat,
  ocrEngineOf,
  type PipelineOptions,
  unsupportedOcrEngineMessage,
} from "./options.js";
export { renderHtml } from "./render/html.js";
export { type BlockPlacement, renderMarkdown, renderPlacedMarkdown } from "./render/markdown.js";
export { renderText } from "./render/text.js";
export { type VisionModel, VLM_PROMPT } from "./vlm.js";
export { ooxmlKindOf } from "./zip-directory.js";
