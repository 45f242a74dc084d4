/**
 * Connectors (PLATFORM.md §5.3): remote MCP servers of an organization, each member's
 * connection (a bearer token sealed with the connector id and the key id as associated
 * data, as provider keys are — G21), allowances per agent, the last `tools/list` per
 * member, and the input requests (elicitations) of runs. The rules live in the platform's
 * connector service; this store only reads and writes rows. Tokens leave this class only
 * through `tokenOf`, for a call to the connector.
 */
import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import {
  type AllowanceRecord,
  type AllowanceRow,
  boundTo,
  type CachedTool,
  type ConnectionRow,
  type ConnectionStateRow,
  type ConnectorChanges,
  type ConnectorRecord,
  type ConnectorRow,
  type InputRequestRecord,
  type InputRequestStatus,
  type InputRow,
  type NewConnector,
  type NewInputRequest,
  type QuestionOwner,
  type ToolListRow,
  toAllowance,
  toConnection,
  toConnector,
  toInput,
  toToolList,
} from "@groundwork/store-rows";
import type { Database, Statement } from "better-sqlite3";
import type { CredentialCipher } from "./credential-cipher.js";
import { statementCache } from "./statement-cache.js";

export type {
  AllowanceRecord,
  CachedTool,
  ConnectionRow,
  ConnectorAuthKind,
  ConnectorChanges,
  ConnectorRecord,
  InputMode,
  InputRequestRecord,
  InputRequestStatus,
  NewConnector,
  NewInputRequest,
  QuestionOwner,
} from "@groundwork/store-rows";

