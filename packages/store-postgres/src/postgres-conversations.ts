/**
 * Conversations as a resource on PostgreSQL (PLATFORM.md §2): store-sqlite's
 * `ConversationStore`, asynchronous, on the same rows (@groundwork/store-rows): the listing with
 * the fields derived from the responses, the items in order, deletion with the stored runs and
 * stored responses (`stored_responses` is the stored-responses family's table).
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  type ConversationFilter,
  type ConversationItemRecord,
  type ConversationItemRow,
  type ConversationView,
  type ConversationViewRow,
  toConversationItem,
  toConversationView,
} from "@groundwork/store-rows";
import { PostgresFamily } from "./postgres-family.js";

/** The conversations of organization `$1` with their derived fields, as SQLite's view computes them. */
const VIEW = `SELECT * FROM (
  SELECT c.*, a.name AS agent_name,
    CASE WHEN r.status = 'in_progress' THEN 'in_progress'
         WHEN r.status IN ('requires_approval', 'requires_tool_output') AND r.continued_by IS NULL THEN 'paused'
         ELSE 'idle' END AS status,
    (SELECT count(*) FROM agent_runs t WHERE t.conversation_id = c.id) AS turn_count,
    coalesce((SELECT max(t.created_at) FROM agent_runs t WHERE t.conversation_id = c.id), c.created_at) AS last_activity_at
  FROM agent_conversations c
  LEFT JOIN agents a ON a.id = c.agent_id
  LEFT JOIN agent_runs r ON r.id = c.last_response_id
  WHERE c.organization_id = $1
) v`;

export class PostgresConversationStore extends PostgresFamily {
  async get(organizationId: string, id: string): Promise<ConversationView | null> {
    const row = await this.row<ConversationViewRow>(`${VIEW} WHERE v.id = $2`, [organizationId, id]);
    return row === undefined ? null : toConversationView(row);
  }

  /** Newest activity first. */
  async list(
    organizationId: string,
    filter: ConversationFilter,
    page: PageRequest,
  ): Promise<{ items: ConversationView[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [organizationId];
    for (const [column, value] of [
      ["agent_id", filter.agentId],
      ["mode", filter.mode],
      ["status", filter.status],
    ] as const) {
      if (value !== undefined) {
        params.push(value);
        where.push(`v.${column} = $${params.length}`);
      }
    }
    const clause = where.length === 0 ? "" : ` WHERE ${where.join(" AND ")}`;
    const counted = await this.row<{ n: string }>(
      `SELECT count(*) AS n FROM (${VIEW}${clause}) counted`,
      params,
    );
    const rows = await this.rows<ConversationViewRow>(
      `${VIEW}${clause} ORDER BY v.last_activity_at DESC, v.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.size, pageOffset(page)],
    );
    return { items: rows.map(toConversationView), total: Number(counted?.n ?? 0) };
  }

  /** Deletes the conversation with its items, stored runs and stored responses. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    return this.inTransaction(async () => {
      // An agent answer is stored under its run's id; the run names the conversation.
      await this.db.query(
        `DELETE FROM stored_responses WHERE organization_id = $1 AND (conversation_id = $2
           OR id IN (SELECT id FROM agent_runs WHERE organization_id = $1 AND conversation_id = $2))`,
        [organizationId, id],
      );
      await this.db.query("DELETE FROM agent_runs WHERE organization_id = $1 AND conversation_id = $2", [
        organizationId,
        id,
      ]);
      return (
        (await this.changes(
          "DELETE FROM agent_conversations WHERE organization_id = $1 AND id = $2 RETURNING 1",
          [organizationId, id],
        )) > 0
      );
    });
  }

  /** Appends items after the conversation's last one, in one transaction; the records added. */
  async appendItems(
    conversationId: string,
    responseId: string | null,
    items: ReadonlyArray<{ type: string; data: Record<string, unknown> }>,
  ): Promise<ConversationItemRecord[]> {
    if (items.length === 0) return [];
    const now = this.clock.now();
    return this.inTransaction(async () => {
      // Locked: two appends to one conversation take consecutive positions, as SQLite's single writer does.
      await this.db.query("SELECT 1 FROM agent_conversations WHERE id = $1 FOR UPDATE", [conversationId]);
      const next = await this.row<{ n: number }>(
        "SELECT coalesce(max(position), -1) + 1 AS n FROM conversation_items WHERE conversation_id = $1",
        [conversationId],
      );
      let position = Number(next?.n ?? 0);
      const records: ConversationItemRecord[] = [];
      for (const item of items) {
        const record: ConversationItemRecord = {
          id: this.ids("item"),
          conversationId,
          responseId,
          position: position++,
          type: item.type,
          data: item.data,
          createdAt: now,
        };
        await this.db.query(
          `INSERT INTO conversation_items (id, conversation_id, response_id, position, type, data, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [record.id, conversationId, responseId, record.position, item.type, JSON.stringify(item.data), now],
        );
        records.push(record);
      }
      return records;
    });
  }

  async listItems(
    conversationId: string,
    options: { order: "asc" | "desc"; type?: string | undefined; responseId?: string | undefined },
    page: PageRequest,
  ): Promise<{ items: ConversationItemRecord[]; total: number }> {
    const where = ["conversation_id = $1"];
    const params: unknown[] = [conversationId];
    if (options.type !== undefined) {
      params.push(options.type);
      where.push(`type = $${params.length}`);
    }
    if (options.responseId !== undefined) {
      params.push(options.responseId);
      where.push(`response_id = $${params.length}`);
    }
    const clause = where.join(" AND ");
    const counted = await this.row<{ n: string }>(
      `SELECT count(*) AS n FROM conversation_items WHERE ${clause}`,
      params,
    );
    const rows = await this.rows<ConversationItemRow>(
      `SELECT * FROM conversation_items WHERE ${clause} ORDER BY position ${options.order === "asc" ? "ASC" : "DESC"}
         LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.size, pageOffset(page)],
    );
    return { items: rows.map(toConversationItem), total: Number(counted?.n ?? 0) };
  }

  async countItems(conversationId: string): Promise<number> {
    const row = await this.row<{ n: string }>(
      "SELECT count(*) AS n FROM conversation_items WHERE conversation_id = $1",
      [conversationId],
    );
    return Number(row?.n ?? 0);
  }

  /** The states of the conversation's responses, oldest first (for the summary's sums). */
  async runStates(organizationId: string, conversationId: string): Promise<unknown[]> {
    const rows = await this.rows<{ state: string }>(
      "SELECT state FROM agent_runs WHERE organization_id = $1 AND conversation_id = $2 ORDER BY created_at, id",
      [organizationId, conversationId],
    );
    return rows.map((row) => JSON.parse(row.state) as unknown);
  }
}
