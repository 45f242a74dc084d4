/**
 * Conversations as a resource (PLATFORM.md §2): the listing with the fields derived from
 * their responses (status, turn count, last activity), the items each response appended in
 * order, and deletion with the stored runs.
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
  type ConversationFilter,
  type ConversationItemRecord,
  type ConversationItemRow,
  type ConversationView,
  type ConversationViewRow,
  toConversationItem,
  toConversationView,
} from "@groundwork/store-rows";
import type { Database, Statement } from "better-sqlite3";
import { statementCache } from "./statement-cache.js";

export type {
  ConversationFilter,
  ConversationItemRecord,
  ConversationStatus,
  ConversationView,
} from "@groundwork/store-rows";

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
  WHERE c.organization_id = ?
) v`;

export class ConversationStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
  }

  get(organizationId: string, id: string): ConversationView | null {
    const row = this.sql(`${VIEW} WHERE v.id = ?`).get(organizationId, id) as ConversationViewRow | undefined;
    return row === undefined ? null : toConversationView(row);
  }

  /** Newest activity first. */
  list(
    organizationId: string,
    filter: ConversationFilter,
    page: PageRequest,
  ): { items: ConversationView[]; total: number } {
    const where: string[] = [];
    const params: unknown[] = [organizationId];
    for (const [column, value] of [
      ["agent_id", filter.agentId],
      ["mode", filter.mode],
      ["status", filter.status],
    ] as const) {
      if (value !== undefined) {
        where.push(`v.${column} = ?`);
        params.push(value);
      }
    }
    const clause = where.length === 0 ? "" : ` WHERE ${where.join(" AND ")}`;
    const total = (this.sql(`SELECT count(*) AS n FROM (${VIEW}${clause})`).get(...params) as { n: number })
      .n;
    const rows = this.sql(
      `${VIEW}${clause} ORDER BY v.last_activity_at DESC, v.id DESC LIMIT ? OFFSET ?`,
    ).all(...params, page.size, pageOffset(page)) as ConversationViewRow[];
    return { items: rows.map(toConversationView), total };
  }

  /** Deletes the conversation with its items, stored runs and stored responses. */
  delete(organizationId: string, id: string): boolean {
    return this.db.transaction(() => {
      // An agent answer is stored under its run's id; the run names the conversation.
      this.sql(
        `DELETE FROM stored_responses WHERE organization_id = ? AND (conversation_id = ?
           OR id IN (SELECT id FROM agent_runs WHERE organization_id = ? AND conversation_id = ?))`,
      ).run(organizationId, id, organizationId, id);
      this.sql("DELETE FROM agent_runs WHERE organization_id = ? AND conversation_id = ?").run(
        organizationId,
        id,
      );
      return (
        this.sql("DELETE FROM agent_conversations WHERE organization_id = ? AND id = ?").run(
          organizationId,
          id,
        ).changes > 0
      );
    })();
  }

  /** Appends items after the conversation's last one, in one transaction; the records added. */
  appendItems(
    conversationId: string,
    responseId: string | null,
    items: ReadonlyArray<{ type: string; data: Record<string, unknown> }>,
  ): ConversationItemRecord[] {
    if (items.length === 0) return [];
    const now = this.clock.now();
    return this.db.transaction(() => {
      let position = (
        this.sql(
          "SELECT coalesce(max(position), -1) + 1 AS n FROM conversation_items WHERE conversation_id = ?",
        ).get(conversationId) as { n: number }
      ).n;
      const insert = this.sql(
        `INSERT INTO conversation_items (id, conversation_id, response_id, position, type, data, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      return items.map((item) => {
        const record: ConversationItemRecord = {
          id: this.ids("item"),
          conversationId,
          responseId,
          position: position++,
          type: item.type,
          data: item.data,
          createdAt: now,
        };
        insert.run(
          record.id,
          conversationId,
          responseId,
          record.position,
          item.type,
          JSON.stringify(item.data),
          now,
        );
        return record;
      });
    })();
  }

  listItems(
    conversationId: string,
    options: { order: "asc" | "desc"; type?: string | undefined; responseId?: string | undefined },
    page: PageRequest,
  ): { items: ConversationItemRecord[]; total: number } {
    const where = ["conversation_id = ?"];
    const params: unknown[] = [conversationId];
    if (options.type !== undefined) {
      where.push("type = ?");
      params.push(options.type);
    }
    if (options.responseId !== undefined) {
      where.push("response_id = ?");
      params.push(options.responseId);
    }
    const clause = where.join(" AND ");
    const total = (
      this.sql(`SELECT count(*) AS n FROM conversation_items WHERE ${clause}`).get(...params) as { n: number }
    ).n;
    const rows = this.sql(
      `SELECT * FROM conversation_items WHERE ${clause} ORDER BY position ${options.order === "asc" ? "ASC" : "DESC"} LIMIT ? OFFSET ?`,
    ).all(...params, page.size, pageOffset(page)) as ConversationItemRow[];
    return { items: rows.map(toConversationItem), total };
  }

  countItems(conversationId: string): number {
    return (
      this.sql("SELECT count(*) AS n FROM conversation_items WHERE conversation_id = ?").get(
        conversationId,
      ) as {
        n: number;
      }
    ).n;
  }

  /** The states of the conversation's responses, oldest first (for the summary's sums). */
  runStates(organizationId: string, conversationId: string): unknown[] {
    const rows = this.sql(
      "SELECT state FROM agent_runs WHERE organization_id = ? AND conversation_id = ? ORDER BY created_at, id",
    ).all(organizationId, conversationId) as Array<{ state: string }>;
    return rows.map((row) => JSON.parse(row.state) as unknown);
  }
}
