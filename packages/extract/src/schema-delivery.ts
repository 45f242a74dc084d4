/**
 * How a JSON Schema reaches each provider kind (spec document 2, "Provider enforcement").
 * `hosted-b` and `hosted-d` take no structured-output schema: it goes into the prompt as text and
 * the model is asked for JSON only. Every other kind gets the chat-completions
 * `response_format: {type: "json_schema", ...}` with `strict: false` — including `self-hosted`,
 * whose OpenAI-compatible servers (vLLM, llama.cpp, Ollama) accept it as guided decoding, and the
 * built-in models, which `cloud-a` serves.
 */

export type SchemaDelivery = "structured-output" | "prompt-text";

/** Provider prefixes of spec document 1 (the gateway's provider-kinds table, repeated to keep the engine light). */
export const PROVIDER_PREFIXES = [
  "hosted-a",
  "cloud-a",
  "hosted-b",
  "hosted-c",
  "hosted-d",
  "self-hosted",
  "cloud-b",
] as const;

/** Kinds that receive the schema as prompt text: every constraint is advisory. */
export const PROMPT_ONLY_PROVIDERS: readonly string[] = ["hosted-b", "hosted-d"];

/** Kinds whose structured output ignores the constraint keywords the linter reports. */
export const STRUCTURED_OUTPUT_LINTED_PROVIDERS: readonly string[] = ["hosted-a", "cloud-a", "hosted-c"];

/** The provider the built-in model names run on; the linter always checks against it. */
export const BUILTIN_PROVIDER = "cloud-a";

/** The provider prefix of a model string, or null for a built-in model name. */
export function providerPrefixOf(model: string): string | null {
  const slash = model.indexOf("/");
  return slash === -1 ? null : model.slice(0, slash).trim();
}

export function schemaDeliveryFor(model: string): SchemaDelivery {
  const prefix = providerPrefixOf(model);
  return prefix !== null && PROMPT_ONLY_PROVIDERS.includes(prefix) ? "prompt-text" : "structured-output";
}
