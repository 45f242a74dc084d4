/**
 * Connectors on PostgreSQL (PLATFORM.md §5.3): store-sqlite's `ConnectorStore`, asynchronous,
 * on the same rows (@groundwork/store-rows). Members' tokens are sealed by the same credential
 * cipher and bound to the same associated data, so the sealed text is the same format on both
 * stores; tokens leave this class only through `tokenOf`.
 */

import type { Clock, IdGenerator } from "@groundwork/core";
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
import { matchesNoRow, PostgresFamily } from "./postgres-family.js";
import type { SqlClient } from "./sql-client.js";

/** What this store needs of store-sqlite's `CredentialCipher` (AES-256-GCM, the row's binding as associated data). */
export interface CredentialSealer {
  encrypt(plaintext: string, boundTo: string): string;
  decrypt(sealed: string, boundTo: string): string;
}

export class PostgresConnectorStore extends PostgresFamily {
  constructor(
    client: SqlClient,
    private readonly cipher: CredentialSealer,
    clock?: Clock,
    ids?: IdGenerator,
  ) {
    super(client, clock, ids);
  }

  // ---- connectors ----

  async create(organizationId: string, input: NewConnector): Promise<ConnectorRecord> {
    const now = this.clock.now();
    const row = await this.row<ConnectorRow>(
      `INSERT INTO connectors (id, organization_id, server_label, url, host, auth_kind, description, agent_ids,
           enabled, plugin_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING *`,
      [
        this.ids("cnr"),
        organizationId,
        input.serverLabel,
        input.url,
        input.host,
        input.authKind,
        input.description,
        input.agentIds === null ? null : JSON.stringify(input.agentIds),
        input.enabled,
        input.pluginId,
        now,
      ],
    );
    return toConnector(row as ConnectorRow);
  }

  async get(organizationId: string, id: string): Promise<ConnectorRecord | null> {
    if (matchesNoRow(id)) return null;
    const row = await this.row<ConnectorRow>(
      "SELECT * FROM connectors WHERE organization_id = $1 AND id = $2",
      [organizationId, id],
    );
    return row === undefined ? null : toConnector(row);
  }

  async getByLabel(organizationId: string, serverLabel: string): Promise<ConnectorRecord | null> {
    const row = await this.row<ConnectorRow>(
      "SELECT * FROM connectors WHERE organization_id = $1 AND server_label = $2",
      [organizationId, serverLabel],
    );
    return row === undefined ? null : toConnector(row);
  }

  /** Newest first. */
  async list(
    organizationId: string,
    offset: number,
    limit: number,
  ): Promise<{ items: ConnectorRecord[]; total: number }> {
    const rows = await this.rows<ConnectorRow>(
      "SELECT * FROM connectors WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3",
      [organizationId, limit, offset],
    );
    const counted = await this.row<{ total: string }>(
      "SELECT COUNT(*) AS total FROM connectors WHERE organization_id = $1",
      [organizationId],
    );
    return { items: rows.map(toConnector), total: Number(counted?.total ?? 0) };
  }

  /** Every connector of the organization, oldest first (run pre-flight, plugins). */
  async all(organizationId: string): Promise<ConnectorRecord[]> {
    const rows = await this.rows<ConnectorRow>(
      "SELECT * FROM connectors WHERE organization_id = $1 ORDER BY created_at, id",
      [organizationId],
    );
    return rows.map(toConnector);
  }

  /** Applies the changes; a changed `authKind` drops every member's connection in the same transaction. */
  async update(
    organizationId: string,
    id: string,
    changes: ConnectorChanges,
  ): Promise<ConnectorRecord | null> {
    if (matchesNoRow(id)) return null;
    return this.inTransaction(async () => {
      // Locked, so two concurrent updates compare against what the other wrote.
      const row = await this.row<ConnectorRow>(
        "SELECT * FROM connectors WHERE organization_id = $1 AND id = $2 FOR UPDATE",
        [organizationId, id],
      );
      if (row === undefined) return null;
      const current = toConnector(row);
      const next = { ...current, ...changes };
      const updated = await this.row<ConnectorRow>(
        `UPDATE connectors SET url = $2, host = $3, auth_kind = $4, description = $5, agent_ids = $6,
             enabled = $7, updated_at = $8 WHERE id = $1 RETURNING *`,
        [
          id,
          next.url,
          next.host,
          next.authKind,
          next.description,
          next.agentIds === null ? null : JSON.stringify(next.agentIds),
          next.enabled,
          this.clock.now(),
        ],
      );
      if (next.authKind !== current.authKind) {
        await this.db.query("DELETE FROM connector_connections WHERE connector_id = $1", [id]);
      }
      if (next.url !== current.url) {
        await this.db.query("DELETE FROM connector_tool_lists WHERE connector_id = $1", [id]);
      }
      return toConnector(updated as ConnectorRow);
    });
  }

