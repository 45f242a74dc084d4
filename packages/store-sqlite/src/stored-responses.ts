/**
 * Stored responses (PLATFORM.md §2.6): every `/v1/responses` answer with its owner and input
 * items. Plain model answers keep the response object as answered; agent answers keep only
 * owner and input, their object is rendered from the run state (so its status stays current).
 */
import type { Clock } from "@groundwork/core";
import type { Database, Statement } from "better-sqlite3";
import { statementCache } from "./statement-cache.js";

export type StoredResponseKind = "model" | "agent";

export interface StoredResponseRecord {
  id: string;
  organizationId: string;
  createdByKeyId: string;
  kind: StoredResponseKind;
  conversationId: string | null;
  input: unknown[];
  /** The response object as answered (plain model calls); null for agent runs. */
  response: unknown;
  createdAt: number;
  expiresAt: number | null;
}

interface Row {
  id: string;
  organization_id: string;
  created_by_key_id: string;
  kind: StoredResponseKind;
  conversation_id: string | null;
  input: string;
  response: string | null;
  created_at: number;
  expires_at: number | null;
}

export class StoredResponseStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    db: Database,
    private readonly clock: Clock,
  ) {
    this.sql = statementCache(db);
  }

  /**
   * One insert: the only write the gateway's hot path adds. A repeated id keeps the first owner.
   * `retainForMs` null keeps it until deleted (with its conversation or by DELETE).
   */
  save(input: Omit<StoredResponseRecord, "createdAt" | "expiresAt"> & { retainForMs: number | null }): void {
    const now = this.clock.now();
    this.sql(
      `INSERT INTO stored_responses (id, organization_id, created_by_key_id, kind, conversation_id, input, response,
           created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO NOTHING`,
    ).run(
      input.id,
      input.organizationId,
      input.createdByKeyId,
      input.kind,
      input.conversationId,
      JSON.stringify(input.input),
      input.response === null || input.response === undefined ? null : JSON.stringify(input.response),
      now,
      input.retainForMs === null ? null : now + input.retainForMs,
    );
  }

  /** The stored response, or null when unknown, of another organization or past its retention. */
  get(organizationId: string, id: string): StoredResponseRecord | null {
    const row = this.sql("SELECT * FROM stored_responses WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as Row | undefined;
    if (row === undefined) return null;
    if (row.expires_at !== null && row.expires_at <= this.clock.now()) return null;
    return toRecord(row);
  }

  /** Deletes the stored response and, for an agent answer, its run state (so it cannot be continued). */
  delete(organizationId: string, id: string): boolean {
    this.sql("DELETE FROM agent_runs WHERE organization_id = ? AND id = ?").run(organizationId, id);
    return (
      this.sql("DELETE FROM stored_responses WHERE organization_id = ? AND id = ?").run(organizationId, id)
        .changes > 0
    );
  }

  /** Removes responses past their retention; returns how many went. */
  purgeExpired(): number {
    return this.sql("DELETE FROM stored_responses WHERE expires_at IS NOT NULL AND expires_at <= ?").run(
      this.clock.now(),
    ).changes;
  }
}

function toRecord(row: Row): StoredResponseRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    createdByKeyId: row.created_by_key_id,
    kind: row.kind,
    conversationId: row.conversation_id,
    input: JSON.parse(row.input) as unknown[],
    response: row.response === null ? null : (JSON.parse(row.response) as unknown),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}
