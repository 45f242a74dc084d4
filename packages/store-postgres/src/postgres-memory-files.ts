/**
 * Members' memory files on PostgreSQL (PLATFORM.md §3): store-sqlite's `MemoryFileStore`,
 * asynchronous, on the same rows (@groundwork/store-rows). Paths are `COLLATE "C"`, so the
 * range that finds a directory's files and the order by path compare bytes as SQLite does.
 */
import {
  MEMORY_FILE_META,
  type MemberMemoryUsage,
  type MemberScope,
  type MemberUsageRow,
  type MemoryFileRecord,
  type MemoryFileRow,
  type MemoryFileWithContent,
  type MemoryText,
  toMemberUsage,
  toMemoryFile,
} from "@groundwork/store-rows";
import { PostgresFamily } from "./postgres-family.js";

const SCOPE = "organization_id = $1 AND member_id = $2";
/** Below `$3`: from `dir/` up to (not including) `dir0` — '0' follows '/' — so an index range, and no LIKE escaping. */
const BELOW = "(path >= $3::text || '/' AND path < $3::text || '0')";

export class PostgresMemoryFileStore extends PostgresFamily {
  async get(scope: MemberScope, path: string): Promise<MemoryFileWithContent | null> {
    const row = await this.row<MemoryFileRow>(
      `SELECT ${MEMORY_FILE_META}, content FROM memory_files WHERE ${SCOPE} AND path = $3`,
      [scope.organizationId, scope.memberId, path],
    );
    return row === undefined ? null : { ...toMemoryFile(row), content: row.content ?? "" };
  }

  async exists(scope: MemberScope, path: string): Promise<boolean> {
    const row = await this.row(`SELECT 1 FROM memory_files WHERE ${SCOPE} AND path = $3`, [
      scope.organizationId,
      scope.memberId,
      path,
    ]);
    return row !== undefined;
  }

