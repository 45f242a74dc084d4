/**
 * Stored responses (PLATFORM.md §2.6): every `/v1/responses` answer with its owner and input
 * items. Plain model answers keep the response object as answered; agent answers keep only
 * owner and input, their object is rendered from the run state (so its status stays current).
 */
import type { Clock } from "@groundwork/core";
import {
  type StoredResponseKind,
  type StoredResponseRecord,
  type StoredResponseRow,
  type StoredResponseSave,
  storedResponseColumns,
  toStoredResponse as toRecord,
} from "@groundwork/store-rows";
import type { Database, Statement } from "better-sqlite3";
import { statementCache } from "./statement-cache.js";

export type { StoredResponseKind, StoredResponseRecord };

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
  save(input: StoredResponseSave): void {
    const now = this.clock.now();
    this.sql(
      `INSERT INTO stored_responses (id, organization_id, created_by_key_id, kind, conversation_id, input, response,
           created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO NOTHING`,
    ).run(input.id, ...storedResponseColumns(input, now));
  }

  /** The stored response, or null when unknown, of another organization or past its retention. */
  get(organizationId: string, id: string): StoredResponseRecord | null {
    const row = this.sql("SELECT * FROM stored_responses WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as StoredResponseRow | undefined;
    if (row === undefined) return null;
    const record = toRecord(row);
    if (record.expiresAt !== null && record.expiresAt <= this.clock.now()) return null;
    return record;
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
