/** Memory resources as the API shows them (PLATFORM.md §3.2): timestamps as ISO strings. */
import type { MemberUsage, MemoryFileContent } from "@groundwork/platform";
import type { MemoryFileRecord } from "@groundwork/store-sqlite";

const iso = (ms: number) => new Date(ms).toISOString();

export function renderMemoryFile(file: MemoryFileRecord) {
  return {
    id: file.id,
    path: file.path,
    size: file.size,
    sha256: file.sha256,
    lineCount: file.lineCount,
    createdAt: iso(file.createdAt),
    updatedAt: iso(file.updatedAt),
  };
}

export function renderMemoryFileContent(file: MemoryFileContent) {
  return {
    ...renderMemoryFile(file),
    content: file.content,
    startLine: file.startLine,
    endLine: file.endLine,
  };
}

export function renderMemberUsage(usage: MemberUsage) {
  return { ...usage, lastWriteAt: iso(usage.lastWriteAt) };
}
