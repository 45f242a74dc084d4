/**
 * The span attribute names of PLATFORM.md §13: the OpenTelemetry GenAI semantic
 * conventions plus Groundwork's own. One table, so instrumentation and the trace
 * store agree on every name.
 */
export const GEN_AI = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  conversationId: "gen_ai.conversation.id",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  errorType: "error.type",
} as const;

/**
 * Groundwork's attributes. The organization and kind are set on every root span at
 * start, so the sampler and the trace store know whose trace it is and what it is.
 */
export const GROUNDWORK = {
  organizationId: "groundwork.organization_id",
  /** `gateway` | `agent` | `extraction` | `conversion` | `kb_search` | `experiment` (root spans). */
  traceKind: "groundwork.trace.kind",
  costEur: "groundwork.cost_eur",
  judge: "groundwork.judge",
  responseId: "groundwork.response_id",
  requestId: "groundwork.request_id",
} as const;

/** The trace kinds of PLATFORM.md §13. */
export type TraceKind = "gateway" | "agent" | "extraction" | "conversion" | "kb_search" | "experiment";

/** `gen_ai.input.messages` / `gen_ai.output.messages` are cut to this many UTF-16 units (≈ 32 KiB). */
export const CONTENT_ATTRIBUTE_LIMIT = 32 * 1024;
