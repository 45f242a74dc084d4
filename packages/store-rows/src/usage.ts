/**
 * Usage records (one row per gateway call): the record, its row and the row's insert
 * parameters, shared by both stores. `latency_bin` is a generated column on both and is not
 * written; `byok` is 0/1 on SQLite and a BOOLEAN on PostgreSQL.
 */
import type { UsageEvent, UsageSurface } from "@groundwork/core";
import { bool, int, intOrNull } from "./columns.js";

/** What is recorded: the gateway's usage event as it is. */
export type UsageRecordInput = UsageEvent;

export interface UsageRecord extends UsageRecordInput {
  id: string;
  createdAt: number;
}

/**
 * A queued usage row: the input's fields named one by one. `{ ...input, id, createdAt }` cost
 * ~3 µs a row on Node 20 (the spread's copy took on more properties than it had room for), a
 * visible share of a gateway call.
 */
export function usageRecordOf(input: UsageRecordInput, id: string, createdAt: number): UsageRecord {
  return {
    organizationId: input.organizationId,
    apiKeyId: input.apiKeyId,
    model: input.model,
    surface: input.surface,
    byok: input.byok,
    promptTokens: input.promptTokens,
    completionTokens: input.completionTokens,
    cachedTokens: input.cachedTokens,
    costEur: input.costEur,
    latencyMs: input.latencyMs,
    outcome: input.outcome,
    endUser: input.endUser,
    errorCode: input.errorCode ?? null,
    status: input.status ?? null,
    id,
    createdAt,
  };
}

/** The written columns of `usage_records`, in the order of `usageRowValues`. */
export const USAGE_COLUMNS = [
  "id",
  "organization_id",
  "api_key_id",
  "model",
  "surface",
  "byok",
  "prompt_tokens",
  "completion_tokens",
  "cached_tokens",
  "cost_eur",
  "latency_ms",
  "outcome",
  "end_user",
  "created_at",
  "error_code",
  "status",
] as const;

/** A record's values in `USAGE_COLUMNS` order (`byok` as 0/1, which both databases accept). */
export function usageRowValues(record: UsageRecord): unknown[] {
  return [
    record.id,
    record.organizationId,
    record.apiKeyId,
    record.model,
    record.surface,
    record.byok ? 1 : 0,
    record.promptTokens,
    record.completionTokens,
    record.cachedTokens,
    record.costEur,
    record.latencyMs,
    record.outcome,
    record.endUser,
    record.createdAt,
    record.errorCode ?? null,
    record.status ?? null,
  ];
}

export function toUsageRecord(row: Record<string, unknown>): UsageRecord {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    apiKeyId: row.api_key_id as string | null,
    model: row.model as string,
    surface: row.surface as UsageSurface,
    byok: bool(row.byok),
    promptTokens: int(row.prompt_tokens),
    completionTokens: int(row.completion_tokens),
    cachedTokens: intOrNull(row.cached_tokens),
    costEur: Number(row.cost_eur),
    latencyMs: Number(row.latency_ms),
    outcome: row.outcome as UsageRecord["outcome"],
    endUser: row.end_user as string | null,
    errorCode: row.error_code as string | null,
    status: intOrNull(row.status),
    createdAt: int(row.created_at),
  };
}
