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
  MemoryFileWithContent,
} from "@groundwork/store-sqlite";
import type { PlatformStore } from "../store-port.js";
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
  private readonly files: PlatformStore["memoryFiles"];

  constructor(private readonly store: PlatformStore) {
    this.files = store.memoryFiles;
  }

  /** Metadata of the files at and below `prefix` (default `/memories`), by path. */
  async list(
    principal: Principal,
    query: { prefix?: string | undefined; page: PageRequest },
  ): Promise<{ items: MemoryFileRecord[]; total: number }> {
    const prefix = memoryPath(query.prefix ?? MEMORY_ROOT, "prefix", { allowRoot: true });
    return await this.files.list(
      scopeOf(principal),
      prefix,
      query.page.page * query.page.size,
      query.page.size,
    );
  }

  /** A file with its content, whole or lines `startLine` … `endLine`. */
  async read(
    principal: Principal,
    query: { path: string; startLine?: number | undefined; endLine?: number | undefined },
  ): Promise<MemoryFileContent> {
    const scope = scopeOf(principal);
    const file = await this.mustGet(scope, memoryPath(query.path, "path"));
    const { content, ...metadata } = file;
    return { ...metadata, ...lineRange(content, query.startLine, query.endLine) };
  }

  async write(principal: Principal, input: MemoryWriteInput): Promise<MemoryWriteResult> {
    const command = validate(memoryWriteCommand, input);
    const scope = scopeOf(principal);
    const path = memoryPath(command.path, "path");
    switch (command.command) {
      case "create":
        return await this.create(scope, path, command);
      case "str_replace": {
        checkMemoryText(command.oldStr, "oldStr");
        const newStr = checkMemoryText(command.newStr, "newStr");
        return await this.edit(scope, path, command.ifMatch, "newStr", (content) =>
          replaceOnce(content, command.oldStr, newStr),
        );
      }
      case "insert": {
        const text = checkMemoryText(command.insertText, "insertText");
        return await this.edit(scope, path, command.ifMatch, "insertText", (content) =>
          insertLines(content, command.insertLine, text),
        );
      }
      case "rename":
        return await this.rename(scope, path, memoryPath(command.newPath, "newPath"), command.ifMatch);
    }
  }

  /** Deletes a file, or everything below a directory path (then `ifMatch` is refused). */
  async delete(principal: Principal, target: { path: string; ifMatch?: string | undefined }): Promise<void> {
    const scope = scopeOf(principal);
    const path = memoryPath(target.path, "path", { allowRoot: true });
    await this.files.atomically(async () => {
      const current = path === MEMORY_ROOT ? null : await this.files.get(scope, path);
      if (current !== null) {
        checkIfMatch(current, target.ifMatch);
        await this.files.delete(scope, { path });
        return;
      }
      if (path !== MEMORY_ROOT && !(await this.files.hasBelow(scope, path))) throw noFile(path);
      refuseIfMatchOnDirectory(target.ifMatch, "delete");
      await this.files.delete(scope, { dir: path });
    });
  }

  /** Forgets everything of the calling member. */
  async forget(principal: Principal): Promise<ErasedMemory> {
    const scope = scopeOf(principal);
    return { memberId: scope.memberId, ...(await this.files.delete(scope, null)) };
  }

  /** Members of the organization that have memory, largest first. */
  async usage(organizationId: string, page: PageRequest): Promise<{ items: MemberUsage[]; total: number }> {
    const { items, total } = await this.files.usageByMember(organizationId, page.page * page.size, page.size);
    return { items: items.map((item) => ({ ...item, quotaBytes: MEMORY_MEMBER_MAX_BYTES })), total };
  }

  /** Erases a member's memory; the member must be an API key of the organization. */
  async erase(organizationId: string, memberId: string): Promise<ErasedMemory> {
    if (!(await this.store.apiKeys.list(organizationId)).some((key) => key.id === memberId)) {
      throw notFound(`No member ${memberId} in this organization`, { param: "memberId" });
    }
    return { memberId, ...(await this.files.delete({ organizationId, memberId }, null)) };
  }

  private async create(
    scope: MemberScope,
    path: string,
    command: Extract<MemoryWriteCommand, { command: "create" }>,
  ): Promise<MemoryWriteResult> {
    const content = checkMemoryText(command.content, "content");
    return await this.files.atomically(async () => {
      const current = await this.files.get(scope, path);
      if (current === null) {
        if (await this.files.hasBelow(scope, path)) {
          throw conflict(`${path} is a directory`, { param: "path", code: "is_directory" });
        }
        if (command.ifMatch !== undefined) throw preconditionFailed(`${path} does not exist`);
        await this.refuseFileAncestors(scope, path, "path");
        return { kind: "file", file: await this.insert(scope, path, content), created: true };
      }
      if (!command.overwrite) {
        throw conflict(`${path} already exists; set overwrite to replace it`, {
          param: "path",
          code: "file_exists",
        });
      }
      checkIfMatch(current, command.ifMatch);
      return { kind: "file", file: await this.replace(scope, current, content, "content"), created: false };
    });
  }

  private async edit(
    scope: MemberScope,
    path: string,
    ifMatch: string | undefined,
    param: string,
    change: (content: string) => string,
  ): Promise<MemoryWriteResult> {
    return await this.files.atomically(async () => {
      const current = await this.mustGet(scope, path);
      checkIfMatch(current, ifMatch);
      return {
        kind: "file",
        file: await this.replace(scope, current, change(current.content), param),
        created: false,
      };
    });
  }

  private async rename(
    scope: MemberScope,
    path: string,
    newPath: string,
    ifMatch: string | undefined,
  ): Promise<MemoryWriteResult> {
    return await this.files.atomically(async () => {
      const current = await this.files.get(scope, path);
      const moving = current === null ? await this.files.below(scope, path) : [current];
      if (moving.length === 0) throw noFile(path);
      if (current === null) refuseIfMatchOnDirectory(ifMatch, "rename");
      else checkIfMatch(current, ifMatch);
      if (newPath === path || isUnder(newPath, path)) {
        throw invalidRequest(`newPath may not be ${path} or lie below it`, {
          param: "newPath",
          code: "invalid_path",
        });
      }
      if ((await this.files.exists(scope, newPath)) || (await this.files.hasBelow(scope, newPath))) {
        throw conflict(`${newPath} already exists`, { param: "newPath", code: "file_exists" });
      }
      await this.refuseFileAncestors(scope, newPath, "newPath");
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
      for (const { file, to } of moves) await this.files.move(scope, file.id, to);
      if (current === null) return { kind: "directory", path: newPath, movedFiles: moves.length };
      const moved = await this.files.get(scope, newPath);
      if (moved === null) throw new Error(`Memory file ${current.id} vanished while being renamed`);
      const { content: _content, ...file } = moved;
      return { kind: "file", file, created: false };
    });
  }

  /** A file cannot lie below another file: each directory on the way must not be one. */
  private async refuseFileAncestors(scope: MemberScope, path: string, param: string): Promise<void> {
    let blocking: string | undefined;
    for (const dir of ancestorsOf(path)) {
      if (await this.files.exists(scope, dir)) {
        blocking = dir;
        break;
      }
    }
    if (blocking !== undefined) {
      throw conflict(`${blocking} is a file, so it cannot hold ${path}`, { param, code: "file_exists" });
    }
  }

  private async insert(scope: MemberScope, path: string, content: string): Promise<MemoryFileRecord> {
    const size = checkFileSize(content, "content");
    const usage = await this.files.usage(scope);
    checkMemberQuota({ fileCount: usage.fileCount + 1, totalBytes: usage.totalBytes + size });
    return await this.files.create(scope, path, {
      content,
      size,
      sha256: memorySha256(content),
      lineCount: lineCount(content),
    });
  }

  private async replace(
    scope: MemberScope,
    current: MemoryFileRecord,
    content: string,
    param: string,
  ): Promise<MemoryFileRecord> {
    const size = checkFileSize(content, param);
    const usage = await this.files.usage(scope);
    checkMemberQuota({ fileCount: usage.fileCount, totalBytes: usage.totalBytes - current.size + size });
    return await this.files.update(scope, current, {
      content,
      size,
      sha256: memorySha256(content),
      lineCount: lineCount(content),
    });
  }

  private async mustGet(scope: MemberScope, path: string): Promise<MemoryFileWithContent> {
    const file = await this.files.get(scope, path);
    if (file === null) {
      throw (await this.files.hasBelow(scope, path))
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
