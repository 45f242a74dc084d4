import { isGroundworkError } from "@groundwork/core";
import { BUILTIN_PROVIDER_ID } from "./config.js";

/**
 * A refusal is an answer that will not change by retrying now: a 4xx such as
 * 402 (usage used up, plan), 400 (model refused), 404 (provider gone). Rate
 * limits (429), timeouts and 5xx are transient.
 */
export function isEmbeddingRefusal(error: unknown): boolean {
  return (
    isGroundworkError(error) &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 408 &&
    error.status !== 429
  );
}

/**
 * Search answers these instead of degrading to keywords only: a refused built-in
 * call (spec: "a refused call to a built-in embedding model is not degradation")
 * and any billing refusal (402), which the caller must see to act on.
 */
export function searchMustAnswerRefusal(embeddingProviderId: string, error: unknown): boolean {
  if (!isGroundworkError(error)) return false;
  if (error.status === 402) return true;
  return embeddingProviderId === BUILTIN_PROVIDER_ID && isEmbeddingRefusal(error);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
