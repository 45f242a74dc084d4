/**
 * Memory limits (PLATFORM.md §3.1): per file and per member. The per-member check
 * needs the member's current usage, which the caller reads in the same transaction
 * as the write, so two writes cannot both squeeze under the quota.
 */
import { payloadTooLarge } from "@groundwork/core";
import { utf8Size } from "./memory-text.js";

export const MEMORY_FILE_MAX_BYTES = 102_400;
export const MEMORY_MEMBER_MAX_BYTES = 10_485_760;
export const MEMORY_MEMBER_MAX_FILES = 1_000;

export interface MemoryUsage {
  fileCount: number;
  totalBytes: number;
}

/** The content's size in bytes; over 100 KiB → 413 `file_too_large`. */
export function checkFileSize(content: string, param: string): number {
  const size = utf8Size(content);
  if (size > MEMORY_FILE_MAX_BYTES) {
    throw payloadTooLarge(
      `The file would hold ${size} bytes; a memory file holds at most ${MEMORY_FILE_MAX_BYTES}`,
      { param, code: "file_too_large" },
    );
  }
  return size;
}

/** 413 `memory_quota_exceeded` when `usage` after the write passes the member's quota. */
export function checkMemberQuota(after: MemoryUsage): void {
  if (after.totalBytes > MEMORY_MEMBER_MAX_BYTES) {
    throw payloadTooLarge(
      `The write would bring this member's memory to ${after.totalBytes} bytes; the quota is ${MEMORY_MEMBER_MAX_BYTES}`,
      { code: "memory_quota_exceeded" },
    );
  }
  if (after.fileCount > MEMORY_MEMBER_MAX_FILES) {
    throw payloadTooLarge(`A member's memory holds at most ${MEMORY_MEMBER_MAX_FILES} files`, {
      code: "memory_quota_exceeded",
    });
  }
}
