/**
 * Members' memory file rows (PLATFORM.md §3): one row per file, scoped by organization and
 * member (API key id), with the text and what the service computed from it.
 */
import { bool, int } from "./columns.js";

export interface MemberScope {
  organizationId: string;
  memberId: string;
}

export interface MemoryFileRecord {
  id: string;
  path: string;
  size: number;
  sha256: string;
  lineCount: number;
  createdAt: number;
  updatedAt: number;
}

export interface MemoryFileWithContent extends MemoryFileRecord {
  content: string;
}

/** A file's new text with what the service computed from it. */
export interface MemoryText {
  content: string;
  size: number;
  sha256: string;
  lineCount: number;
}

export interface MemberMemoryUsage {
  memberId: string;
  keyName: string;
  keyPrefix: string;
  revoked: boolean;
  fileCount: number;
  totalBytes: number;
  lastWriteAt: number;
}

export interface MemoryFileRow {
  id: string;
  path: string;
  size: number | string;
  sha256: string;
  line_count: number | string;
  created_at: number | string;
  updated_at: number | string;
  content?: string;
}

/** The columns of a file without its text. */
export const MEMORY_FILE_META = "id, path, size, sha256, line_count, created_at, updated_at";

export function toMemoryFile(row: MemoryFileRow): MemoryFileRecord {
  return {
    id: row.id,
    path: row.path,
    size: int(row.size),
    sha256: row.sha256,
    lineCount: int(row.line_count),
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

/** A member's totals as both stores' `usageByMember` selects them (aliases are the record's names). */
export interface MemberUsageRow {
  memberId: string;
  keyName: string;
  keyPrefix: string;
  revoked: unknown;
  fileCount: number | string;
  totalBytes: number | string;
  lastWriteAt: number | string;
}

export function toMemberUsage(row: MemberUsageRow): MemberMemoryUsage {
  return {
    memberId: row.memberId,
    keyName: row.keyName,
    keyPrefix: row.keyPrefix,
    revoked: bool(row.revoked),
    fileCount: int(row.fileCount),
    totalBytes: int(row.totalBytes),
    lastWriteAt: int(row.lastWriteAt),
  };
}