  /** The file at `path` and every file below it as a directory, ordered by path. */
  async list(
    scope: MemberScope,
    dir: string,
    offset: number,
    limit: number,
  ): Promise<{ items: MemoryFileRecord[]; total: number }> {
    const where = `${SCOPE} AND (path = $3 OR ${BELOW})`;
    const params = [scope.organizationId, scope.memberId, dir];
    const rows = await this.rows<MemoryFileRow>(
      `SELECT ${MEMORY_FILE_META} FROM memory_files WHERE ${where} ORDER BY path LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    );
    const counted = await this.row<{ total: string }>(
      `SELECT COUNT(*) AS total FROM memory_files WHERE ${where}`,
      params,
    );
    return { items: rows.map(toMemoryFile), total: Number(counted?.total ?? 0) };
  }

  /** Every file below the directory `dir`, ordered by path. */
  async below(scope: MemberScope, dir: string): Promise<MemoryFileRecord[]> {
    const rows = await this.rows<MemoryFileRow>(
      `SELECT ${MEMORY_FILE_META} FROM memory_files WHERE ${SCOPE} AND ${BELOW} ORDER BY path`,
      [scope.organizationId, scope.memberId, dir],
    );
    return rows.map(toMemoryFile);
  }

  async hasBelow(scope: MemberScope, dir: string): Promise<boolean> {
    const row = await this.row(`SELECT 1 FROM memory_files WHERE ${SCOPE} AND ${BELOW} LIMIT 1`, [
      scope.organizationId,
      scope.memberId,
      dir,
    ]);
    return row !== undefined;
  }

  async usage(scope: MemberScope): Promise<{ fileCount: number; totalBytes: number }> {
    const row = await this.row<{ files: string; bytes: string }>(
      `SELECT COUNT(*) AS files, COALESCE(SUM(size), 0) AS bytes FROM memory_files WHERE ${SCOPE}`,
      [scope.organizationId, scope.memberId],
    );
    return { fileCount: Number(row?.files ?? 0), totalBytes: Number(row?.bytes ?? 0) };
  }

  async create(scope: MemberScope, path: string, text: MemoryText): Promise<MemoryFileRecord> {
    const now = this.clock.now();
    const id = this.ids("mem");
    await this.db.query(
      `INSERT INTO memory_files (id, organization_id, member_id, path, content, size, sha256, line_count, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
      [
        id,
        scope.organizationId,
        scope.memberId,
        path,
        text.content,
        text.size,
        text.sha256,
        text.lineCount,
        now,
      ],
    );
    return {
      id,
      path,
      size: text.size,
      sha256: text.sha256,
      lineCount: text.lineCount,
      createdAt: now,
      updatedAt: now,
    };
  }

  /** Replaces the text of the file with `id`; its id and creation time stay. */
  async update(scope: MemberScope, current: MemoryFileRecord, text: MemoryText): Promise<MemoryFileRecord> {
    const now = this.clock.now();
    await this.db.query(
      `UPDATE memory_files SET content = $4, size = $5, sha256 = $6, line_count = $7, updated_at = $8
         WHERE ${SCOPE} AND id = $3`,
      [
        scope.organizationId,
        scope.memberId,
        current.id,
        text.content,
        text.size,
        text.sha256,
        text.lineCount,
        now,
      ],
    );
    return { ...current, size: text.size, sha256: text.sha256, lineCount: text.lineCount, updatedAt: now };
  }

  async move(scope: MemberScope, id: string, path: string): Promise<void> {
    await this.db.query(`UPDATE memory_files SET path = $4, updated_at = $5 WHERE ${SCOPE} AND id = $3`, [
      scope.organizationId,
      scope.memberId,
      id,
      path,
      this.clock.now(),
    ]);
  }

  /** Deletes the file at `path`, or every file below it, or (`null`) the member's whole tree. */
  async delete(
    scope: MemberScope,
    target: { path: string } | { dir: string } | null,
  ): Promise<{ deletedFiles: number; freedBytes: number }> {
    const where =
      target === null ? SCOPE : "path" in target ? `${SCOPE} AND path = $3` : `${SCOPE} AND ${BELOW}`;
    const params: unknown[] = [scope.organizationId, scope.memberId];
    if (target !== null) params.push("path" in target ? target.path : target.dir);
    // One statement: the rows it deletes are the ones it sums.
    const row = await this.row<{ files: string; bytes: string }>(
      `WITH gone AS (DELETE FROM memory_files WHERE ${where} RETURNING size)
         SELECT COUNT(*) AS files, COALESCE(SUM(size), 0) AS bytes FROM gone`,
      params,
    );
    return { deletedFiles: Number(row?.files ?? 0), freedBytes: Number(row?.bytes ?? 0) };
  }

  /** Members of the organization with memory, largest first, with their key's name and state. */
  async usageByMember(
    organizationId: string,
    offset: number,
    limit: number,
  ): Promise<{ items: MemberMemoryUsage[]; total: number }> {
    const rows = await this.rows<MemberUsageRow>(
      `SELECT m.member_id AS "memberId", k.name AS "keyName", k.prefix AS "keyPrefix",
              k.revoked_at IS NOT NULL AS revoked, COUNT(*) AS "fileCount", SUM(m.size) AS "totalBytes",
              MAX(m.updated_at) AS "lastWriteAt"
         FROM memory_files m JOIN api_keys k ON k.id = m.member_id AND k.organization_id = m.organization_id
         WHERE m.organization_id = $1
         GROUP BY m.member_id, k.id ORDER BY "totalBytes" DESC, m.member_id LIMIT $2 OFFSET $3`,
      [organizationId, limit, offset],
    );
    const counted = await this.row<{ total: string }>(
      `SELECT COUNT(DISTINCT m.member_id) AS total
         FROM memory_files m JOIN api_keys k ON k.id = m.member_id AND k.organization_id = m.organization_id
         WHERE m.organization_id = $1`,
      [organizationId],
    );
    return { items: rows.map(toMemberUsage), total: Number(counted?.total ?? 0) };
  }
}
