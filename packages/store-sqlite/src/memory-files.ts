/**
 * Members' memory files (PLATFORM.md §3): one row per file, scoped by organization
 * and member (API key id). The rules — paths, edits, limits — live in the agents
 * engine and the platform's memory service; this store only reads and writes rows,
 * and runs a service's read-check-write as one immediate transaction so that quota
 * and `ifMatch` checks see no concurrent write.
 */

import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
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
import type { Database, Statement } from "better-sqlite3";
import { runAtomically } from "./atomic-work.js";
import { statementCache } from "./statement-cache.js";

export type {
  MemberMemoryUsage,
  MemberScope,
  MemoryFileRecord,
  MemoryFileWithContent,
  MemoryText,
} from "@groundwork/store-rows";

const META = MEMORY_FILE_META;
const SCOPE = "organization_id = @organizationId AND member_id = @memberId";
/** Below `dir`: from `dir/` up to (not including) `dir0` — '0' follows '/' — so an index range, and no LIKE escaping. */
const BELOW = "path >= @dir || '/' AND path < @dir || '0'";

export class MemoryFileStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
  }

  /** Runs `work` in an immediate transaction: no other writer between its reads and its writes. */
  atomically<T>(work: () => T): T {
    return runAtomically(this.db, work);
  }

  get(scope: MemberScope, path: string): MemoryFileWithContent | null {
    const row = this.sql(`SELECT ${META}, content FROM memory_files WHERE ${SCOPE} AND path = @path`).get({
      ...scope,
      path,
    }) as MemoryFileRow | undefined;
    return row === undefined ? null : { ...toMemoryFile(row), content: row.content ?? "" };
  }

  exists(scope: MemberScope, path: string): boolean {
    return (
      this.sql(`SELECT 1 FROM memory_files WHERE ${SCOPE} AND path = @path`).get({ ...scope, path }) !==
      undefined
    );
  }

  /** The file at `path` and every file below it as a directory, ordered by path. */
  list(
    scope: MemberScope,
    dir: string,
    offset: number,
    limit: number,
  ): { items: MemoryFileRecord[]; total: number } {
    const params = { ...scope, dir, offset, limit };
    const where = `${SCOPE} AND (path = @dir OR (${BELOW}))`;
    const rows = this.sql(
      `SELECT ${META} FROM memory_files WHERE ${where} ORDER BY path LIMIT @limit OFFSET @offset`,
    ).all(params) as MemoryFileRow[];
    const { total } = this.sql(`SELECT COUNT(*) AS total FROM memory_files WHERE ${where}`).get(params) as {
      total: number;
    };
    return { items: rows.map(toMemoryFile), total };
  }

  /** Every file below the directory `dir`, ordered by path. */
  below(scope: MemberScope, dir: string): MemoryFileRecord[] {
    const rows = this.sql(`SELECT ${META} FROM memory_files WHERE ${SCOPE} AND ${BELOW} ORDER BY path`).all({
      ...scope,
      dir,
    }) as MemoryFileRow[];
    return rows.map(toMemoryFile);
  }

  hasBelow(scope: MemberScope, dir: string): boolean {
    return (
      this.sql(`SELECT 1 FROM memory_files WHERE ${SCOPE} AND ${BELOW} LIMIT 1`).get({ ...scope, dir }) !==
      undefined
    );
  }

  usage(scope: MemberScope): { fileCount: number; totalBytes: number } {
    return this.sql(
      `SELECT COUNT(*) AS fileCount, COALESCE(SUM(size), 0) AS totalBytes FROM memory_files WHERE ${SCOPE}`,
    ).get(scope) as { fileCount: number; totalBytes: number };
  }

  create(scope: MemberScope, path: string, text: MemoryText): MemoryFileRecord {
    const now = this.clock.now();
    const id = this.ids("mem");
    this.sql(
      `INSERT INTO memory_files (id, organization_id, member_id, path, content, size, sha256, line_count, created_at, updated_at)
         VALUES (@id, @organizationId, @memberId, @path, @content, @size, @sha256, @lineCount, @now, @now)`,
    ).run({ ...scope, id, path, ...text, now });
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
  update(scope: MemberScope, current: MemoryFileRecord, text: MemoryText): MemoryFileRecord {
    const now = this.clock.now();
    this.sql(
      `UPDATE memory_files SET content = @content, size = @size, sha256 = @sha256, line_count = @lineCount, updated_at = @now
         WHERE ${SCOPE} AND id = @id`,
    ).run({ ...scope, id: current.id, ...text, now });
    return { ...current, size: text.size, sha256: text.sha256, lineCount: text.lineCount, updatedAt: now };
  }

  move(scope: MemberScope, id: string, path: string): void {
    this.sql(`UPDATE memory_files SET path = @path, updated_at = @now WHERE ${SCOPE} AND id = @id`).run({
      ...scope,
      id,
      path,
      now: this.clock.now(),
    });
  }

  /** Deletes the file at `path`, or every file below it, or (`null`) the member's whole tree. */
  delete(
    scope: MemberScope,
    target: { path: string } | { dir: string } | null,
  ): { deletedFiles: number; freedBytes: number } {
    const where =
      target === null ? SCOPE : "path" in target ? `${SCOPE} AND path = @path` : `${SCOPE} AND ${BELOW}`;
    const params = { ...scope, ...(target ?? {}) };
    return this.atomically(() => {
      const freed = this.sql(
        `SELECT COUNT(*) AS deletedFiles, COALESCE(SUM(size), 0) AS freedBytes FROM memory_files WHERE ${where}`,
      ).get(params) as { deletedFiles: number; freedBytes: number };
      this.sql(`DELETE FROM memory_files WHERE ${where}`).run(params);
      return freed;
    });
  }

  /** Members of the organization with memory, largest first, with their key's name and state. */
  usageByMember(
    organizationId: string,
    offset: number,
    limit: number,
  ): { items: MemberMemoryUsage[]; total: number } {
    const rows = this.sql(
      `SELECT m.member_id AS memberId, k.name AS keyName, k.prefix AS keyPrefix, k.revoked_at IS NOT NULL AS revoked,
              COUNT(*) AS fileCount, SUM(m.size) AS totalBytes, MAX(m.updated_at) AS lastWriteAt
         FROM memory_files m JOIN api_keys k ON k.id = m.member_id AND k.organization_id = m.organization_id
         WHERE m.organization_id = ?
         GROUP BY m.member_id ORDER BY totalBytes DESC, m.member_id LIMIT ? OFFSET ?`,
    ).all(organizationId, limit, offset) as MemberUsageRow[];
    const { total } = this.sql(
      `SELECT COUNT(DISTINCT m.member_id) AS total
         FROM memory_files m JOIN api_keys k ON k.id = m.member_id AND k.organization_id = m.organization_id
         WHERE m.organization_id = ?`,
    ).get(organizationId) as { total: number };
    return { items: rows.map(toMemberUsage), total };
  }
}