  /** Removes the connector with its connections, allowances and tool lists. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    if (matchesNoRow(id)) return false;
    return (
      (await this.changes("DELETE FROM connectors WHERE organization_id = $1 AND id = $2 RETURNING 1", [
        organizationId,
        id,
      ])) > 0
    );
  }

  // ---- connections ----

  async connection(connectorId: string, memberId: string): Promise<ConnectionRow | null> {
    const row = await this.row<ConnectionStateRow>(
      "SELECT status, connected_at FROM connector_connections WHERE connector_id = $1 AND member_id = $2",
      [connectorId, memberId],
    );
    return row === undefined ? null : toConnection(row);
  }

  /** Stores (or replaces) the member's token, sealed; the connection is `connected`. */
  async connect(connectorId: string, memberId: string, token: string): Promise<void> {
    await this.db.query(
      `INSERT INTO connector_connections (connector_id, member_id, status, token_encrypted, connected_at)
         VALUES ($1, $2, 'connected', $3, $4)
         ON CONFLICT (connector_id, member_id) DO UPDATE SET status = 'connected',
           token_encrypted = excluded.token_encrypted, connected_at = excluded.connected_at`,
      [connectorId, memberId, this.cipher.encrypt(token, boundTo(connectorId, memberId)), this.clock.now()],
    );
  }

  /** The member's token, decrypted for a call; null when none is stored. */
  async tokenOf(connectorId: string, memberId: string): Promise<string | null> {
    const row = await this.row<{ token_encrypted: string | null }>(
      "SELECT token_encrypted FROM connector_connections WHERE connector_id = $1 AND member_id = $2",
      [connectorId, memberId],
    );
    if (row?.token_encrypted == null) return null;
    return this.cipher.decrypt(row.token_encrypted, boundTo(connectorId, memberId));
  }

  async markExpired(connectorId: string, memberId: string): Promise<void> {
    await this.db.query(
      "UPDATE connector_connections SET status = 'expired' WHERE connector_id = $1 AND member_id = $2",
      [connectorId, memberId],
    );
  }

  /** Drops every member's connection (a plugin update that moved the connector to another host). */
  async disconnectAll(connectorId: string): Promise<number> {
    return this.changes("DELETE FROM connector_connections WHERE connector_id = $1 RETURNING 1", [
      connectorId,
    ]);
  }

  async disconnect(connectorId: string, memberId: string): Promise<boolean> {
    return (
      (await this.changes(
        "DELETE FROM connector_connections WHERE connector_id = $1 AND member_id = $2 RETURNING 1",
        [connectorId, memberId],
      )) > 0
    );
  }

  // ---- allowances ----

  async allowances(connectorId: string, memberId: string): Promise<AllowanceRecord[]> {
    const rows = await this.rows<AllowanceRow>(
      `SELECT agent_id, destinations, allowed_at FROM connector_allowances
         WHERE connector_id = $1 AND member_id = $2 ORDER BY allowed_at, agent_id`,
      [connectorId, memberId],
    );
    return rows.map(toAllowance);
  }

  async allow(connectorId: string, memberId: string, agentId: string, destinations: string[]): Promise<void> {
    await this.db.query(
      `INSERT INTO connector_allowances (connector_id, member_id, agent_id, destinations, allowed_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (connector_id, member_id, agent_id) DO UPDATE SET destinations = excluded.destinations,
           allowed_at = excluded.allowed_at`,
      [connectorId, memberId, agentId, JSON.stringify(destinations), this.clock.now()],
    );
  }

  async disallow(connectorId: string, memberId: string, agentId: string): Promise<boolean> {
    return (
      (await this.changes(
        "DELETE FROM connector_allowances WHERE connector_id = $1 AND member_id = $2 AND agent_id = $3 RETURNING 1",
        [connectorId, memberId, agentId],
      )) > 0
    );
  }

