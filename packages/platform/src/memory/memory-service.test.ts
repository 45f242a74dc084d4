/** A member's memory through the library: every command, its errors, limits, isolation and erasure. */

import { MEMORY_MEMBER_MAX_FILES } from "@groundwork/agents";
import type { Principal } from "@groundwork/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";

let store: PlatformStore;
let groundwork: Groundwork;
let ada: Principal;
let bob: Principal;
const page = { page: 0, size: 100 };

beforeEach(async () => {
  store = await openTestStore();
  groundwork = createGroundwork({ store });
  const base = await groundwork.principal("acme", "member");
  const key = async (name: string) =>
    (await store.apiKeys.create({ organizationId: base.organizationId, role: "member", name })).record.id;
  ada = { ...base, apiKeyId: await key("ada") };
  bob = { ...base, apiKeyId: await key("bob") };
});
afterEach(async () => await store.close());

async function failure(run: () => unknown) {
  try {
    await run();
  } catch (error) {
    const { status, code, param } = error as { status: number; code: string; param: string | null };
    return { status, code, param };
  }
  throw new Error("expected a failure");
}

const memory = () => groundwork.memory;

describe("MemoryService", () => {
  it("creates, reads (whole and by lines), edits, renames and deletes a file, keeping its id", async () => {
    const created = await memory().write(ada, {
      command: "create",
      path: "/memories/notes.md",
      content: "one\ntwo\n",
    });
    expect(created).toMatchObject({
      kind: "file",
      created: true,
      file: { path: "/memories/notes.md", size: 8, lineCount: 2 },
    });
    if (created.kind !== "file") throw new Error("a file");
    expect(created.file.id).toMatch(/^mem_/);
    expect(await memory().read(ada, { path: "/memories/notes.md", startLine: 2 })).toMatchObject({
      content: "two\n",
      startLine: 2,
      endLine: 2,
    });
    await memory().write(ada, {
      command: "str_replace",
      path: "/memories/notes.md",
      oldStr: "two",
      newStr: "2",
    });
    await memory().write(ada, {
      command: "insert",
      path: "/memories/notes.md",
      insertLine: 0,
      insertText: "zero",
    });
    const renamed = await memory().write(ada, {
      command: "rename",
      path: "/memories/notes.md",
      newPath: "/memories/a/n.md",
    });
    expect(renamed).toMatchObject({
      kind: "file",
      created: false,
      file: { id: created.file.id, path: "/memories/a/n.md" },
    });
    const read = await memory().read(ada, { path: "/memories/a/n.md" });
    expect(read).toMatchObject({ content: "zero\none\n2\n", lineCount: 3, startLine: 1, endLine: 3 });
    await memory().delete(ada, { path: "/memories/a/n.md", ifMatch: read.sha256 });
    expect((await memory().list(ada, { page })).total).toBe(0);
  });

  it("answers the codes of the spec", async () => {
    await memory().write(ada, { command: "create", path: "/memories/d/f", content: "x x" });
    const create =
      (path: string, extra: object = {}) =>
      async () =>
        await memory().write(ada, { command: "create", path, content: "y", ...extra });
    expect(await failure(create("/memories/../x"))).toEqual({
      status: 400,
      code: "invalid_path",
      param: "path",
    });
    expect(await failure(create("/memories/d/f"))).toEqual({
      status: 409,
      code: "file_exists",
      param: "path",
    });
    expect(await failure(create("/memories/d"))).toEqual({
      status: 409,
      code: "is_directory",
      param: "path",
    });
    expect(await failure(create("/memories/d/f/g"))).toMatchObject({ status: 409, code: "file_exists" });
    expect(await failure(create("/memories/d/f", { overwrite: true, ifMatch: "0".repeat(64) }))).toEqual({
      status: 409,
      code: "precondition_failed",
      param: "ifMatch",
    });
    expect(
      await failure(
        async () => await memory().write(ada, { command: "create", path: "/memories/z", content: "\u0000" }),
      ),
    ).toEqual({
      status: 400,
      code: "invalid_content",
      param: "content",
    });
    expect(
      await failure(
        async () => await memory().write(ada, { command: "str_replace", path: "/memories/d/f", oldStr: "x" }),
      ),
    ).toEqual({
      status: 400,
      code: "multiple_matches",
      param: "oldStr",
    });
    expect(
      await failure(
        async () => await memory().write(ada, { command: "str_replace", path: "/memories/d/f", oldStr: "q" }),
      ),
    ).toMatchObject({
      code: "no_match",
    });
    expect(
      await failure(
        async () =>
          await memory().write(ada, { command: "str_replace", path: "/memories/none", oldStr: "q" }),
      ),
    ).toMatchObject({
      status: 404,
    });
    expect(
      await failure(
        async () =>
          await memory().write(ada, {
            command: "insert",
            path: "/memories/d/f",
            insertLine: 5,
            insertText: "q",
          }),
      ),
    ).toMatchObject({
      status: 400,
      param: "insertLine",
    });
    expect(
      await failure(
        async () =>
          await memory().write(ada, { command: "rename", path: "/memories/d", newPath: "/memories/d/e" }),
      ),
    ).toMatchObject({
      code: "invalid_path",
      param: "newPath",
    });
    expect(await failure(async () => await memory().write(ada, { command: "nope" } as never))).toMatchObject({
      status: 400,
      param: "command",
    });
    expect(
      await failure(async () => await memory().delete(ada, { path: "/memories/d", ifMatch: "x" })),
    ).toMatchObject({
      param: "ifMatch",
    });
    expect(await failure(async () => await memory().read(ada, { path: "/memories/d" }))).toMatchObject({
      status: 404,
    });
  });

  it("moves a directory with everything below it and deletes directories", async () => {
    for (const name of ["a", "b", "sub/c"])
      await memory().write(ada, { command: "create", path: `/memories/p/${name}`, content: name });
    await memory().write(ada, { command: "create", path: "/memories/p2", content: "sibling" });
    expect(
      await memory().write(ada, { command: "rename", path: "/memories/p", newPath: "/memories/q" }),
    ).toEqual({
      kind: "directory",
      path: "/memories/q",
      movedFiles: 3,
    });
    expect((await memory().list(ada, { prefix: "/memories/q", page })).items.map((f) => f.path)).toEqual([
      "/memories/q/a",
      "/memories/q/b",
      "/memories/q/sub/c",
    ]);
    await memory().delete(ada, { path: "/memories/q" });
    expect((await memory().list(ada, { page })).items.map((f) => f.path)).toEqual(["/memories/p2"]);
  });

  it("enforces the per-file size and the per-member file count", async () => {
    expect(
      await failure(
        async () =>
          await memory().write(ada, {
            command: "create",
            path: "/memories/big",
            content: "x".repeat(102_401),
          }),
      ),
    ).toEqual({
      status: 413,
      code: "file_too_large",
      param: "content",
    });
    const scope = { organizationId: ada.organizationId, memberId: ada.apiKeyId };
    for (let i = 0; i < MEMORY_MEMBER_MAX_FILES; i++) {
      await store.memoryFiles.create(scope, `/memories/f${i}`, {
        content: "",
        size: 0,
        sha256: "",
        lineCount: 0,
      });
    }
    expect(
      await failure(
        async () => await memory().write(ada, { command: "create", path: "/memories/one-more", content: "" }),
      ),
    ).toMatchObject({
      status: 413,
      code: "memory_quota_exceeded",
    });
  });

  it("enforces the per-member byte quota, counting the replaced file's bytes as freed", async () => {
    const scope = { organizationId: ada.organizationId, memberId: ada.apiKeyId };
    await store.memoryFiles.create(scope, "/memories/large", {
      content: "",
      size: 10_485_700,
      sha256: "",
      lineCount: 0,
    });
    await memory().write(ada, { command: "create", path: "/memories/small", content: "x".repeat(60) });
    expect(
      await failure(
        async () => await memory().write(ada, { command: "create", path: "/memories/more", content: "x" }),
      ),
    ).toEqual({
      status: 413,
      code: "memory_quota_exceeded",
      param: null,
    });
    await memory().write(ada, {
      command: "create",
      path: "/memories/small",
      content: "y".repeat(60),
      overwrite: true,
    });
  });

  it("keeps members apart, lists usage, forgets and erases", async () => {
    await memory().write(ada, { command: "create", path: "/memories/a", content: "ada's" });
    await memory().write(bob, { command: "create", path: "/memories/a", content: "bob's file" });
    expect((await memory().read(ada, { path: "/memories/a" })).content).toBe("ada's");
    const other = await groundwork.principal("other", "admin");
    expect((await memory().usage(ada.organizationId, page)).items).toMatchObject([
      {
        memberId: bob.apiKeyId,
        keyName: "bob",
        fileCount: 1,
        totalBytes: 10,
        quotaBytes: 10_485_760,
        revoked: false,
      },
      { memberId: ada.apiKeyId, keyName: "ada", fileCount: 1, totalBytes: 5 },
    ]);
    expect((await memory().usage(other.organizationId, page)).total).toBe(0);
    expect(await failure(async () => await memory().erase(other.organizationId, bob.apiKeyId))).toMatchObject(
      {
        status: 404,
        param: "memberId",
      },
    );
    expect(await memory().erase(ada.organizationId, bob.apiKeyId)).toEqual({
      memberId: bob.apiKeyId,
      deletedFiles: 1,
      freedBytes: 10,
    });
    expect(await memory().forget(ada)).toEqual({ memberId: ada.apiKeyId, deletedFiles: 1, freedBytes: 5 });
  });

  it("refuses a principal without a member key (decision M1)", async () => {
    expect(
      await failure(async () => await memory().list(await groundwork.principal(), { page })),
    ).toMatchObject({
      status: 400,
    });
  });
});
