/**
 * Agents on PostgreSQL (spec document 3): store-sqlite's `AgentStore` (with the version and
 * label methods of its `VersionedStore` frame), asynchronous, on the same rows
 * (@groundwork/store-rows). Agents keep no `latest` label: the newest active version is read
 * directly. A new version's number is taken under a lock on its agent's row, so two commits
 * racing on one agent number 1, 2, … as SQLite's single writer does (PG68).
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  type AgentConversationRecord,
  type AgentLabelRecord,
  type AgentLabelRow,
  type AgentMode,
  type AgentRecord,
  type AgentRow,
  type AgentRunRecord,
  type AgentVersionRecord,
  type AgentVersionRow,
  type ConversationRow,
  type RunInput,
  type RunRow,
  toAgent,
  toAgentLabel,
  toAgentVersion,
  toConversation,
  toRun,
} from "@groundwork/store-rows";
import { matchesNoRow, PostgresFamily } from "./postgres-family.js";

const LABEL_COLUMNS = "agent_id AS owner_id, name, agent_version_id AS version_id, created_at, updated_at";

export class PostgresAgentStore extends PostgresFamily {
  // ---- agents ----

  /** Creates the agent with its first version; null when the name is taken. */
  async create(
    organizationId: string,
    input: { name: string; description: string | null; definition: Record<string, unknown> },
  ): Promise<{ agent: AgentRecord; version: AgentVersionRecord } | null> {
    const id = this.ids("agt");
    const now = this.clock.now();
    return this.inTransaction(async () => {
      const agent = await this.row<AgentRow>(
        `INSERT INTO agents (id, organization_id, name, description, published, created_at, updated_at)
           VALUES ($1, $2, $3, $4, false, $5, $5) ON CONFLICT (organization_id, name) DO NOTHING RETURNING *`,
        [id, organizationId, input.name, input.description, now],
      );
      if (agent === undefined) return null;
      const version = await this.insertVersion(id, input.definition, null, now);
      return { agent: toAgent(agent), version };
    });
  }

  async get(organizationId: string, id: string): Promise<AgentRecord | null> {
    if (matchesNoRow(id)) return null;
    const row = await this.row<AgentRow>("SELECT * FROM agents WHERE organization_id = $1 AND id = $2", [
      organizationId,
      id,
    ]);
    return row === undefined ? null : toAgent(row);
  }

  async getByName(organizationId: string, name: string): Promise<AgentRecord | null> {
    if (matchesNoRow(name)) return null;
    const row = await this.row<AgentRow>("SELECT * FROM agents WHERE organization_id = $1 AND name = $2", [
      organizationId,
      name,
    ]);
    return row === undefined ? null : toAgent(row);
  }

  /** Newest first; `publishedOnly` for the catalog. */
  async list(
    organizationId: string,
    page: PageRequest,
    options: { publishedOnly?: boolean } = {},
  ): Promise<{ items: AgentRecord[]; total: number }> {
    const filter = options.publishedOnly === true ? " AND published" : "";
    const counted = await this.row<{ n: string }>(
      `SELECT count(*) AS n FROM agents WHERE organization_id = $1${filter}`,
      [organizationId],
    );
    const rows = await this.rows<AgentRow>(
      `SELECT * FROM agents WHERE organization_id = $1${filter} ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [organizationId, page.size, pageOffset(page)],
    );
    return { items: rows.map(toAgent), total: Number(counted?.n ?? 0) };
  }

  /** Null when absent; a taken name throws (the caller checks `getByName` first). */
  async update(
    organizationId: string,
    id: string,
    changes: { name?: string; description?: string | null; published?: boolean },
  ): Promise<AgentRecord | null> {
    return this.inTransaction(async () => {
      const current = await this.row<AgentRow>(
        "SELECT * FROM agents WHERE organization_id = $1 AND id = $2 FOR UPDATE",
        [organizationId, id],
      );
      if (current === undefined) return null;
      const agent = toAgent(current);
      const row = await this.row<AgentRow>(
        `UPDATE agents SET name = $3, description = $4, published = $5, updated_at = $6
           WHERE organization_id = $1 AND id = $2 RETURNING *`,
        [
          organizationId,
          id,
          changes.name ?? agent.name,
          changes.description === undefined ? agent.description : changes.description,
          changes.published ?? agent.published,
          this.clock.now(),
        ],
      );
      return row === undefined ? null : toAgent(row);
    });
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    return (
      (await this.changes("DELETE FROM agents WHERE organization_id = $1 AND id = $2 RETURNING 1", [
        organizationId,
        id,
      ])) > 0
    );
  }

  // ---- versions ----

  /** Commits a new active version with the next number. */
  async commitVersion(
    agentId: string,
    definition: Record<string, unknown>,
    options: { copiedFromVersionId?: string | null; description?: string | null } = {},
  ): Promise<AgentVersionRecord> {
    const now = this.clock.now();
    return this.inTransaction(async () => {
      const version = await this.insertVersion(agentId, definition, options.copiedFromVersionId ?? null, now);
      if (options.description !== undefined) {
        await this.db.query("UPDATE agents SET description = $2, updated_at = $3 WHERE id = $1", [
          agentId,
          options.description,
          now,
        ]);
      } else {
        await this.db.query("UPDATE agents SET updated_at = $2 WHERE id = $1", [agentId, now]);
      }
      return version;
    });
  }

  /** Inserts an active version numbered after the agent's last, in the caller's transaction. */
  private async insertVersion(
    agentId: string,
    definition: Record<string, unknown>,
    copiedFrom: string | null,
    now: number,
  ): Promise<AgentVersionRecord> {
    await this.db.query("SELECT 1 FROM agents WHERE id = $1 FOR UPDATE", [agentId]);
    const row = await this.row<AgentVersionRow>(
      `INSERT INTO agent_versions (id, agent_id, version_number, definition, copied_from_version_id, active, created_at)
         SELECT $1, $2, coalesce(max(version_number), 0) + 1, $3, $4, true, $5
           FROM agent_versions WHERE agent_id = $2
         RETURNING *`,
      [this.ids("agv"), agentId, JSON.stringify(definition), copiedFrom, now],
    );
    return toAgentVersion(row as AgentVersionRow);
  }

  async getVersion(agentId: string, versionId: string): Promise<AgentVersionRecord | null> {
    if (matchesNoRow(agentId, versionId)) return null;
    const row = await this.row<AgentVersionRow>(
      "SELECT * FROM agent_versions WHERE agent_id = $1 AND id = $2",
      [agentId, versionId],
    );
    return row === undefined ? null : toAgentVersion(row);
  }

  /** A version by id alone (active or not). */
  async versionById(versionId: string): Promise<AgentVersionRecord | null> {
    if (matchesNoRow(versionId)) return null;
    const row = await this.row<AgentVersionRow>("SELECT * FROM agent_versions WHERE id = $1", [versionId]);
    return row === undefined ? null : toAgentVersion(row);
  }

  async getVersionByNumber(agentId: string, versionNumber: number): Promise<AgentVersionRecord | null> {
    const row = await this.row<AgentVersionRow>(
      "SELECT * FROM agent_versions WHERE agent_id = $1 AND version_number = $2",
      [agentId, versionNumber],
    );
    return row === undefined ? null : toAgentVersion(row);
  }

  /** Newest first. */
  async listVersions(
    agentId: string,
    page: PageRequest,
  ): Promise<{ items: AgentVersionRecord[]; total: number }> {
    const counted = await this.row<{ n: string }>(
      "SELECT count(*) AS n FROM agent_versions WHERE agent_id = $1",
      [agentId],
    );
    const rows = await this.rows<AgentVersionRow>(
      "SELECT * FROM agent_versions WHERE agent_id = $1 ORDER BY version_number DESC LIMIT $2 OFFSET $3",
      [agentId, page.size, pageOffset(page)],
    );
    return { items: rows.map(toAgentVersion), total: Number(counted?.n ?? 0) };
  }

  /** The newest active version, or null while none is active. */
  async latestVersion(agentId: string): Promise<AgentVersionRecord | null> {
    const row = await this.row<AgentVersionRow>(
      "SELECT * FROM agent_versions WHERE agent_id = $1 AND active ORDER BY version_number DESC LIMIT 1",
      [agentId],
    );
    return row === undefined ? null : toAgentVersion(row);
  }

  /** Soft delete: the version stays readable but inactive. */
  async deactivateVersion(agentId: string, versionId: string): Promise<boolean> {
    return (
      (await this.changes(
        `UPDATE agent_versions SET active = false, deactivated_at = $3
           WHERE agent_id = $1 AND id = $2 AND active RETURNING 1`,
        [agentId, versionId, this.clock.now()],
      )) > 0
    );
  }

  // ---- labels ----

  /** By name. */
  async listLabels(agentId: string): Promise<AgentLabelRecord[]> {
    const rows = await this.rows<AgentLabelRow>(
      `SELECT ${LABEL_COLUMNS} FROM agent_labels WHERE agent_id = $1 ORDER BY name`,
      [agentId],
    );
    return rows.map(toAgentLabel);
  }

  async getLabel(agentId: string, name: string): Promise<AgentLabelRecord | null> {
    if (matchesNoRow(agentId, name)) return null;
    const row = await this.row<AgentLabelRow>(
      `SELECT ${LABEL_COLUMNS} FROM agent_labels WHERE agent_id = $1 AND name = $2`,
      [agentId, name],
    );
    return row === undefined ? null : toAgentLabel(row);
  }

  /** Creates a label; false when one of that name exists. */
  async createLabel(agentId: string, name: string, versionId: string): Promise<boolean> {
    const now = this.clock.now();
    return (
      (await this.changes(
        `INSERT INTO agent_labels (agent_id, name, agent_version_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
           ON CONFLICT (agent_id, name) DO NOTHING RETURNING 1`,
        [agentId, name, versionId, now],
      )) > 0
    );
  }

  async updateLabel(agentId: string, name: string, versionId: string): Promise<boolean> {
    return (
      (await this.changes(
        "UPDATE agent_labels SET agent_version_id = $3, updated_at = $4 WHERE agent_id = $1 AND name = $2 RETURNING 1",
        [agentId, name, versionId, this.clock.now()],
      )) > 0
    );
  }

  async deleteLabel(agentId: string, name: string): Promise<boolean> {
    return (
      (await this.changes("DELETE FROM agent_labels WHERE agent_id = $1 AND name = $2 RETURNING 1", [
        agentId,
        name,
      ])) > 0
    );
  }

  // ---- conversations ----

  async createConversation(
    organizationId: string,
    agentId: string | null,
    mode: AgentMode,
    extra: { title?: string | null; metadata?: Record<string, string>; createdByKeyId?: string } = {},
  ): Promise<AgentConversationRecord> {
    const now = this.clock.now();
    const row = await this.row<ConversationRow>(
      `INSERT INTO agent_conversations (id, organization_id, agent_id, mode, remembered, title, metadata,
           created_by_key_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, '[]', $5, $6, $7, $8, $8) RETURNING *`,
      [
        this.ids("conv"),
        organizationId,
        agentId,
        mode,
        extra.title ?? null,
        JSON.stringify(extra.metadata ?? {}),
        extra.createdByKeyId ?? "",
        now,
      ],
    );
    return toConversation(row as ConversationRow);
  }

  async getConversation(organizationId: string, id: string): Promise<AgentConversationRecord | null> {
    const row = await this.row<ConversationRow>(
      "SELECT * FROM agent_conversations WHERE organization_id = $1 AND id = $2",
      [organizationId, id],
    );
    return row === undefined ? null : toConversation(row);
  }

  async updateConversation(
    id: string,
    changes: {
      mode?: AgentMode;
      remembered?: string[];
      lastResponseId?: string;
      agentId?: string;
      title?: string | null;
      metadata?: Record<string, string>;
    },
  ): Promise<void> {
    const params: unknown[] = [id, this.clock.now()];
    const sets = ["updated_at = $2"];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (changes.agentId !== undefined) set("agent_id", changes.agentId);
    if (changes.title !== undefined) set("title", changes.title);
    if (changes.metadata !== undefined) set("metadata", JSON.stringify(changes.metadata));
    if (changes.mode !== undefined) set("mode", changes.mode);
    if (changes.remembered !== undefined) set("remembered", JSON.stringify(changes.remembered));
    if (changes.lastResponseId !== undefined) set("last_response_id", changes.lastResponseId);
    await this.db.query(`UPDATE agent_conversations SET ${sets.join(", ")} WHERE id = $1`, params);
  }

  // ---- runs ----

  /** Inserts or replaces the state of one response. */
  async saveRun(input: RunInput): Promise<void> {
    await this.db.query(
      `INSERT INTO agent_runs (id, organization_id, agent_id, conversation_id, previous_response_id, status, state,
           paused_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, state = excluded.state,
           paused_at = excluded.paused_at, updated_at = excluded.updated_at`,
      [
        input.id,
        input.organizationId,
        input.agentId,
        input.conversationId,
        input.previousResponseId,
        input.status,
        JSON.stringify(input.state),
        input.pausedAt,
        this.clock.now(),
      ],
    );
  }

  async getRun(organizationId: string, id: string): Promise<AgentRunRecord | null> {
    const row = await this.row<RunRow>("SELECT * FROM agent_runs WHERE organization_id = $1 AND id = $2", [
      organizationId,
      id,
    ]);
    return row === undefined ? null : toRun(row);
  }

  /**
   * Marks a paused response as continued by `continuationId`, only if nobody did so before;
   * false when it was already continued (one statement: of two racing, one wins).
   */
  async claimContinuation(organizationId: string, id: string, continuationId: string): Promise<boolean> {
    return (
      (await this.changes(
        `UPDATE agent_runs SET continued_by = $3, updated_at = $4
           WHERE organization_id = $1 AND id = $2 AND continued_by IS NULL RETURNING 1`,
        [organizationId, id, continuationId, this.clock.now()],
      )) > 0
    );
  }

  /** Claims the paused response `pausedId` for the continuation `run` and stores `run`, in one transaction. */
  async claimAndSaveRun(organizationId: string, pausedId: string, run: RunInput): Promise<boolean> {
    return this.inTransaction(async () => {
      if (!(await this.claimContinuation(organizationId, pausedId, run.id))) return false;
      await this.saveRun(run);
      // The conversation follows its continuation at once: never "idle" on a claimed pause.
      await this.updateConversation(run.conversationId, { lastResponseId: run.id });
      return true;
    });
  }

  /** Closes a response for good: marks it continued by itself and stores its final state, in one transaction. */
  async closeRun(run: RunInput): Promise<void> {
    await this.inTransaction(async () => {
      await this.claimContinuation(run.organizationId, run.id, run.id);
      await this.saveRun(run);
    });
  }

  /** Responses of an agent in a given status, oldest first. */
  async listRunsByStatus(
    organizationId: string,
    agentId: string,
    statuses: readonly string[],
  ): Promise<AgentRunRecord[]> {
    if (statuses.length === 0) return [];
    const rows = await this.rows<RunRow>(
      `SELECT * FROM agent_runs WHERE organization_id = $1 AND agent_id = $2 AND continued_by IS NULL
           AND status = ANY($3::text[]) ORDER BY created_at, id`,
      [organizationId, agentId, [...statuses]],
    );
    return rows.map(toRun);
  }
}
