/**
 * Files of `/v1/files` on PostgreSQL: the same methods and answers as store-sqlite's FileStore.
 * The bytes are a BYTEA column (≤ 25 MB each); a deleted file keeps its row without the bytes so
 * references to it answer 410 instead of 404.
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
import { bytes, FILE_COLUMNS, type FileRecord, type FileRow, toFile } from "@groundwork/store-rows";
import { connectionOf } from "./postgres-family.js";
import type { SqlClient } from "./sql-client.js";

export class PostgresFileStore {
  constructor(
    private readonly client: SqlClient,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {}

  async create(input: {
    organizationId: string;
    filename: string;
    purpose: string;
    mime: string;
    bytes: Uint8Array;
  }): Promise<FileRecord> {
    const id = this.ids("file");
    const sha256 = createHash("sha256").update(input.bytes).digest("hex");
    const { rows } = await connectionOf(this.client).query<FileRow>(
      `INSERT INTO files (id, organization_id, filename, purpose, mime, byte_size, sha256, content, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${FILE_COLUMNS}`,
      [
        id,
        input.organizationId,
        input.filename,
        input.purpose,
        input.mime,
        input.bytes.byteLength,
        sha256,
        bytes(input.bytes),
        this.clock.now(),
      ],
    );
    return toFile(rows[0] as FileRow);
  }

  /** The file of the organization, deleted ones included (check `deletedAt`). */
  async get(organizationId: string, id: string): Promise<FileRecord | null> {
    const { rows } = await connectionOf(this.client).query<FileRow>(
      `SELECT ${FILE_COLUMNS} FROM files WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0] === undefined ? null : toFile(rows[0]);
  }

  async content(organizationId: string, id: string): Promise<Uint8Array | null> {
    const { rows } = await connectionOf(this.client).query<{ content: Uint8Array | null }>(
      "SELECT content FROM files WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL",
      [organizationId, id],
    );
    const content = rows[0]?.content;
    return content == null ? null : new Uint8Array(content);
  }

  /** Live files, newest first (ties by id), optionally of one purpose. */
  async list(
    organizationId: string,
    page: PageRequest,
    purpose?: string,
  ): Promise<{ items: FileRecord[]; total: number }> {
    const params: unknown[] = [organizationId];
    let where = "organization_id = $1 AND deleted_at IS NULL";
    if (purpose !== undefined) {
      params.push(purpose);
      where += " AND purpose = $2";
    }
    const { rows } = await connectionOf(this.client).query<FileRow & { total: string | number }>(
      `SELECT ${FILE_COLUMNS}, count(*) OVER () AS total FROM files WHERE ${where}
         ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.size, pageOffset(page)],
    );
    const total =
      rows[0] !== undefined
        ? Number(rows[0].total)
        : Number(
            (
              await connectionOf(this.client).query<{ n: string | number }>(
                `SELECT count(*) AS n FROM files WHERE ${where}`,
                params,
              )
            ).rows[0]?.n ?? 0,
          );
    return { items: rows.map(toFile), total };
  }

  /** Soft delete: the bytes go, the row stays so later references answer 410. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const { rows } = await connectionOf(this.client).query(
      `UPDATE files SET deleted_at = $1, content = NULL
         WHERE organization_id = $2 AND id = $3 AND deleted_at IS NULL RETURNING id`,
      [this.clock.now(), organizationId, id],
    );
    return rows.length > 0;
  }
}
