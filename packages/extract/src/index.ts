export { type ChunkingOptions, chunkText, type TextChunk } from "./chunking.js";
export { type DedupCounts, type DedupOutcome, dedupItems } from "./dedup.js";
export {
  DEFAULT_EXTRACTION_SETTINGS,
  type DedupReport,
  ExtractionEngine,
  type ExtractionEngineOptions,
  type ExtractionInput,
  type ExtractionMetadata,
  type ExtractionResult,
  ExtractionRunError,
  type ExtractionSettings,
  type ExtractionStrategy,
  finishChunked,
  type ResultMetadata,
  type RunOptions,
  type SingleCallResult,
} from "./extraction-engine.js";
export {
  ALLOWED_IMAGE_TYPES,
  checkExtractionInput,
  MAX_INPUT_IMAGES,
} from "./extraction-request.js";
export { type ItemArray, itemArraysOf, keyFieldsFor, ROOT_PROPERTY } from "./item-arrays.js";
export { mergeChunkOutputs } from "./merge.js";
export {
  ChunkCorpus,
  type PostValidationReport,
  removeInventedItems,
  restoreRequiredFields,
} from "./post-validation.js";
export {
  buildChatRequest,
  carryForwardSummary,
  type InputImage,
  parseModelJson,
  responseFormatName,
} from "./prompts.js";
export { isPositionFieldName, positionFields, resequenceItems } from "./resequence.js";
export {
  BUILTIN_PROVIDER,
  PROMPT_ONLY_PROVIDERS,
  PROVIDER_PREFIXES,
  providerPrefixOf,
  type SchemaDelivery,
  STRUCTURED_OUTPUT_LINTED_PROVIDERS,
  schemaDeliveryFor,
} from "./schema-delivery.js";
export {
  ESCAPE_VALUE,
  type LintErrorRule,
  type LintWarningRule,
  lintSchema,
  type SchemaLintError,
  type SchemaLintOptions,
  type SchemaLintResult,
  type SchemaLintWarning,
  schemaDefinitionErrors,
  UNENFORCED_KEYWORDS,
} from "./schema-lint.js";
