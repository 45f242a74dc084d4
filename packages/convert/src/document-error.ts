/**
 * A failure of one document. It never escapes the batch: the converter turns it
 * into an entry of the result's `errors` and goes on with the next document.
 */

export type DocumentErrorCode =
  | "unsupported_format"
  | "unsupported_pipeline"
  | "format_mismatch"
  | "corrupt_document"
  | "limit_exceeded"
  | "timeout"
  | "canceled"
  | "task_failed"
  | "ocr_failed"
  | "unsupported_language"
  | "vlm_unavailable"
  | "vlm_failed"
  | "fetch_failed"
  | "source_refused"
  | "empty_archive"
  | "internal_error";

export class DocumentError extends Error {
  readonly code: DocumentErrorCode;
  constructor(code: DocumentErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DocumentError";
    this.code = code;
  }
}

export function isDocumentError(value: unknown): value is DocumentError {
  return value instanceof DocumentError;
}
