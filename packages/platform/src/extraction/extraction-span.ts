/**
 * What an `extract {schema name}` span (PLATFORM.md §13, kind `extraction`) records about one
 * extraction, in the request or as a background job: the model, the extraction's id, and —
 * only when the organization captures content — the input text and the extracted data. The
 * model calls inside are the gateway's `chat {model}` children.
 */
import { capturesContent, contentAttribute, errorTypeOf, markFailed, textMessage } from "@groundwork/agents";
import { type ExtractionResult, ExtractionRunError } from "@groundwork/extract";
import { GEN_AI, type TraceHooks } from "@groundwork/observability";
import type { Span } from "@opentelemetry/api";

/** The extraction's record id on its span (not a GenAI attribute; links the trace to `GET /v1/extractions/{id}`). */
export const EXTRACTION_ID_ATTRIBUTE = "groundwork.extraction_id";

export interface ExtractionSpanInput {
  organizationId: string;
  model: string;
  inputText: string | null;
  /** Known up front for a background extraction; a synchronous one gets its id when recorded. */
  extractionId?: string;
}

export function describeExtraction(span: Span, hooks: TraceHooks, input: ExtractionSpanInput): void {
  if (!span.isRecording()) return;
  span.setAttribute(GEN_AI.requestModel, input.model);
  if (input.extractionId !== undefined) span.setAttribute(EXTRACTION_ID_ATTRIBUTE, input.extractionId);
  if (input.inputText !== null && capturesContent(hooks, span, input.organizationId)) {
    span.setAttribute(GEN_AI.inputMessages, contentAttribute([textMessage("user", input.inputText)]));
  }
}

export function extractionSucceeded(
  span: Span,
  hooks: TraceHooks,
  organizationId: string,
  extractionId: string,
  result: ExtractionResult,
): void {
  if (!span.isRecording()) return;
  span.setAttribute(EXTRACTION_ID_ATTRIBUTE, extractionId);
  if (capturesContent(hooks, span, organizationId)) {
    span.setAttribute(
      GEN_AI.outputMessages,
      contentAttribute([textMessage("assistant", JSON.stringify(result.structuredOutput))]),
    );
  }
}

/**
 * A failed extraction: `message` is the record's error message (written for API callers);
 * the type is the gateway's error code behind a failed model call, else `extraction_failed`.
 */
export function extractionFailed(
  span: Span,
  extractionId: string | null,
  error: unknown,
  message: string,
  signal?: AbortSignal,
): void {
  if (!span.isRecording()) return;
  if (extractionId !== null) span.setAttribute(EXTRACTION_ID_ATTRIBUTE, extractionId);
  const cause = error instanceof ExtractionRunError ? error.cause : error;
  const type = signal?.aborted === true ? "cancelled" : errorTypeOf(cause);
  markFailed(span, type === "_OTHER" ? "extraction_failed" : type, message);
}
