/** Files of `/v1/files`: the row (without its bytes) and its record. */
import { int, intOrNull } from "./columns.js";

export interface FileRecord {
  id: string;
  organizationId: string;
  filename: string;
  purpose: string;
  mime: string;
  byteSize: number;
  sha256: string;
  createdAt: number;
  deletedAt: number | null;
}

export interface FileRow {
  id: string;
  organization_id: string;
  filename: string;
  purpose: string;
  mime: string;
  byte_size: number | string;
  sha256: string;
  created_at: number | string;
  deleted_at: number | string | null;
}

/** The columns of a file row (never `content`: the bytes are read on their own). */
export const FILE_COLUMNS =
  "id, organization_id, filename, purpose, mime, byte_size, sha256, created_at, deleted_at";

export function toFile(row: FileRow): FileRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    filename: row.filename,
    purpose: row.purpose,
    mime: row.mime,
    byteSize: int(row.byte_size),
    sha256: row.sha256,
    createdAt: int(row.created_at),
    deletedAt: intOrNull(row.deleted_at),
  };
}

/** A BLOB/BYTEA value as a Buffer over the same memory (SQLite and node-postgres answer Buffers, PGlite Uint8Arrays). */
export function bytes(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}
