/**
 * Agents (spec document 3): records found by exact name, immutable numbered versions holding
 * the validated definition file, labels, conversations (mode, remembered tools) and the
 * persisted state of each agent response, so a paused run survives a restart.
 */
import {
  type Clock,
  defaultIdGenerator,
  type IdGenerator,
  type PageRequest,
  pageOffset,
  systemClock,
} from "@groundwork/core";
import {
  type AgentConversationRecord,
  type AgentLabelRecord,
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
import type { Database } from "better-sqlite3";
import type { LabelRow } from "./label-table.js";
import { VersionedStore } from "./versioned-store.js";

export type {
  AgentConversationRecord,
  AgentLabelRecord,
  AgentMode,
  AgentRecord,
  AgentRunRecord,
  AgentVersionRecord,
  ConversationRow,
  RunInput,
} from "@groundwork/store-rows";
export { toConversation } from "@groundwork/store-rows";

export class AgentStore extends VersionedStore<AgentVersionRow, AgentVersionRecord, AgentLabelRecord> {
  constructor(db: Database, clock: Clock = systemClock, ids: IdGenerator = defaultIdGenerator) {
    super(
      db,
      clock,
      ids,
      {
        parent: "agents",
        owner: "agent_id",
        versions: "agent_versions",
        labels: "agent_labels",
        labelVersion: "agent_version_id",
        // No `latest` label: agents resolve to the newest active version directly.
        latest: false,
      },
      toAgentVersion,
    );
  }

  // ---- agents ----

  /** Creates the agent with its first version; null when the name is taken. */
  create(
    organizationId: string,
    input: { name: string; description: string | null; definition: Record<string, unknown> },
  ): { agent: AgentRecord; version: AgentVersionRecord } | null {
    const id = this.ids("agt");
    const now = this.clock.now();
    let versionId = "";
    const created = this.db.transaction(() => {
      const inserted = this.sql(
        `INSERT INTO agents (id, organization_id, name, description, published, created_at, updated_at)
           VALUES (?, ?, ?, ?, 0, ?, ?) ON CONFLICT (organization_id, name) DO NOTHING`,
      ).run(id, organizationId, input.name, input.description, now, now);
      if (inserted.changes === 0) return false;
      versionId = this.insertVersion(id, input.definition, null, now);
      return true;
    })();
    if (!created) return null;
    return {
      agent: this.get(organizationId, id) as AgentRecord,
      version: this.versionById(versionId) as AgentVersionRecord,
    };
  }

  get(organizationId: string, id: string): AgentRecord | null {
    const row = this.sql("SELECT * FROM agents WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as AgentRow | undefined;
    return row === undefined ? null : toAgent(row);
  }

  getByName(organizationId: string, name: string): AgentRecord | null {
    const row = this.sql("SELECT * FROM agents WHERE organization_id = ? AND name = ?").get(
      organizationId,
      name,
    ) as AgentRow | undefined;
    return row === undefined ? null : toAgent(row);
  }

  /** Newest first; `publishedOnly` for the catalog. */
  list(
    organizationId: string,
    page: PageRequest,
    options: { publishedOnly?: boolean } = {},
  ): { items: AgentRecord[]; total: number } {
    const filter = options.publishedOnly === true ? " AND published = 1" : "";
    const total = (
      this.sql(`SELECT count(*) AS n FROM agents WHERE organization_id = ?${filter}`).get(organizationId) as {
        n: number;
      }
    ).n;
    const rows = this.sql(
      `SELECT * FROM agents WHERE organization_id = ?${filter} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(organizationId, page.size, pageOffset(page)) as AgentRow[];
    return { items: rows.map(toAgent), total };
  }

  /** Null when absent; throws nothing on a taken name: the caller checks `getByName` first. */
  update(
    organizationId: string,
    id: string,
    changes: { name?: string; description?: string | null; published?: boolean },
  ): AgentRecord | null {
    const current = this.get(organizationId, id);
    if (current === null) return null;
    this.sql(
      "UPDATE agents SET name = ?, description = ?, published = ?, updated_at = ? WHERE organization_id = ? AND id = ?",
    ).run(
      changes.name ?? current.name,
      changes.description === undefined ? current.description : changes.description,
      (changes.published ?? current.published) ? 1 : 0,
      this.clock.now(),
      organizationId,
      id,
    );
    return this.get(organizationId, id);
  }

  delete(organizationId: string, id: string): boolean {
    return (
      this.sql("DELETE FROM agents WHERE organization_id = ? AND id = ?").run(organizationId, id).changes > 0
    );
  }

  // ---- versions ----

  /** Commits a new active version with the next number. */
  commitVersion(
    agentId: string,
    definition: Record<string, unknown>,
    options: { copiedFromVersionId?: string | null; description?: string | null } = {},
  ): AgentVersionRecord {
    const now = this.clock.now();
    let id = "";
    this.db.transaction(() => {
      id = this.insertVersion(agentId, definition, options.copiedFromVersionId ?? null, now);
      if (options.description !== undefined) {
        this.sql("UPDATE agents SET description = ?, updated_at = ? WHERE id = ?").run(
          options.description,
          now,
          agentId,
        );
      } else {
        this.sql("UPDATE agents SET updated_at = ? WHERE id = ?").run(now, agentId);
      }
    })();
    return this.versionById(id) as AgentVersionRecord;
  }

  private insertVersion(
    agentId: string,
    definition: Record<string, unknown>,
    copiedFrom: string | null,
    now: number,
  ): string {
    const id = this.ids("agv");
    this.versions.insert(
      agentId,
      id,
      { definition: JSON.stringify(definition), copied_from_version_id: copiedFrom },
      now,
    );
    return id;
  }

  getVersion(agentId: string, versionId: string): AgentVersionRecord | null {
    return this.versions.get(agentId, versionId);
  }

  // ---- labels ----

  protected toLabel(row: LabelRow): AgentLabelRecord {
    return toAgentLabel(row);
  }

  // ---- conversations ----

  createConversation(
    organizationId: string,
    agentId: string | null,
    mode: AgentMode,
    extra: { title?: string | null; metadata?: Record<string, string>; createdByKeyId?: string } = {},
  ): AgentConversationRecord {
    const id = this.ids("conv");
    const now = this.clock.now();
    this.sql(
      `INSERT INTO agent_conversations (id, organization_id, agent_id, mode, remembered, title, metadata,
           created_by_key_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, '[]', ?, ?, ?, ?, ?)`,
    ).run(
      id,
      organizationId,
      agentId,
      mode,
      extra.title ?? null,
      JSON.stringify(extra.metadata ?? {}),
      extra.createdByKeyId ?? "",
      now,
      now,
    );
    return this.getConversation(organizationId, id) as AgentConversationRecord;
  }

  getConversation(organizationId: string, id: string): AgentConversationRecord | null {
    const row = this.sql("SELECT * FROM agent_conversations WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as ConversationRow | undefined;
    return row === undefined ? null : toConversation(row);
  }

  updateConversation(
    id: string,
    changes: {
      mode?: AgentMode;
      remembered?: string[];
      lastResponseId?: string;
      agentId?: string;
      title?: string | null;
      metadata?: Record<string, string>;
    },
  ): void {
    const sets: string[] = ["updated_at = ?"];
    const params: unknown[] = [this.clock.now()];
    if (changes.agentId !== undefined) {
      sets.push("agent_id = ?");
      params.push(changes.agentId);
    }
    if (changes.title !== undefined) {
      sets.push("title = ?");
      params.push(changes.title);
    }
    if (changes.metadata !== undefined) {
      sets.push("metadata = ?");
      params.push(JSON.stringify(changes.metadata));
    }
    if (changes.mode !== undefined) {
      sets.push("mode = ?");
      params.push(changes.mode);
    }
    if (changes.remembered !== undefined) {
      sets.push("remembered = ?");
      params.push(JSON.stringify(changes.remembered));
    }
    if (changes.lastResponseId !== undefined) {
      sets.push("last_response_id = ?");
      params.push(changes.lastResponseId);
    }
    this.sql(`UPDATE agent_conversations SET ${sets.join(", ")} WHERE id = ?`).run(...params, id);
  }

  // ---- runs ----

  /** Inserts or replaces the state of one response. */
  saveRun(input: RunInput): void {
    const now = this.clock.now();
    this.sql(
      `INSERT INTO agent_runs (id, organization_id, agent_id, conversation_id, previous_response_id, status, state,
           paused_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, state = excluded.state,
           paused_at = excluded.paused_at, updated_at = excluded.updated_at`,
    ).run(
      input.id,
      input.organizationId,
      input.agentId,
      input.conversationId,
      input.previousResponseId,
      input.status,
      JSON.stringify(input.state),
      input.pausedAt,
      now,
      now,
    );
  }

  getRun(organizationId: string, id: string): AgentRunRecord | null {
    const row = this.sql("SELECT * FROM agent_runs WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as RunRow | undefined;
    return row === undefined ? null : toRun(row);
  }

  /**
   * Marks a paused response as continued by `continuationId`, only if nobody did so before;
   * false when it was already continued (the caller answers 409 or resumes that continuation).
   */
  claimContinuation(organizationId: string, id: string, continuationId: string): boolean {
    return (
      this.sql(
        "UPDATE agent_runs SET continued_by = ?, updated_at = ? WHERE organization_id = ? AND id = ? AND continued_by IS NULL",
      ).run(continuationId, this.clock.now(), organizationId, id).changes > 0
    );
  }

  /**
   * Claims the paused response `pausedId` for the continuation `run` and stores `run`, in one
   * transaction (a crash in between never leaves a claim pointing at nothing); false, and
   * nothing stored, when it was continued meanwhile. The conversation points at `run` from then on.
   */
  claimAndSaveRun(organizationId: string, pausedId: string, run: RunInput): boolean {
    return this.atomically(() => {
      if (!this.claimContinuation(organizationId, pausedId, run.id)) return false;
      this.saveRun(run);
      // The conversation follows its continuation at once: never "idle" on a claimed pause.
      this.updateConversation(run.conversationId, { lastResponseId: run.id });
      return true;
    });
  }

  /** Closes a response for good: marks it continued by itself (never continued again) and stores its final state, in one transaction. */
  closeRun(run: RunInput): void {
    this.atomically(() => {
      this.claimContinuation(run.organizationId, run.id, run.id);
      this.saveRun(run);
    });
  }

  /** Responses of an agent in a given status, oldest first. */
  listRunsByStatus(organizationId: string, agentId: string, statuses: readonly string[]): AgentRunRecord[] {
    if (statuses.length === 0) return [];
    const rows = this.sql(
      `SELECT * FROM agent_runs WHERE organization_id = ? AND agent_id = ? AND continued_by IS NULL
           AND status IN (${statuses.map(() => "?").join(", ")}) ORDER BY created_at, id`,
    ).all(organizationId, agentId, ...statuses) as RunRow[];
    return rows.map(toRun);
  }
}
