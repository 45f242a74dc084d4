/**
 * The `platform_bash` file system of each conversation on PostgreSQL (PLATFORM.md §6):
 * store-sqlite's `BashFileStore`, asynchronous, on the same rows (@groundwork/store-rows).
 *
 * The revision of a committed tree: SQLite's `PRAGMA data_version` tells a connection that
 * another one committed; PostgreSQL has no such counter, so each commit to a conversation's tree
 * also counts in `bash_tree_writes` (same transaction), and `dataVersion` is that count less this
 * store's own commits — it moves exactly when someone else (another process) wrote (PG67).
 */
import type { Clock } from "@groundwork/core";
import {
  type BashFileChange,
  type BashFileRow,
  type BashTreeRevision,
  bashChangeBytes,
  toBashChange,
  toBashTree,
} from "@groundwork/store-rows";
import { PostgresFamily } from "./postgres-family.js";
import type { SqlClient } from "./sql-client.js";

export class PostgresBashFileStore extends PostgresFamily {
  private readonly writes = new Map<string, number>();

  constructor(client: SqlClient, clock?: Clock) {
    super(client, clock);
  }

  /** The revision of a conversation's committed tree (see `BashTreeRevision`). */
  async revision(conversationId: string): Promise<BashTreeRevision> {
    const row = await this.row<{ writes: string }>(
      "SELECT writes FROM bash_tree_writes WHERE conversation_id = $1",
      [conversationId],
    );
    const own = this.writes.get(conversationId) ?? 0;
    return { dataVersion: Number(row?.writes ?? 0) - own, writes: own };
  }

  /** Counts a commit here (before it runs: a commit that fails only makes the revision move) and in the database. */
  private async bump(conversationId: string): Promise<void> {
    this.writes.set(conversationId, (this.writes.get(conversationId) ?? 0) + 1);
    await this.db.query(
      `INSERT INTO bash_tree_writes (conversation_id, writes) VALUES ($1, 1)
         ON CONFLICT (conversation_id) DO UPDATE SET writes = bash_tree_writes.writes + 1`,
      [conversationId],
    );
  }

  /** The committed tree: path → bytes, or null for a directory. */
  async load(conversationId: string): Promise<Map<string, Uint8Array | null>> {
    const rows = await this.rows<BashFileRow>(
      "SELECT path, kind, content FROM bash_files WHERE conversation_id = $1 AND stage = '' ORDER BY path",
      [conversationId],
    );
    return toBashTree(rows);
  }

  /** Size and file count of the committed tree. */
  async usage(conversationId: string): Promise<{ bytes: number; files: number }> {
    const row = await this.row<{ bytes: string; files: string }>(
      `SELECT COALESCE(SUM(size), 0) AS bytes, COUNT(*) FILTER (WHERE kind = 'file') AS files
         FROM bash_files WHERE conversation_id = $1 AND stage = ''`,
      [conversationId],
    );
    return { bytes: Number(row?.bytes ?? 0), files: Number(row?.files ?? 0) };
  }

  /** Applies changes to the committed tree in one transaction. */
  async apply(
    organizationId: string,
    conversationId: string,
    changes: readonly BashFileChange[],
  ): Promise<void> {
    await this.inTransaction(async () => {
      await this.bump(conversationId);
      await this.write(organizationId, conversationId, "", changes);
    });
  }

  /** Keeps a held call's changes and output until its approval. */
  async stage(
    organizationId: string,
    conversationId: string,
    callId: string,
    changes: readonly BashFileChange[],
    result: unknown,
  ): Promise<void> {
    await this.inTransaction(async () => {
      await this.discardStage(conversationId, callId);
      await this.writeStaged(organizationId, conversationId, callId, changes);
      await this.db.query(
        "INSERT INTO bash_held_outputs (conversation_id, call_id, result, created_at) VALUES ($1, $2, $3, $4)",
        [conversationId, callId, JSON.stringify(result), this.clock.now()],
      );
    });
  }

  /** The held output of a call, or null when none is held. */
  async heldOutput(conversationId: string, callId: string): Promise<unknown | null> {
    const row = await this.row<{ result: string }>(
      "SELECT result FROM bash_held_outputs WHERE conversation_id = $1 AND call_id = $2",
      [conversationId, callId],
    );
    return row === undefined ? null : (JSON.parse(row.result) as unknown);
  }

  /** Commits a held call's changes (approval); returns its held output, or null when none was held. */
  async commitStage(organizationId: string, conversationId: string, callId: string): Promise<unknown | null> {
    return this.inTransaction(async () => {
      // Locked: of two approvals racing, the second finds nothing held.
      const held = await this.row<{ result: string }>(
        "SELECT result FROM bash_held_outputs WHERE conversation_id = $1 AND call_id = $2 FOR UPDATE",
        [conversationId, callId],
      );
      if (held === undefined) return null;
      await this.bump(conversationId);
      const rows = await this.rows<BashFileRow>(
        "SELECT path, kind, content FROM bash_files WHERE conversation_id = $1 AND stage = $2 ORDER BY path",
        [conversationId, callId],
      );
      await this.write(organizationId, conversationId, "", rows.map(toBashChange));
      await this.discardStage(conversationId, callId);
      return JSON.parse(held.result) as unknown;
    });
  }

  /** Drops held changes of every call but those in `keep` (calls still waiting for their approval). */
  async discardStages(conversationId: string, keep: readonly string[] = []): Promise<void> {
    await this.inTransaction(async () => {
      await this.db.query(
        "DELETE FROM bash_files WHERE conversation_id = $1 AND stage <> '' AND NOT (stage = ANY($2::text[]))",
        [conversationId, keep],
      );
      await this.db.query(
        "DELETE FROM bash_held_outputs WHERE conversation_id = $1 AND NOT (call_id = ANY($2::text[]))",
        [conversationId, keep],
      );
    });
  }

  private async discardStage(conversationId: string, callId: string): Promise<void> {
    await this.db.query("DELETE FROM bash_files WHERE conversation_id = $1 AND stage = $2", [
      conversationId,
      callId,
    ]);
    await this.db.query("DELETE FROM bash_held_outputs WHERE conversation_id = $1 AND call_id = $2", [
      conversationId,
      callId,
    ]);
  }

  private async writeStaged(
    organizationId: string,
    conversationId: string,
    stage: string,
    changes: readonly BashFileChange[],
  ): Promise<void> {
    const now = this.clock.now();
    for (const change of changes) {
      const bytes = bashChangeBytes(change);
      await this.db.query(
        `INSERT INTO bash_files (conversation_id, organization_id, stage, path, kind, content, size, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [conversationId, organizationId, stage, change.path, change.kind, bytes, bytes?.length ?? 0, now],
      );
    }
  }

  private async write(
    organizationId: string,
    conversationId: string,
    stage: string,
    changes: readonly BashFileChange[],
  ): Promise<void> {
    const now = this.clock.now();
    for (const change of changes) {
      if (change.kind === "deleted") {
        await this.db.query(
          "DELETE FROM bash_files WHERE conversation_id = $1 AND stage = $2 AND path = $3",
          [conversationId, stage, change.path],
        );
        continue;
      }
      const bytes = bashChangeBytes(change);
      await this.db.query(
        `INSERT INTO bash_files (conversation_id, organization_id, stage, path, kind, content, size, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (conversation_id, stage, path) DO UPDATE SET kind = excluded.kind,
             content = excluded.content, size = excluded.size, updated_at = excluded.updated_at`,
        [conversationId, organizationId, stage, change.path, change.kind, bytes, bytes?.length ?? 0, now],
      );
    }
  }
}
