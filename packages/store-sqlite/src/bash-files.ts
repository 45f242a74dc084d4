/**
 * The `platform_bash` file system of each conversation (PLATFORM.md §6): one row per file or
 * directory of `/workspace` and `/tmp`. Stage `''` is the committed tree; a call whose
 * outputs are held keeps its changes under its call id (with its output) until the approval
 * commits or discards them. Everything goes with the conversation (foreign key cascade).
 */
import { type Clock, systemClock } from "@groundwork/core";
import {
  type BashFileChange,
  type BashFileRow,
  type BashTreeRevision,
  bashChangeBytes,
  toBashChange,
  toBashTree,
} from "@groundwork/store-rows";
import type { Database, Statement } from "better-sqlite3";
import { statementCache } from "./statement-cache.js";

export type { BashFileChange, BashTreeRevision } from "@groundwork/store-rows";

export class BashFileStore {
  private readonly sql: (sql: string) => Statement;
  private readonly writes = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {
    this.sql = statementCache(db);
  }

  /** The revision of a conversation's committed tree (see `BashTreeRevision`). */
  revision(conversationId: string): BashTreeRevision {
    const dataVersion = this.db.pragma("data_version", { simple: true }) as number;
    return { dataVersion, writes: this.writes.get(conversationId) ?? 0 };
  }

  private bump(conversationId: string): void {
    this.writes.set(conversationId, (this.writes.get(conversationId) ?? 0) + 1);
  }

  /** The committed tree: path → bytes, or null for a directory. */
  load(conversationId: string): Map<string, Uint8Array | null> {
    const rows = this.sql(
      "SELECT path, kind, content FROM bash_files WHERE conversation_id = ? AND stage = '' ORDER BY path",
    ).all(conversationId) as BashFileRow[];
    return toBashTree(rows);
  }

  /** Size and file count of the committed tree. */
  usage(conversationId: string): { bytes: number; files: number } {
    const row = this.sql(
      "SELECT COALESCE(SUM(size), 0) AS bytes, COUNT(*) FILTER (WHERE kind = 'file') AS files FROM bash_files WHERE conversation_id = ? AND stage = ''",
    ).get(conversationId) as { bytes: number; files: number };
    return row;
  }

  /** Applies changes to the committed tree in one transaction. */
  apply(organizationId: string, conversationId: string, changes: readonly BashFileChange[]): void {
    this.bump(conversationId);
    this.db.transaction(() => this.write(organizationId, conversationId, "", changes))();
  }

  /** Keeps a held call's changes and output until its approval. */
  stage(
    organizationId: string,
    conversationId: string,
    callId: string,
    changes: readonly BashFileChange[],
    result: unknown,
  ): void {
    this.db.transaction(() => {
      this.discardStage(conversationId, callId);
      this.writeStaged(organizationId, conversationId, callId, changes);
      this.sql(
        "INSERT INTO bash_held_outputs (conversation_id, call_id, result, created_at) VALUES (?, ?, ?, ?)",
      ).run(conversationId, callId, JSON.stringify(result), this.clock.now());
    })();
  }

  /** The held output of a call, or null when none is held. */
  heldOutput(conversationId: string, callId: string): unknown | null {
    const row = this.sql(
      "SELECT result FROM bash_held_outputs WHERE conversation_id = ? AND call_id = ?",
    ).get(conversationId, callId) as { result: string } | undefined;
    return row === undefined ? null : (JSON.parse(row.result) as unknown);
  }

  /** Commits a held call's changes (approval); returns its held output, or null when none was held. */
  commitStage(organizationId: string, conversationId: string, callId: string): unknown | null {
    return this.db.transaction(() => {
      const held = this.heldOutput(conversationId, callId);
      if (held === null) return null;
      this.bump(conversationId);
      const rows = this.sql(
        "SELECT path, kind, content FROM bash_files WHERE conversation_id = ? AND stage = ? ORDER BY path",
      ).all(conversationId, callId) as BashFileRow[];
      this.write(organizationId, conversationId, "", rows.map(toBashChange));
      this.discardStage(conversationId, callId);
      return held;
    })();
  }

  /** Drops held changes of every call but those in `keep` (calls still waiting for their approval). */
  discardStages(conversationId: string, keep: readonly string[] = []): void {
    const held = this.sql("SELECT call_id FROM bash_held_outputs WHERE conversation_id = ?").all(
      conversationId,
    ) as Array<{ call_id: string }>;
    const stages = this.sql(
      "SELECT DISTINCT stage FROM bash_files WHERE conversation_id = ? AND stage <> ''",
    ).all(conversationId) as Array<{ stage: string }>;
    const ids = new Set([...held.map((h) => h.call_id), ...stages.map((s) => s.stage)]);
    for (const id of ids) if (!keep.includes(id)) this.discardStage(conversationId, id);
  }

  private discardStage(conversationId: string, callId: string): void {
    this.sql("DELETE FROM bash_files WHERE conversation_id = ? AND stage = ?").run(conversationId, callId);
    this.sql("DELETE FROM bash_held_outputs WHERE conversation_id = ? AND call_id = ?").run(
      conversationId,
      callId,
    );
  }

  private writeStaged(
    organizationId: string,
    conversationId: string,
    stage: string,
    changes: readonly BashFileChange[],
  ): void {
    const insert = this.sql(
      `INSERT INTO bash_files (conversation_id, organization_id, stage, path, kind, content, size, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const now = this.clock.now();
    for (const change of changes) {
      const bytes = bashChangeBytes(change);
      insert.run(
        conversationId,
        organizationId,
        stage,
        change.path,
        change.kind,
        bytes,
        bytes?.length ?? 0,
        now,
      );
    }
  }

  private write(
    organizationId: string,
    conversationId: string,
    stage: string,
    changes: readonly BashFileChange[],
  ): void {
    const remove = this.sql("DELETE FROM bash_files WHERE conversation_id = ? AND stage = ? AND path = ?");
    const upsert = this.sql(
      `INSERT INTO bash_files (conversation_id, organization_id, stage, path, kind, content, size, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (conversation_id, stage, path) DO UPDATE SET kind = excluded.kind,
         content = excluded.content, size = excluded.size, updated_at = excluded.updated_at`,
    );
    const now = this.clock.now();
    for (const change of changes) {
      if (change.kind === "deleted") {
        remove.run(conversationId, stage, change.path);
        continue;
      }
      const bytes = bashChangeBytes(change);
      upsert.run(
        conversationId,
        organizationId,
        stage,
        change.path,
        change.kind,
        bytes,
        bytes?.length ?? 0,
        now,
      );
    }
  }
}
