import { describe, expect, it } from "vitest";
import {
  checkFileSize,
  checkMemberQuota,
  MEMORY_FILE_MAX_BYTES,
  MEMORY_MEMBER_MAX_FILES,
} from "./memory-limits.js";
import { ancestorsOf, memoryPath, memoryPathProblem, movedPath } from "./memory-paths.js";
import {
  checkMemoryText,
  insertLines,
  lineCount,
  lineRange,
  memorySha256,
  replaceOnce,
} from "./memory-text.js";

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return {
      status: (error as { status: number }).status,
      code: (error as { code: string }).code,
      param: (error as { param: string }).param,
    };
  }
  return null;
};

describe("memory paths", () => {
  it("accepts canonical paths and refuses every other spelling", () => {
    for (const ok of [
      "/memories/a",
      "/memories/notes.md",
      "/memories/a b/c-d_e.txt",
      `/memories/${"x/".repeat(7)}y`,
    ]) {
      expect(memoryPathProblem(ok, false)).toBeNull();
    }
    for (const bad of [
      "",
      "/",
      "/memories/",
      "/memories//a",
      "/memories/a/",
      "/memories/../etc",
      "/memories/./a",
      "/memories/a/..",
      "memories/a",
      "/memoriesx/a",
      "/memories\\a",
      "/memories/a\\b",
      "/memories/ a",
      "/memories/a ",
      "/memories/é",
      `/memories/${"x".repeat(129)}`,
      `/memories/${"x/".repeat(8)}y`,
      `/memories/${"abcdefgh/".repeat(60)}`,
    ]) {
      expect(memoryPathProblem(bad, false), bad).not.toBeNull();
    }
    expect(memoryPathProblem("/memories", true)).toBeNull();
    expect(memoryPathProblem("/memories", false)).not.toBeNull();
  });

  it("answers 400 invalid_path naming the field", () => {
    expect(codeOf(() => memoryPath("/etc/passwd", "newPath"))).toEqual({
      status: 400,
      code: "invalid_path",
      param: "newPath",
    });
  });

  it("lists ancestors and moves paths between directories", () => {
    expect(ancestorsOf("/memories/a/b/c")).toEqual(["/memories/a", "/memories/a/b"]);
    expect(ancestorsOf("/memories/a")).toEqual([]);
    expect(movedPath("/memories/a/x", "/memories/a", "/memories/b")).toBe("/memories/b/x");
    expect(movedPath("/memories/a", "/memories/a", "/memories/b")).toBe("/memories/b");
  });
});

describe("memory text", () => {
  it("counts lines with or without a final line end", () => {
    expect([lineCount(""), lineCount("a"), lineCount("a\n"), lineCount("a\nb"), lineCount("a\n\n")]).toEqual([
      0, 1, 1, 2, 2,
    ]);
  });

  it("reads line ranges, 1-based and inclusive, -1 meaning the end", () => {
    const text = "one\ntwo\nthree\n";
    expect(lineRange(text)).toEqual({ content: text, startLine: 1, endLine: 3 });
    expect(lineRange(text, 2, 2)).toEqual({ content: "two\n", startLine: 2, endLine: 2 });
    expect(lineRange(text, 2, -1)).toEqual({ content: "two\nthree\n", startLine: 2, endLine: 3 });
    expect(lineRange("")).toEqual({ content: "", startLine: 1, endLine: 0 });
    expect(codeOf(() => lineRange(text, 4))?.param).toBe("startLine");
    expect(codeOf(() => lineRange(text, 0))?.param).toBe("startLine");
    expect(codeOf(() => lineRange(text, 2, 1))?.param).toBe("endLine");
    expect(codeOf(() => lineRange(text, 1, 9))?.param).toBe("endLine");
  });

  it("replaces exactly one occurrence", () => {
    expect(replaceOnce("a b c", "b", "x")).toBe("a x c");
    expect(codeOf(() => replaceOnce("a b", "z", "x"))).toEqual({
      status: 400,
      code: "no_match",
      param: "oldStr",
    });
    expect(codeOf(() => replaceOnce("b b", "b", "x"))).toEqual({
      status: 400,
      code: "multiple_matches",
      param: "oldStr",
    });
  });

  it("inserts whole lines, adding a missing line end", () => {
    expect(insertLines("a\nb\n", 0, "x")).toBe("x\na\nb\n");
    expect(insertLines("a\nb\n", 1, "x\n")).toBe("a\nx\nb\n");
    expect(insertLines("a\nb", 2, "x")).toBe("a\nb\nx\n");
    expect(insertLines("", 0, "x")).toBe("x\n");
    expect(codeOf(() => insertLines("a\n", 2, "x"))?.param).toBe("insertLine");
    expect(codeOf(() => insertLines("a\n", -1, "x"))?.param).toBe("insertLine");
  });

  it("refuses NUL and lone surrogates, hashes UTF-8 bytes", () => {
    expect(codeOf(() => checkMemoryText("a\u0000b", "content"))).toEqual({
      status: 400,
      code: "invalid_content",
      param: "content",
    });
    expect(codeOf(() => checkMemoryText("a\uD800b", "content"))?.code).toBe("invalid_content");
    expect(checkMemoryText("emoji 😀 ok", "content")).toBe("emoji 😀 ok");
    expect(memorySha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("enforces the file size and the member quota", () => {
    expect(checkFileSize("x".repeat(MEMORY_FILE_MAX_BYTES), "content")).toBe(MEMORY_FILE_MAX_BYTES);
    expect(codeOf(() => checkFileSize("x".repeat(MEMORY_FILE_MAX_BYTES + 1), "content"))).toEqual({
      status: 413,
      code: "file_too_large",
      param: "content",
    });
    expect(
      codeOf(() => checkMemberQuota({ fileCount: MEMORY_MEMBER_MAX_FILES + 1, totalBytes: 0 }))?.code,
    ).toBe("memory_quota_exceeded");
    expect(codeOf(() => checkMemberQuota({ fileCount: 1, totalBytes: 10_485_761 }))?.status).toBe(413);
  });
});
