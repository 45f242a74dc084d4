/**
 * Stored responses (PLATFORM.md §2.6) on PostgreSQL: the same methods and answers as
 * store-sqlite's StoredResponseStore. `save` is one insert (the gateway's hot path).
 */
import type { Clock } from "@groundwork/core";
import {
  type StoredResponseRecord,
  type StoredResponseRow,
  type StoredResponseSave,
  storedResponseColumns,
  toStoredResponse,
} from "@groundwork/store-rows";
import { connectionOf, transactionOn } from "./postgres-family.js";
import type { SqlClient } from "./sql-client.js";

export class PostgresStoredResponseStore {
  /** Whether the agents' `agent_runs` table exists (it arrives with the agents family, decision PG47). */
  private agentRuns: Promise<boolean> | undefined;

  constructor(
    private readonly client: SqlClient,
    private readonly clock: Clock,
  ) {}

  /** One insert. A repeated id keeps the first owner; `retainForMs` null keeps it until deleted. */
  async save(input: StoredResponseSave): Promise<void> {
    await connectionOf(this.client).query(
      `INSERT INTO stored_responses (id, organization_id, created_by_key_id, kind, conversation_id, input, response,
           created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (id) DO NOTHING`,
      [input.id, ...storedResponseColumns(input, this.clock.now())],
    );
  }

  /** The stored response, or null when unknown, of another organization or past its retention. */
  async get(organizationId: string, id: string): Promise<StoredResponseRecord | null> {
    const { rows } = await connectionOf(this.client).query<StoredResponseRow>(
      "SELECT * FROM stored_responses WHERE organization_id = $1 AND id = $2",
      [organizationId, id],
    );
    if (rows[0] === undefined) return null;
    const record = toStoredResponse(rows[0]);
    if (record.expiresAt !== null && record.expiresAt <= this.clock.now()) return null;
    return record;
  }

  /** Deletes the stored response and, for an agent answer, its run state (so it cannot be continued). */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const withRuns = await this.hasAgentRuns();
    return transactionOn(this.client, async (tx) => {
      if (withRuns)
        await tx.query("DELETE FROM agent_runs WHERE organization_id = $1 AND id = $2", [organizationId, id]);
      const { rows } = await tx.query(
        "DELETE FROM stored_responses WHERE organization_id = $1 AND id = $2 RETURNING id",
        [organizationId, id],
      );
      return rows.length > 0;
    });
  }

  /** Removes responses past their retention; returns how many went. */
  async purgeExpired(): Promise<number> {
    const { rows } = await connectionOf(this.client).query<{ n: string | number }>(
      `WITH gone AS (DELETE FROM stored_responses WHERE expires_at IS NOT NULL AND expires_at <= $1 RETURNING 1)
         SELECT count(*) AS n FROM gone`,
      [this.clock.now()],
    );
    return Number(rows[0]?.n ?? 0);
  }

  private hasAgentRuns(): Promise<boolean> {
    this.agentRuns ??= this.client
      .query<{ present: boolean }>("SELECT to_regclass('agent_runs') IS NOT NULL AS present")
      .then(({ rows }) => rows[0]?.present === true)
      .catch((error: unknown) => {
        this.agentRuns = undefined;
        throw error;
      });
    return this.agentRuns;
  }
}