export class ConnectorStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    private readonly db: Database,
    private readonly cipher: CredentialCipher,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
  }

  // ---- connectors ----

  create(organizationId: string, input: NewConnector): ConnectorRecord {
    const now = this.clock.now();
    const id = this.ids("cnr");
    this.sql(
      `INSERT INTO connectors (id, organization_id, server_label, url, host, auth_kind, description, agent_ids, enabled, plugin_id, created_at, updated_at)
       VALUES (@id, @organizationId, @serverLabel, @url, @host, @authKind, @description, @agentIds, @enabled, @pluginId, @now, @now)`,
    ).run({
      id,
      organizationId,
      serverLabel: input.serverLabel,
      url: input.url,
      host: input.host,
      authKind: input.authKind,
      description: input.description,
      agentIds: input.agentIds === null ? null : JSON.stringify(input.agentIds),
      enabled: input.enabled ? 1 : 0,
      pluginId: input.pluginId,
      now,
    });
    return this.get(organizationId, id) as ConnectorRecord;
  }

  get(organizationId: string, id: string): ConnectorRecord | null {
    const row = this.sql("SELECT * FROM connectors WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as ConnectorRow | undefined;
    return row === undefined ? null : toConnector(row);
  }

  getByLabel(organizationId: string, serverLabel: string): ConnectorRecord | null {
    const row = this.sql("SELECT * FROM connectors WHERE organization_id = ? AND server_label = ?").get(
      organizationId,
      serverLabel,
    ) as ConnectorRow | undefined;
    return row === undefined ? null : toConnector(row);
  }

  /** Newest first. */
  list(organizationId: string, offset: number, limit: number): { items: ConnectorRecord[]; total: number } {
    const rows = this.sql(
      "SELECT * FROM connectors WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
    ).all(organizationId, limit, offset) as ConnectorRow[];
    const { total } = this.sql("SELECT COUNT(*) AS total FROM connectors WHERE organization_id = ?").get(
      organizationId,
    ) as { total: number };
    return { items: rows.map(toConnector), total };
  }

  /** Every connector of the organization, oldest first (run pre-flight, plugins). */
  all(organizationId: string): ConnectorRecord[] {
    return (
      this.sql("SELECT * FROM connectors WHERE organization_id = ? ORDER BY created_at, id").all(
        organizationId,
      ) as ConnectorRow[]
    ).map(toConnector);
  }

  /** Applies the changes; a changed `authKind` drops every member's connection in the same transaction. */
  update(organizationId: string, id: string, changes: ConnectorChanges): ConnectorRecord | null {
    return this.db.transaction(() => {
      const current = this.get(organizationId, id);
      if (current === null) return null;
      const next = { ...current, ...changes };
      this.sql(
        `UPDATE connectors SET url = @url, host = @host, auth_kind = @authKind, description = @description,
           agent_ids = @agentIds, enabled = @enabled, updated_at = @now WHERE id = @id`,
      ).run({
        id,
        url: next.url,
        host: next.host,
        authKind: next.authKind,
        description: next.description,
        agentIds: next.agentIds === null ? null : JSON.stringify(next.agentIds),
        enabled: next.enabled ? 1 : 0,
        now: this.clock.now(),
      });
      if (next.authKind !== current.authKind) {
        this.sql("DELETE FROM connector_connections WHERE connector_id = ?").run(id);
      }
      if (next.url !== current.url) {
        this.sql("DELETE FROM connector_tool_lists WHERE connector_id = ?").run(id);
      }
      return this.get(organizationId, id);
    })();
  }

  /** Removes the connector with its connections, allowances and tool lists. */
  delete(organizationId: string, id: string): boolean {
    return (
      this.sql("DELETE FROM connectors WHERE organization_id = ? AND id = ?").run(organizationId, id)
        .changes > 0
    );
  }

  // ---- connections ----

  connection(connectorId: string, memberId: string): ConnectionRow | null {
    const row = this.sql(
      "SELECT status, connected_at FROM connector_connections WHERE connector_id = ? AND member_id = ?",
    ).get(connectorId, memberId) as ConnectionStateRow | undefined;
    return row === undefined ? null : toConnection(row);
  }

  /** Stores (or replaces) the member's token, sealed; the connection is `connected`. */
  connect(connectorId: string, memberId: string, token: string): void {
    this.sql(
      `INSERT INTO connector_connections (connector_id, member_id, status, token_encrypted, connected_at)
       VALUES (@connectorId, @memberId, 'connected', @token, @now)
       ON CONFLICT (connector_id, member_id) DO UPDATE SET status = 'connected', token_encrypted = @token, connected_at = @now`,
    ).run({
      connectorId,
      memberId,
      token: this.cipher.encrypt(token, boundTo(connectorId, memberId)),
      now: this.clock.now(),
    });
  }

  /** The member's token, decrypted for a call; null when none is stored. */
  tokenOf(connectorId: string, memberId: string): string | null {
    const row = this.sql(
      "SELECT token_encrypted FROM connector_connections WHERE connector_id = ? AND member_id = ?",
    ).get(connectorId, memberId) as { token_encrypted: string | null } | undefined;
    if (row?.token_encrypted == null) return null;
    return this.cipher.decrypt(row.token_encrypted, boundTo(connectorId, memberId));
  }

  markExpired(connectorId: string, memberId: string): void {
    this.sql(
      "UPDATE connector_connections SET status = 'expired' WHERE connector_id = ? AND member_id = ?",
    ).run(connectorId, memberId);
  }

  /** Drops every member's connection (a plugin update that moved the connector to another host). */
  disconnectAll(connectorId: string): number {
    return this.sql("DELETE FROM connector_connections WHERE connector_id = ?").run(connectorId).changes;
  }

  disconnect(connectorId: string, memberId: string): boolean {
    return (
      this.sql("DELETE FROM connector_connections WHERE connector_id = ? AND member_id = ?").run(
        connectorId,
        memberId,
      ).changes > 0
    );
  }

  // ---- allowances ----

  allowances(connectorId: string, memberId: string): AllowanceRecord[] {
    const rows = this.sql(
      "SELECT agent_id, destinations, allowed_at FROM connector_allowances WHERE connector_id = ? AND member_id = ? ORDER BY allowed_at, agent_id",
    ).all(connectorId, memberId) as AllowanceRow[];
    return rows.map(toAllowance);
  }

  allow(connectorId: string, memberId: string, agentId: string, destinations: string[]): void {
    this.sql(
      `INSERT INTO connector_allowances (connector_id, member_id, agent_id, destinations, allowed_at)
       VALUES (@connectorId, @memberId, @agentId, @destinations, @now)
       ON CONFLICT (connector_id, member_id, agent_id) DO UPDATE SET destinations = @destinations, allowed_at = @now`,
    ).run({
      connectorId,
      memberId,
      agentId,
      destinations: JSON.stringify(destinations),
      now: this.clock.now(),
    });
  }

  disallow(connectorId: string, memberId: string, agentId: string): boolean {
    return (
      this.sql(
        "DELETE FROM connector_allowances WHERE connector_id = ? AND member_id = ? AND agent_id = ?",
      ).run(connectorId, memberId, agentId).changes > 0
    );
  }

  // ---- tool lists ----

  saveToolList(connectorId: string, memberId: string, tools: CachedTool[]): void {
    this.sql(
      `INSERT INTO connector_tool_lists (connector_id, member_id, tools, listed_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (connector_id, member_id) DO UPDATE SET tools = excluded.tools, listed_at = excluded.listed_at`,
    ).run(connectorId, memberId, JSON.stringify(tools), this.clock.now());
  }

  toolList(connectorId: string, memberId: string): { tools: CachedTool[]; listedAt: number } | null {
    const row = this.sql(
      "SELECT tools, listed_at FROM connector_tool_lists WHERE connector_id = ? AND member_id = ?",
    ).get(connectorId, memberId) as ToolListRow | undefined;
    return row === undefined ? null : toToolList(row);
  }

  // ---- input requests ----

  /** An open question; `owner` is the process that holds its call and that process's lease. */
  createInput(input: NewInputRequest, owner?: QuestionOwner): InputRequestRecord {
    const id = this.ids("inp");
    this.sql(
      `INSERT INTO connector_inputs (id, organization_id, member_id, response_id, connector_id, server_label, tool, call_id, mode, message, requested_schema, url, status, created_at, expires_at, owner_id, owner_expires_at)
       VALUES (@id, @organizationId, @memberId, @responseId, @connectorId, @serverLabel, @tool, @callId, @mode, @message, @requestedSchema, @url, 'open', @now, @expiresAt, @ownerId, @ownerExpiresAt)`,
    ).run({
      ...input,
      id,
      requestedSchema: input.requestedSchema === null ? null : JSON.stringify(input.requestedSchema),
      now: this.clock.now(),
      ownerId: owner?.id ?? null,
      ownerExpiresAt: owner?.expiresAt ?? null,
    });
    return this.getInput(input.organizationId, id) as InputRequestRecord;
  }

  getInput(organizationId: string, id: string): InputRequestRecord | null {
    const row = this.sql("SELECT * FROM connector_inputs WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as InputRow | undefined;
    return row === undefined ? null : toInput(row);
  }

  /** Closes an open request; false when it was no longer open. */
  closeInput(
    id: string,
    status: Exclude<InputRequestStatus, "open">,
    answer: { action: "accept" | "decline" | "cancel"; content: Record<string, unknown> | null },
  ): boolean {
    return (
      this.sql(
        `UPDATE connector_inputs SET status = @status, action = @action, content = @content, answered_at = @now
         WHERE id = @id AND status = 'open'`,
      ).run({
        id,
        status,
        action: answer.action,
        content: answer.content === null ? null : JSON.stringify(answer.content),
        now: this.clock.now(),
      }).changes > 0
    );
  }

  /** Renews the owner's lease of those of the questions that are still open. */
  renewInputs(ids: readonly string[], ownerExpiresAt: number): void {
    if (ids.length === 0) return;
    this.sql(
      `UPDATE connector_inputs SET owner_expires_at = ?
         WHERE status = 'open' AND id IN (SELECT value FROM json_each(?))`,
    ).run(ownerExpiresAt, JSON.stringify(ids));
  }

  /**
   * Open requests whose call no live process holds, oldest first: no owner recorded, the owner's
   * lease lapsed before `now`, or (a start) the owner is `ownerId` — an earlier run in this process.
   */
  orphanedInputs(now: number, ownerId: string | null): InputRequestRecord[] {
    return (
      this.sql(
        `SELECT * FROM connector_inputs WHERE status = 'open'
           AND (owner_id IS NULL OR owner_expires_at < @now OR owner_id = @ownerId)
         ORDER BY created_at, id`,
      ).all({ now, ownerId }) as InputRow[]
    ).map(toInput);
  }

  /** Every open request (a start after a restart cancels them: their calls are gone). */
  openInputs(): InputRequestRecord[] {
    return (
      this.sql(
        "SELECT * FROM connector_inputs WHERE status = 'open' ORDER BY created_at, id",
      ).all() as InputRow[]
    ).map(toInput);
  }
}
