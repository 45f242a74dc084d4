/** A usage record's input for store tests: one ok chat call of organization `organizationId`. */
import type { UsageRecordInput } from "../src/usage-records.js";

export function usageInput(
  organizationId: string,
  overrides: Partial<UsageRecordInput> = {},
): UsageRecordInput {
  return {
    organizationId,
    apiKeyId: null,
    model: "m",
    surface: "CHAT",
    byok: false,
    promptTokens: 1,
    completionTokens: 1,
    cachedTokens: null,
    costEur: 0,
    latencyMs: 1,
    outcome: "ok",
    endUser: null,
    ...overrides,
  };
}
