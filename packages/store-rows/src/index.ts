/**
 * The rows both SQL stores read and write (issue #24). A table's row type and its mapping to
 * the platform's record live here once, so the SQLite store and the PostgreSQL store answer
 * the same values: both keep the same logical column values (timestamps as epoch ms, JSON as
 * text or JSONB parsed to the same value, blobs as bytes), and each store only writes its own
 * SQL. One module per store family; this index re-exports them.
 */

export {
  API_KEY_PREFIX,
  type ApiKeyRecord,
  type ApiKeyRow,
  hashApiKey,
  LAST_USED_RESOLUTION_MS,
  newApiKey,
  SHOWN_PREFIX_LENGTH,
  toApiKey,
  toPrincipal,
  type VerifiedKeyRow,
} from "./api-keys.js";
export { bool, int, intOrNull, json } from "./columns.js";
export {
  type ConversionTask,
  type ConversionTaskInput,
  type ConversionTaskInputRow,
  type ConversionTaskRow,
  type ConversionTaskStatus,
  conversionTaskInputColumns,
  type FinishTask,
  toConversionTask,
  toConversionTaskInput,
} from "./conversion-tasks.js";
export { CredentialCipher } from "./credential-cipher.js";
export {
  type ExtractionFilter,
  type ExtractionImage,
  type ExtractionInsert,
  type ExtractionQualityFacts,
  type ExtractionRecord,
  type ExtractionRow,
  type ExtractionStatus,
  type ExtractionStrategyName,
  extractionQualityColumns,
  type SourcePlacement,
  toExtraction,
} from "./extractions.js";
export { bytes, FILE_COLUMNS, type FileRecord, type FileRow, toFile } from "./files.js";
export {
  type ChunkRow,
  type DocumentRow,
  IN_PROGRESS,
  type KbRow,
  type RevisionRow,
  toChunk,
  toDocument,
  toKb,
  toRevision,
} from "./knowledge-bases.js";
export { likePattern } from "./like-pattern.js";
export { type Organization, type OrganizationRow, toOrganization } from "./organizations.js";
export { type ProviderRecord, type ProviderRow, toProvider } from "./providers.js";
export {
  type StoredResponseKind,
  type StoredResponseRecord,
  type StoredResponseRow,
  type StoredResponseSave,
  storedResponseColumns,
  toStoredResponse,
} from "./stored-responses.js";
export { VERIFIED_LIMIT, VERIFIED_TTL_MS, VerifiedKeys } from "./verified-keys.js";
