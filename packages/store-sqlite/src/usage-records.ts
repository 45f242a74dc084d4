/** One row per gateway call, for plan usage and later analytics. */
import {
  type Clock,
  defaultIdGenerator,
  type IdGenerator,
  systemClock,
  type UsageEvent,
  type UsageSurface,
} from "@groundwork/core";
import type { Database, Statement } from "better-sqlite3";
import { statementCache } from "./statement-cache.js";

/** What is recorded: the gateway's usage event as it is. */
export type UsageRecordInput = UsageEvent;

export interface UsageRecord extends UsageRecordInput {
  id: string;
  createdAt: number;
}

export class UsageRecordStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    db: Database,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
  }

  record(input: UsageRecordInput): UsageRecord {
    const record: UsageRecord = { ...input, id: this.ids("use"), createdAt: this.clock.now() };
    this.sql(
      `INSERT INTO usage_records (id, organization_id, api_key_id, model, surface, byok, prompt_tokens,
           completion_tokens, cached_tokens, cost_eur, latency_ms, outcome, end_user, created_at)
         VALUES (@id, @organizationId, @apiKeyId, @model, @surface, @byok, @promptTokens, @completionTokens,
           @cachedTokens, @costEur, @latencyMs, @outcome, @endUser, @createdAt)`,
    ).run({ ...record, byok: record.byok ? 1 : 0 });
    return record;
  }

  /** Charged cost (built-in calls) of an organization since `since` (epoch ms). */
  chargedSince(organizationId: string, since: number): number {
    const row = this.sql(
      "SELECT COALESCE(SUM(cost_eur), 0) AS total FROM usage_records WHERE organization_id = ? AND byok = 0 AND created_at >= ?",
    ).get(organizationId, since) as { total: number };
    return row.total;
  }

  list(organizationId: string, limit = 100): UsageRecord[] {
    const rows = this.sql(
      "SELECT * FROM usage_records WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
    ).all(organizationId, limit) as Array<Record<string, unknown>>;
    return rows.map((row) => ({
      id: row.id as string,
      organizationId: row.organization_id as string,
      apiKeyId: row.api_key_id as string | null,
      model: row.model as string,
      surface: row.surface as UsageSurface,
      byok: row.byok === 1,
      promptTokens: row.prompt_tokens as number,
      completionTokens: row.completion_tokens as number,
      cachedTokens: row.cached_tokens as number | null,
      costEur: row.cost_eur as number,
      latencyMs: row.latency_ms as number,
      outcome: row.outcome as UsageRecord["outcome"],
      endUser: row.end_user as string | null,
      createdAt: row.created_at as number,
    }));
  }
}
