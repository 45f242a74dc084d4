/**
 * A member's memory (PLATFORM.md §3): a file tree under `/memories` that belongs to
 * one API key of one organization. The path and text rules are the agents engine's;
 * this service applies them inside one store transaction per write, so `ifMatch`
 * and the quotas are checked against what is actually replaced. Roles are the HTTP
 * guards' business; whose memory it is comes from the principal's key.
 */
import {
  ancestorsOf,
  checkFileSize,
  checkMemberQuota,
  checkMemoryText,
  insertLines,
  isUnder,
  lineCount,
  lineRange,
  MEMORY_MEMBER_MAX_BYTES,
  MEMORY_ROOT,
  memoryPath,
  memoryPathProblem,
  memorySha256,
  movedPath,
  replaceOnce,
} from "@groundwork/agents";
import { conflict, invalidRequest, notFound, type PageRequest, type Principal } from "@groundwork/core";
import type {
  MemberMemoryUsage,
  MemberScope,
  MemoryFileRecord,
  MemoryFileStore,
  MemoryFileWithContent,
  Store,
} from "@groundwork/store-sqlite";
import { validate } from "../validate.js";
import { type MemoryWriteCommand, type MemoryWriteInput, memoryWriteCommand } from "./memory-commands.js";

export interface MemoryFileContent extends MemoryFileRecord {
  content: string;
  startLine: number;
  endLine: number;
}

/** What a write did: a file created or changed, or a directory moved (a directory has no metadata of its own). */
export type MemoryWriteResult =
  | { kind: "file"; file: MemoryFileRecord; created: boolean }
  | { kind: "directory"; path: string; movedFiles: number };

export interface ErasedMemory {
  memberId: string;
  deletedFiles: number;
  freedBytes: number;
}

export interface MemberUsage extends MemberMemoryUsage {
  quotaBytes: number;
}

export class MemoryService {
  private readonly files: MemoryFileStore;

  constructor(private readonly store: Store) {
    this.files = store.memoryFiles;
  }

  /** Metadata of the files at and below `prefix` (default `/memories`), by path. */
  list(
    principal: Principal,
    query: { prefix?: string | undefined; page: PageRequest },
  ): { items: MemoryFileRecord[]; total: number } {
    const prefix = memoryPath(query.prefix ?? MEMORY_ROOT, "prefix", { allowRoot: true });
    return this.files.list(scopeOf(principal), prefix, query.page.page * query.page.size, query.page.size);
  }

  /** A file with its content, whole or lines `startLine` … `endLine`. */
  read(
    principal: Principal,
    query: { path: string; startLine?: number | undefined; endLine?: number | undefined },
  ): MemoryFileContent {
    const scope = scopeOf(principal);
    const file = this.mustGet(scope, memoryPath(query.path, "path"));
    const { content, ...metadata } = file;
    return { ...metadata, ...lineRange(content, query.startLine, query.endLine) };
  }

  write(principal: Principal, input: MemoryWriteInput): MemoryWriteResult {
    const command = validate(memoryWriteCommand, input);
    const scope = scopeOf(principal);
    const path = memoryPath(command.path, "path");
    switch (command.command) {
      case "create":
        return this.create(scope, path, command);
      case "str_replace": {
        checkMemoryText(command.oldStr, "oldStr");
        const newStr = checkMemoryText(command.newStr, "newStr");
        return this.edit(scope, path, command.ifMatch, "newStr", (content) =>
          replaceOnce(content, command.oldStr, newStr),
        );
      }
      case "insert": {
        const text = checkMemoryText(command.insertText, "insertText");
        return this.edit(scope, path, command.ifMatch, "insertText", (content) =>
          insertLines(content, command.insertLine, text),
        );
      }
      case "rename":
        return this.rename(scope, path, memoryPath(command.newPath, "newPath"), command.ifMatch);
    }
  }

  /** Deletes a file, or everything below a directory path (then `ifMatch` is refused). */
  delete(principal: Principal, target: { path: string; ifMatch?: string | undefined }): void {
    const scope = scopeOf(principal);
    const path = memoryPath(target.path, "path", { allowRoot: true });
    this.files.atomically(() => {
      const current = path === MEMORY_ROOT ? null : this.files.get(scope, path);
      if (current !== null) {
        checkIfMatch(current, target.ifMatch);
        this.files.delete(scope, { path });
        return;
      }
      if (path !== MEMORY_ROOT && !this.files.hasBelow(scope, path)) throw noFile(path);
      refuseIfMatchOnDirectory(target.ifMatch, "delete");
      this.files.delete(scope, { dir: path });
    });
  }

  /** Forgets everything of the calling member. */
  forget(principal: Principal): ErasedMemory {
    const scope = scopeOf(principal);
    return { memberId: scope.memberId, ...this.files.delete(scope, null) };
  }

  /** Members of the organization that have memory, largest first. */
  usage(organizationId: string, page: PageRequest): { items: MemberUsage[]; total: number } {
    const { items, total } = this.files.usageByMember(organizationId, page.page * page.size, page.size);
    return { items: items.map((item) => ({ ...item, quotaBytes: MEMORY_MEMBER_MAX_BYTES })), total };
  }

  /** Erases a member's memory; the member must be an API key of the organization. */
  erase(organizationId: string, memberId: string): ErasedMemory {
    if (!this.store.apiKeys.list(organizationId).some((key) => key.id === memberId)) {
      throw notFound(`No member ${memberId} in this organization`, { param: "memberId" });
    }
    return { memberId, ...this.files.delete({ organizationId, memberId }, null) };
  }

