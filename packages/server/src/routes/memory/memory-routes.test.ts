/** `/v1/me`, `/v1/me/memory…` and `/v1/memory…`: each endpoint's success, validation, roles and isolation. */
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let tenant: TestTenant;
let app: App;
/** A Member key of another organization. */
let stranger: string;

beforeEach(async () => {
  tenant = await createTestTenant();
  app = createApp({ store: tenant.store });
  stranger = await tenant.keyFor("member", "enterprise");
});

const json = (key: string, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
const write = (key: string, body: unknown) => json(key, "POST", "/v1/me/memory/file", body);
const keyIdOf = async (key: string) => (await bodyOf(await json(key, "GET", "/v1/me"))).keyId as string;

describe("GET /v1/me", () => {
  it("answers the calling key for every role", async () => {
    for (const role of ["viewer", "member", "admin"] as const) {
      const body = await bodyOf(await json(tenant.keys[role], "GET", "/v1/me"));
      expect(body).toEqual({
        keyId: expect.stringMatching(/^key_/),
        organizationId: tenant.organizationId,
        role,
        plan: "enterprise",
      });
    }
  });
});

describe("POST /v1/me/memory/file", () => {
  it("creates (201), edits (200), renames a directory (200) and answers the spec's codes", async () => {
    const created = await write(tenant.keys.viewer, {
      command: "create",
      path: "/memories/n.md",
      content: "a\nb\n",
    });
    expect(created.status).toBe(201);
    const file = await bodyOf(created);
    expect(file).toEqual({
      id: expect.stringMatching(/^mem_/),
      path: "/memories/n.md",
      size: 4,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      lineCount: 2,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const edited = await write(tenant.keys.viewer, {
      command: "insert",
      path: "/memories/n.md",
      insertLine: 2,
      insertText: "c",
      ifMatch: file.sha256,
    });
    expect(edited.status).toBe(200);
    expect(await bodyOf(edited)).toMatchObject({ id: file.id, lineCount: 3 });
    const stale = await write(tenant.keys.viewer, {
      command: "str_replace",
      path: "/memories/n.md",
      oldStr: "a",
      ifMatch: file.sha256,
    });
    expect(stale.status).toBe(409);
    expect((await bodyOf(stale)).error).toMatchObject({ code: "precondition_failed", param: "ifMatch" });
    await write(tenant.keys.viewer, { command: "create", path: "/memories/d/x", content: "" });
    const moved = await write(tenant.keys.viewer, {
      command: "rename",
      path: "/memories/d",
      newPath: "/memories/e",
    });
    expect(await bodyOf(moved)).toEqual({ path: "/memories/e", movedFiles: 1 });

    const cases: Array<[unknown, number, string, string | null]> = [
      [{ command: "create", path: "/memories/n.md", content: "" }, 409, "file_exists", "path"],
      [{ command: "create", path: "/memories/e", content: "" }, 409, "is_directory", "path"],
      [{ command: "create", path: "/memories/../../etc/passwd", content: "" }, 400, "invalid_path", "path"],
      [
        { command: "create", path: "/memories/x", content: "x".repeat(102_401) },
        413,
        "file_too_large",
        "content",
      ],
      [{ command: "create", path: "/memories/x", content: "\u0000" }, 400, "invalid_content", "content"],
      [{ command: "create", path: "/memories/x" }, 400, "invalid_request", "content"],
      [{ command: "str_replace", path: "/memories/n.md", oldStr: "zzz" }, 400, "no_match", "oldStr"],
      [{ command: "str_replace", path: "/memories/n.md", oldStr: "" }, 400, "invalid_request", "oldStr"],
      [
        { command: "insert", path: "/memories/n.md", insertLine: 9, insertText: "q" },
        400,
        "invalid_request",
        "insertLine",
      ],
      [
        { command: "insert", path: "/memories/n.md", insertLine: "1", insertText: "q" },
        400,
        "invalid_request",
        "insertLine",
      ],
      [{ command: "rename", path: "/memories/nope", newPath: "/memories/x" }, 404, "not_found", "path"],
      [{ command: "rename", path: "/memories/n.md", newPath: "/memories/e" }, 409, "file_exists", "newPath"],
      [{ command: "rename", path: "/memories/n.md", newPath: "/tmp/x" }, 400, "invalid_path", "newPath"],
      [{ command: "delete", path: "/memories/n.md" }, 400, "invalid_request", "command"],
      [{ path: "/memories/n.md" }, 400, "invalid_request", "command"],
    ];
    for (const [body, status, code, param] of cases) {
      const response = await write(tenant.keys.viewer, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((await bodyOf(response)).error, JSON.stringify(body)).toMatchObject({ code, param });
    }
  });

  it("never answers 5xx to malformed bodies", async () => {
    const command = fc.record(
      {
        command: fc.oneof(fc.constantFrom("create", "str_replace", "insert", "rename"), fc.jsonValue()),
        path: fc.oneof(fc.string(), fc.constant("/memories/a"), fc.jsonValue()),
        content: fc.oneof(fc.string(), fc.jsonValue()),
        oldStr: fc.oneof(fc.string(), fc.jsonValue()),
        newStr: fc.jsonValue(),
        newPath: fc.oneof(fc.string(), fc.constant("/memories/b")),
        insertLine: fc.oneof(fc.integer(), fc.double(), fc.jsonValue()),
        insertText: fc.jsonValue(),
        overwrite: fc.jsonValue(),
        ifMatch: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
          command.map((v) => JSON.stringify(v)),
        ),
        async (body) => {
          const response = await write(tenant.keys.member, body);
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) expect((await bodyOf(response)).error).toBeDefined();
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("GET /v1/me/memory/files and /v1/me/memory/file", () => {
  it("lists by path with a prefix, reads line ranges, validates queries", async () => {
    for (const path of ["/memories/b", "/memories/a/2", "/memories/a/1"]) {
      await write(tenant.keys.member, { command: "create", path, content: "l1\nl2\nl3\n" });
    }
    const all = await bodyOf(await json(tenant.keys.member, "GET", "/v1/me/memory/files"));
    expect(all).toMatchObject({ page: 0, size: 20, totalElements: 3, totalPages: 1 });
    expect((all.content as Array<{ path: string }>).map((f) => f.path)).toEqual([
      "/memories/a/1",
      "/memories/a/2",
      "/memories/b",
    ]);
    const under = await bodyOf(
      await json(tenant.keys.member, "GET", "/v1/me/memory/files?prefix=/memories/a&size=1&page=1"),
    );
    expect(under).toMatchObject({ totalElements: 2, content: [{ path: "/memories/a/2" }] });
    const read = await bodyOf(
      await json(tenant.keys.member, "GET", "/v1/me/memory/file?path=/memories/b&startLine=2&endLine=-1"),
    );
    expect(read).toMatchObject({ content: "l2\nl3\n", startLine: 2, endLine: 3, lineCount: 3 });

    const refusals: Array<[string, number, string]> = [
      ["/v1/me/memory/files?prefix=/etc", 400, "prefix"],
      ["/v1/me/memory/files?size=0", 400, "size"],
      ["/v1/me/memory/file", 400, "path"],
      ["/v1/me/memory/file?path=/memories/a/../b", 400, "path"],
      ["/v1/me/memory/file?path=/memories/b&startLine=x", 400, "startLine"],
      ["/v1/me/memory/file?path=/memories/b&startLine=9", 400, "startLine"],
      ["/v1/me/memory/file?path=/memories/b&endLine=9", 400, "endLine"],
      ["/v1/me/memory/file?path=/memories/none", 404, "path"],
    ];
    for (const [path, status, param] of refusals) {
      const response = await json(tenant.keys.member, "GET", path);
      expect(response.status, path).toBe(status);
      expect((await bodyOf(response)).error.param, path).toBe(param);
    }
  });
});

describe("DELETE /v1/me/memory/file and /v1/me/memory", () => {
  it("deletes files and directories, checks ifMatch, forgets everything", async () => {
    const file = await bodyOf(
      await write(tenant.keys.member, { command: "create", path: "/memories/a/f", content: "x" }),
    );
    await write(tenant.keys.member, { command: "create", path: "/memories/b", content: "yy" });
    const del = (query: string) => json(tenant.keys.member, "DELETE", `/v1/me/memory/file${query}`);
    expect((await del("?path=/memories/a/f&ifMatch=00")).status).toBe(409);
    expect((await del("?path=/memories/a&ifMatch=00")).status).toBe(400);
    expect((await bodyOf(await del(""))).error.param).toBe("path");
    expect((await del(`?path=/memories/a/f&ifMatch=${file.sha256}`)).status).toBe(204);
    expect((await del("?path=/memories/a")).status).toBe(404);
    const keyId = await keyIdOf(tenant.keys.member);
    expect(await bodyOf(await json(tenant.keys.member, "DELETE", "/v1/me/memory"))).toEqual({
      memberId: keyId,
      deletedFiles: 1,
      freedBytes: 2,
    });
  });
});

describe("own memory only", () => {
  it("keeps each key's tree its own, within and across organizations", async () => {
    await write(tenant.keys.member, { command: "create", path: "/memories/secret", content: "mine" });
    for (const key of [tenant.keys.admin, tenant.keys.viewer, stranger]) {
      expect((await json(key, "GET", "/v1/me/memory/file?path=/memories/secret")).status).toBe(404);
      expect((await bodyOf(await json(key, "GET", "/v1/me/memory/files"))).totalElements).toBe(0);
      expect(
        (await write(key, { command: "str_replace", path: "/memories/secret", oldStr: "mine" })).status,
      ).toBe(404);
      expect((await json(key, "DELETE", "/v1/me/memory/file?path=/memories/secret")).status).toBe(404);
    }
    expect((await json(tenant.keys.member, "GET", "/v1/me/memory/file?path=/memories/secret")).status).toBe(
      200,
    );
  });
});

describe("GET /v1/memory/usage and DELETE /v1/memory/members/{memberId}", () => {
  it("are Admin-only, list the organization's members with memory and erase one", async () => {
    await write(tenant.keys.member, { command: "create", path: "/memories/a", content: "12345" });
    await write(stranger, { command: "create", path: "/memories/a", content: "other org" });
    const memberId = await keyIdOf(tenant.keys.member);
    for (const key of [tenant.keys.member, tenant.keys.viewer]) {
      expect((await json(key, "GET", "/v1/memory/usage")).status).toBe(403);
      expect((await json(key, "DELETE", `/v1/memory/members/${memberId}`)).status).toBe(403);
    }
    const usage = await bodyOf(await json(tenant.keys.admin, "GET", "/v1/memory/usage"));
    expect(usage).toMatchObject({
      totalElements: 1,
      content: [
        {
          memberId,
          keyName: "member key",
          revoked: false,
          fileCount: 1,
          totalBytes: 5,
          quotaBytes: 10_485_760,
        },
      ],
    });
    expect((usage.content as Array<{ keyPrefix: string; lastWriteAt: string }>)[0]).toMatchObject({
      keyPrefix: tenant.keys.member.slice(0, 10),
      lastWriteAt: expect.stringMatching(/Z$/),
    });
    expect((await bodyOf(await json(tenant.keys.admin, "GET", "/v1/memory/usage?page=-1"))).error.param).toBe(
      "page",
    );

    const strangerId = await keyIdOf(stranger);
    expect((await json(tenant.keys.admin, "DELETE", `/v1/memory/members/${strangerId}`)).status).toBe(404);
    expect((await json(tenant.keys.admin, "DELETE", "/v1/memory/members/key_nope")).status).toBe(404);
    expect(await bodyOf(await json(tenant.keys.admin, "DELETE", `/v1/memory/members/${memberId}`))).toEqual({
      memberId,
      deletedFiles: 1,
      freedBytes: 5,
    });
    expect((await json(stranger, "GET", "/v1/me/memory/file?path=/memories/a")).status).toBe(200);
  });
});
