/**
 * Files uploaded at `/v1/files` (the tool server's Files group). The bytes live
 * in a BLOB column (migration 5, ≤ 25 MB each); a deleted file keeps its row
 * without the bytes so references to it answer 410 instead of 404.
 */
import { createHash } from "node:crypto";
import {
  type Clock,
  defaultIdGenerator,
  type IdGenerator,
  type PageRequest,
  pageOffset,
  systemClock,
} from "@groundwork/core";
import {
  bytes,
  FILE_COLUMNS as COLUMNS,
  type FileRecord,
  type FileRow,
  toFile as toRecord,
} from "@groundwork/store-rows";
import type { Database, Statement } from "better-sqlite3";
import { statementCache } from "./statement-cache.js";

export type { FileRecord };

export class FileStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    db: Database,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
  }

  create(input: {
    organizationId: string;
    filename: string;
    purpose: string;
    mime: string;
    bytes: Uint8Array;
  }): FileRecord {
    const id = this.ids("file");
    const sha256 = createHash("sha256").update(input.bytes).digest("hex");
    this.sql(
      `INSERT INTO files (id, organization_id, filename, purpose, mime, byte_size, sha256, content, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      input.organizationId,
      input.filename,
      input.purpose,
      input.mime,
      input.bytes.byteLength,
      sha256,
      bytes(input.bytes),
      this.clock.now(),
    );
    return this.get(input.organizationId, id) as FileRecord;
  }

  /** The file of the organization, deleted ones included (check `deletedAt`). */
  get(organizationId: string, id: string): FileRecord | null {
    const row = this.sql(`SELECT ${COLUMNS} FROM files WHERE organization_id = ? AND id = ?`).get(
      organizationId,
      id,
    ) as FileRow | undefined;
    return row === undefined ? null : toRecord(row);
  }

  content(organizationId: string, id: string): Uint8Array | null {
    const row = this.sql(
      "SELECT content FROM files WHERE organization_id = ? AND id = ? AND deleted_at IS NULL",
    ).get(organizationId, id) as { content: Buffer | null } | undefined;
    return row?.content == null ? null : new Uint8Array(row.content);
  }

  /** Live files, newest first, optionally of one purpose. */
  list(organizationId: string, page: PageRequest, purpose?: string): { items: FileRecord[]; total: number } {
    const where = `organization_id = @org AND deleted_at IS NULL${purpose === undefined ? "" : " AND purpose = @purpose"}`;
    const params = {
      org: organizationId,
      purpose: purpose ?? null,
      limit: page.size,
      offset: pageOffset(page),
    };
    const rows = this.sql(
      `SELECT ${COLUMNS} FROM files WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
    ).all(params) as FileRow[];
    const total = this.sql(`SELECT COUNT(*) FROM files WHERE ${where}`).pluck().get(params) as number;
    return { items: rows.map(toRecord), total };
  }

  /** Soft delete: the bytes go, the row stays so later references answer 410. */
  delete(organizationId: string, id: string): boolean {
    return (
      this.sql(
        "UPDATE files SET deleted_at = ?, content = NULL WHERE organization_id = ? AND id = ? AND deleted_at IS NULL",
      ).run(this.clock.now(), organizationId, id).changes > 0
    );
  }
}