  // ---- tool lists ----

  async saveToolList(connectorId: string, memberId: string, tools: CachedTool[]): Promise<void> {
    await this.db.query(
      `INSERT INTO connector_tool_lists (connector_id, member_id, tools, listed_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (connector_id, member_id) DO UPDATE SET tools = excluded.tools, listed_at = excluded.listed_at`,
      [connectorId, memberId, JSON.stringify(tools), this.clock.now()],
    );
  }

  async toolList(
    connectorId: string,
    memberId: string,
  ): Promise<{ tools: CachedTool[]; listedAt: number } | null> {
    const row = await this.row<ToolListRow>(
      "SELECT tools, listed_at FROM connector_tool_lists WHERE connector_id = $1 AND member_id = $2",
      [connectorId, memberId],
    );
    return row === undefined ? null : toToolList(row);
  }

  // ---- input requests ----

  /** An open question; `owner` is the process that holds its call and that process's lease. */
  async createInput(input: NewInputRequest, owner?: QuestionOwner): Promise<InputRequestRecord> {
    const row = await this.row<InputRow>(
      `INSERT INTO connector_inputs (id, organization_id, member_id, response_id, connector_id, server_label, tool,
           call_id, mode, message, requested_schema, url, status, created_at, expires_at, owner_id, owner_expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'open', $13, $14, $15, $16) RETURNING *`,
      [
        this.ids("inp"),
        input.organizationId,
        input.memberId,
        input.responseId,
        input.connectorId,
        input.serverLabel,
        input.tool,
        input.callId,
        input.mode,
        input.message,
        input.requestedSchema === null ? null : JSON.stringify(input.requestedSchema),
        input.url,
        this.clock.now(),
        input.expiresAt,
        owner?.id ?? null,
        owner?.expiresAt ?? null,
      ],
    );
    return toInput(row as InputRow);
  }

  async getInput(organizationId: string, id: string): Promise<InputRequestRecord | null> {
    if (matchesNoRow(id)) return null;
    const row = await this.row<InputRow>(
      "SELECT * FROM connector_inputs WHERE organization_id = $1 AND id = $2",
      [organizationId, id],
    );
    return row === undefined ? null : toInput(row);
  }

  /** Closes an open request; false when it was no longer open. */
  async closeInput(
    id: string,
    status: Exclude<InputRequestStatus, "open">,
    answer: { action: "accept" | "decline" | "cancel"; content: Record<string, unknown> | null },
  ): Promise<boolean> {
    return (
      (await this.changes(
        `UPDATE connector_inputs SET status = $2, action = $3, content = $4, answered_at = $5
           WHERE id = $1 AND status = 'open' RETURNING 1`,
        [
          id,
          status,
          answer.action,
          answer.content === null ? null : JSON.stringify(answer.content),
          this.clock.now(),
        ],
      )) > 0
    );
  }

  /** Renews the owner's lease of those of the questions that are still open. */
  async renewInputs(ids: readonly string[], ownerExpiresAt: number): Promise<void> {
    if (ids.length === 0) return;
    await this.changes(
      "UPDATE connector_inputs SET owner_expires_at = $2 WHERE status = 'open' AND id = ANY($1::text[]) RETURNING 1",
      [ids, ownerExpiresAt],
    );
  }

  /**
   * Open requests whose call no live process holds, oldest first: no owner recorded, the owner's
   * lease lapsed before `now`, or (a start) the owner is `ownerId` — an earlier run in this process.
   */
  async orphanedInputs(now: number, ownerId: string | null): Promise<InputRequestRecord[]> {
    const rows = await this.rows<InputRow>(
      `SELECT * FROM connector_inputs WHERE status = 'open'
         AND (owner_id IS NULL OR owner_expires_at < $1 OR owner_id = $2)
       ORDER BY created_at, id`,
      [now, ownerId],
    );
    return rows.map(toInput);
  }

  /** Every open request, oldest first (a start after a restart cancels them: their calls are gone). */
  async openInputs(): Promise<InputRequestRecord[]> {
    const rows = await this.rows<InputRow>(
      "SELECT * FROM connector_inputs WHERE status = 'open' ORDER BY created_at, id",
    );
    return rows.map(toInput);
  }
}