  private create(
    scope: MemberScope,
    path: string,
    command: Extract<MemoryWriteCommand, { command: "create" }>,
  ): MemoryWriteResult {
    const content = checkMemoryText(command.content, "content");
    return this.files.atomically(() => {
      const current = this.files.get(scope, path);
      if (current === null) {
        if (this.files.hasBelow(scope, path)) {
          throw conflict(`${path} is a directory`, { param: "path", code: "is_directory" });
        }
        if (command.ifMatch !== undefined) throw preconditionFailed(`${path} does not exist`);
        this.refuseFileAncestors(scope, path, "path");
        return { kind: "file", file: this.insert(scope, path, content), created: true };
      }
      if (!command.overwrite) {
        throw conflict(`${path} already exists; set overwrite to replace it`, {
          param: "path",
          code: "file_exists",
        });
      }
      checkIfMatch(current, command.ifMatch);
      return { kind: "file", file: this.replace(scope, current, content, "content"), created: false };
    });
  }

  private edit(
    scope: MemberScope,
    path: string,
    ifMatch: string | undefined,
    param: string,
    change: (content: string) => string,
  ): MemoryWriteResult {
    return this.files.atomically(() => {
      const current = this.mustGet(scope, path);
      checkIfMatch(current, ifMatch);
      return {
        kind: "file",
        file: this.replace(scope, current, change(current.content), param),
        created: false,
      };
    });
  }

  private rename(
    scope: MemberScope,
    path: string,
    newPath: string,
    ifMatch: string | undefined,
  ): MemoryWriteResult {
    return this.files.atomically(() => {
      const current = this.files.get(scope, path);
      const moving = current === null ? this.files.below(scope, path) : [current];
      if (moving.length === 0) throw noFile(path);
      if (current === null) refuseIfMatchOnDirectory(ifMatch, "rename");
      else checkIfMatch(current, ifMatch);
      if (newPath === path || isUnder(newPath, path)) {
        throw invalidRequest(`newPath may not be ${path} or lie below it`, {
          param: "newPath",
          code: "invalid_path",
        });
      }
      if (this.files.exists(scope, newPath) || this.files.hasBelow(scope, newPath)) {
        throw conflict(`${newPath} already exists`, { param: "newPath", code: "file_exists" });
      }
      this.refuseFileAncestors(scope, newPath, "newPath");
      const moves = moving.map((file) => ({ file, to: movedPath(file.path, path, newPath) }));
      for (const { to } of moves) {
        const problem = memoryPathProblem(to, false);
        if (problem !== null) {
          throw invalidRequest(`newPath would move a file to ${to}, which ${problem}`, {
            param: "newPath",
            code: "invalid_path",
          });
        }
      }
      for (const { file, to } of moves) this.files.move(scope, file.id, to);
      if (current === null) return { kind: "directory", path: newPath, movedFiles: moves.length };
      const moved = this.files.get(scope, newPath);
      if (moved === null) throw new Error(`Memory file ${current.id} vanished while being renamed`);
      const { content: _content, ...file } = moved;
      return { kind: "file", file, created: false };
    });
  }

  /** A file cannot lie below another file: each directory on the way must not be one. */
  private refuseFileAncestors(scope: MemberScope, path: string, param: string): void {
    const blocking = ancestorsOf(path).find((dir) => this.files.exists(scope, dir));
    if (blocking !== undefined) {
      throw conflict(`${blocking} is a file, so it cannot hold ${path}`, { param, code: "file_exists" });
    }
  }

  private insert(scope: MemberScope, path: string, content: string): MemoryFileRecord {
    const size = checkFileSize(content, "content");
    const usage = this.files.usage(scope);
    checkMemberQuota({ fileCount: usage.fileCount + 1, totalBytes: usage.totalBytes + size });
    return this.files.create(scope, path, {
      content,
      size,
      sha256: memorySha256(content),
      lineCount: lineCount(content),
    });
  }

  private replace(
    scope: MemberScope,
    current: MemoryFileRecord,
    content: string,
    param: string,
  ): MemoryFileRecord {
    const size = checkFileSize(content, param);
    const usage = this.files.usage(scope);
    checkMemberQuota({ fileCount: usage.fileCount, totalBytes: usage.totalBytes - current.size + size });
    return this.files.update(scope, current, {
      content,
      size,
      sha256: memorySha256(content),
      lineCount: lineCount(content),
    });
  }

  private mustGet(scope: MemberScope, path: string): MemoryFileWithContent {
    const file = this.files.get(scope, path);
    if (file === null) {
      throw this.files.hasBelow(scope, path)
        ? notFound(`${path} is a directory, not a file; list it instead`, { param: "path" })
        : noFile(path);
    }
    return file;
  }
}

/** Memory is the member's, and the member is the API key: a principal without one has no memory (decision M1). */
function scopeOf(principal: Principal): MemberScope {
  if (principal.apiKeyId === "") {
    throw invalidRequest(
      "Memory belongs to a member (an API key): act with a principal whose apiKeyId names the member's key",
    );
  }
  return { organizationId: principal.organizationId, memberId: principal.apiKeyId };
}

function noFile(path: string) {
  return notFound(`No memory file or directory ${path}`, { param: "path" });
}

function preconditionFailed(message: string) {
  return conflict(`${message}; ifMatch does not hold`, { param: "ifMatch", code: "precondition_failed" });
}

function checkIfMatch(current: MemoryFileRecord, ifMatch: string | undefined): void {
  if (ifMatch !== undefined && ifMatch.toLowerCase() !== current.sha256) {
    throw preconditionFailed(`${current.path} has changed (its sha256 is ${current.sha256})`);
  }
}

function refuseIfMatchOnDirectory(ifMatch: string | undefined, operation: string): void {
  if (ifMatch !== undefined) {
    throw invalidRequest(`ifMatch applies to a file; a directory ${operation} takes none`, {
      param: "ifMatch",
    });
  }
}
