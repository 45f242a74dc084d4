/** `/v1/skills…` and `/v1/agents/{agentId}/skills`: success, validation, hostile archives, roles and isolation. */
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { lieAboutSizes, multipartOf, skillMd, zipOf, zipWithName } from "../../../test/skill-zips.js";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let tenant: TestTenant;
let app: App;
/** A Member key of another organization. */
let stranger: string;

beforeEach(async () => {
  tenant = await createTestTenant();
  app = createApp({ store: tenant.store });
  stranger = await tenant.keyFor("admin", "enterprise");
});

const json = (key: string, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
const importFiles = (key: string, files: Record<string, string>, extra: Record<string, unknown> = {}) =>
  json(key, "POST", "/v1/skills/import", { files, ...extra });
const importZip = (key: string, zip: Uint8Array, fields: Record<string, string> = {}) =>
  app.request("/v1/skills/import", {
    method: "POST",
    headers: bearer(key),
    body: multipartOf(zip, "s.zip", fields),
  });
const member = () => tenant.keys.member;
const admin = () => tenant.keys.admin;
const viewer = () => tenant.keys.viewer;

async function expectError(response: Response, status: number, code: string, param?: string | null) {
  const body = await bodyOf(response);
  expect(response.status, JSON.stringify(body)).toBe(status);
  expect(body.error.code).toBe(code);
  if (param !== undefined) expect(body.error.param).toBe(param);
}

describe("POST /v1/skills/import", () => {
  it("creates from a file map, versions on change, answers unchanged for identical files", async () => {
    const files = { "SKILL.md": skillMd("pdf-tools"), "scripts/run.py": "print('hi')\n" };
    const created = await importFiles(member(), files, { changeDescription: "first" });
    expect(created.status).toBe(201);
    const body = await bodyOf(created);
    expect(body.result).toBe("created");
    expect(body.skill).toMatchObject({
      id: expect.stringMatching(/^skl_/),
      name: "pdf-tools",
      namespace: null,
      qualifiedName: "pdf-tools",
      description: "The pdf-tools skill",
      pluginId: null,
      latestVersionNumber: 1,
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(body.version).toMatchObject({
      id: expect.stringMatching(/^skv_/),
      versionNumber: 1,
      name: "pdf-tools",
      frontmatter: { name: "pdf-tools", description: "The pdf-tools skill" },
      skillMd: files["SKILL.md"],
      totalSize: files["SKILL.md"].length + 12,
      source: "import",
      changeDescription: "first",
      active: true,
      copiedFromVersionId: null,
      deactivatedAt: null,
    });
    expect((body.version as { files: Array<{ path: string }> }).files.map((f) => f.path)).toEqual([
      "SKILL.md",
      "scripts/run.py",
    ]);
    const again = await importFiles(member(), files);
    expect(again.status).toBe(200);
    expect(await bodyOf(again)).toMatchObject({ result: "unchanged", version: { versionNumber: 1 } });
    const changed = await importFiles(member(), { ...files, "SKILL.md": skillMd("pdf-tools", "Better") });
    expect(changed.status).toBe(201);
    expect(await bodyOf(changed)).toMatchObject({
      result: "versioned",
      skill: { description: "Better", latestVersionNumber: 2 },
      version: { versionNumber: 2 },
    });
  });

  it("imports a zip (single top-level folder stripped, macOS litter ignored) as multipart", async () => {
    const zip = await zipOf({
      "my-skill/SKILL.md": skillMd(
        "zipped",
        "From a zip",
        "license: MIT\nallowed-tools: [bash]\nmetadata:\n  k: v\n",
      ),
      "my-skill/ref/a.md": "# A\n",
      "my-skill/bin.dat": new Uint8Array([0, 1, 2, 255]),
      "__MACOSX/my-skill/._SKILL.md": "junk",
    });
    const response = await importZip(member(), zip, { changeDescription: "zip" });
    expect(response.status).toBe(201);
    const body = await bodyOf(response);
    expect(body.version).toMatchObject({
      changeDescription: "zip",
      frontmatter: { license: "MIT", "allowed-tools": ["bash"], metadata: { k: "v" } },
    });
    expect((body.version as { files: Array<{ path: string }> }).files.map((f) => f.path)).toEqual([
      "SKILL.md",
      "bin.dat",
      "ref/a.md",
    ]);
    expect((await importZip(member(), zip)).status).toBe(200);
  });

  it("refuses invalid packages with invalid_skill naming the place, and writes nothing", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ "README.md": "x" }, "SKILL.md"],
      [{ "SKILL.md": "no frontmatter" }, "SKILL.md"],
      [{ "SKILL.md": "---\nname: [\n---\n" }, "SKILL.md"],
      [{ "SKILL.md": "---\n- a\n---\n" }, "SKILL.md"],
      [{ "SKILL.md": "---\ndescription: d\n---\n" }, "SKILL.md:name"],
      [{ "SKILL.md": "---\nname: Bad_Name\ndescription: d\n---\n" }, "SKILL.md:name"],
      [{ "SKILL.md": `---\nname: ${"a".repeat(65)}\ndescription: d\n---\n` }, "SKILL.md:name"],
      [{ "SKILL.md": "---\nname: ok\n---\n" }, "SKILL.md:description"],
      [{ "SKILL.md": `---\nname: ok\ndescription: ${"d".repeat(1025)}\n---\n` }, "SKILL.md:description"],
      [{ "SKILL.md": "---\nname: ok\ndescription: d\nversion: 2\n---\n" }, "SKILL.md:version"],
      [{ "SKILL.md": "---\nname: ok\ndescription: d\nmetadata: {a: 1}\n---\n" }, "SKILL.md:metadata"],
      [{ "SKILL.md": "---\nname: ok\ndescription: d\nallowed-tools: 3\n---\n" }, "SKILL.md:allowed-tools"],
      [{ "SKILL.md": "---\nname: ok\ndescription: d\nlicense: [x]\n---\n" }, "SKILL.md:license"],
      [{ "SKILL.md": skillMd("ok"), "../x": "y" }, "files.../x"],
      [{ "SKILL.md": skillMd("ok"), "/abs": "y" }, "files./abs"],
      [{ "SKILL.md": skillMd("ok"), "a\\b": "y" }, "files.a\\b"],
      [{ "SKILL.md": skillMd("ok"), "a//b": "y" }, "files.a//b"],
      [{ "SKILL.md": skillMd("ok"), [`${"d/".repeat(127)}xx`]: "y" }, `files.${"d/".repeat(127)}xx`],
      [{ "SKILL.md": skillMd("ok"), a: "1", "a/b": "2" }, "files.a"],
    ];
    for (const [files, param] of cases) {
      await expectError(await importFiles(member(), files), 400, "invalid_skill", param);
    }
    await expectError(
      await importFiles(member(), { "SKILL.md": 3 } as never),
      400,
      "invalid_request",
      "files.SKILL.md",
    );
    await expectError(await json(member(), "POST", "/v1/skills/import", {}), 400, "invalid_request", "files");
    expect((await bodyOf(await json(viewer(), "GET", "/v1/skills"))).totalElements).toBe(0);
  });

  it("refuses packages over the limits with 413", async () => {
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${i}.txt`, "x"]));
    await expectError(
      await importFiles(member(), { "SKILL.md": skillMd("ok"), ...many }),
      413,
      "payload_too_large",
    );
    await expectError(
      await importFiles(member(), {
        "SKILL.md": skillMd("ok", "d".repeat(900), `license: ${"l".repeat(102_400)}\n`),
      }),
      413,
      "payload_too_large",
      "SKILL.md",
    );
    await expectError(
      await importFiles(member(), { "SKILL.md": skillMd("ok"), "big.txt": "b".repeat(1_048_577) }),
      413,
      "payload_too_large",
      "files.big.txt",
    );
    const eleven = Object.fromEntries(
      Array.from({ length: 11 }, (_, i) => [`f${i}.txt`, "b".repeat(1_000_000)]),
    );
    await expectError(
      await importFiles(member(), { "SKILL.md": skillMd("ok"), ...eleven }),
      413,
      "payload_too_large",
      "files",
    );
    const manyZip = await zipOf({ "SKILL.md": skillMd("ok"), ...many });
    await expectError(await importZip(member(), manyZip), 413, "payload_too_large");
    expect((await bodyOf(await json(viewer(), "GET", "/v1/skills"))).totalElements).toBe(0);
  });

  it("refuses hostile archives: bombs, traversal, absolute paths, backslashes, symlinks, not a zip", async () => {
    const zeros = new Uint8Array(12 * 1024 * 1024);
    const honestBomb = await zipOf({ "SKILL.md": skillMd("bomb"), "zeros.bin": zeros });
    await expectError(await importZip(member(), honestBomb), 413, "payload_too_large", "files.zeros.bin");
    const lyingBomb = lieAboutSizes(honestBomb, 100);
    const lying = await importZip(member(), lyingBomb);
    expect([400, 413]).toContain(lying.status);
    expect((await bodyOf(lying)).error.code).toMatch(/payload_too_large|invalid_skill/);
    const spread = await zipOf({
      "SKILL.md": skillMd("bomb"),
      ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`z${i}.bin`, new Uint8Array(1_000_000)])),
    });
    await expectError(await importZip(member(), spread), 413, "payload_too_large", "files");
    // Declared sizes that lie are caught while inflating (too large, or a size mismatch).
    const lyingSpread = await importZip(member(), lieAboutSizes(spread, 10));
    expect([400, 413]).toContain(lyingSpread.status);

    for (const name of ["../x", "/abs", "a\\b", "ok/../../x"]) {
      const response = await importZip(member(), await zipWithName(name));
      await expectError(response, 400, "invalid_skill");
    }
    const symlink = await zipOf({
      "SKILL.md": skillMd("linked"),
      link: { content: "/etc/passwd", unixPermissions: 0o120777 },
    });
    await expectError(await importZip(member(), symlink), 400, "invalid_skill", "files.link");
    await expectError(
      await importZip(member(), new TextEncoder().encode("not a zip")),
      400,
      "invalid_skill",
      "file",
    );
    await expectError(
      await importZip(member(), new Uint8Array(10_485_761)),
      413,
      "payload_too_large",
      "file",
    );
    const noFile = new FormData();
    noFile.set("other", "x");
    await expectError(
      await app.request("/v1/skills/import", { method: "POST", headers: bearer(member()), body: noFile }),
      400,
      "invalid_request",
      "file",
    );
    expect((await bodyOf(await json(viewer(), "GET", "/v1/skills"))).totalElements).toBe(0);
  });

  it("never answers 5xx to arbitrary frontmatter or bodies", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.dictionary(fc.string(), fc.jsonValue()).map((v) => JSON.stringify(v)),
          fc.constantFrom("name", "description", "license", "allowed-tools", "metadata"),
        ),
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        async (key, value) => {
          const md = `---\nname: fuzz\ndescription: d\n${key}: ${value}\n---\nbody`;
          const response = await importFiles(member(), { "SKILL.md": md });
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        async (body) => {
          const response = await json(member(), "POST", "/v1/skills/import", body);
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) expect((await bodyOf(response)).error).toBeDefined();
        },
      ),
      { numRuns: 100 },
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (bytes) => {
        const response = await importZip(member(), bytes);
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 50 },
    );
  });
});

async function seed(name = "pdf-tools", versions = 1) {
  let last: Record<string, unknown> = {};
  for (let v = 1; v <= versions; v++) {
    last = await bodyOf(
      await importFiles(member(), {
        "SKILL.md": skillMd(name, `v${v}`),
        "notes.txt": `n${v}`,
        "bin.dat": "\u0000x",
      }),
    );
  }
  return last as { skill: { id: string }; version: { id: string } };
}

describe("skills, versions and files", () => {
  it("lists (namespace, q, order), gets by id or qualified name, 404s others", async () => {
    await seed("beta");
    await seed("alpha");
    const list = await bodyOf(await json(viewer(), "GET", "/v1/skills"));
    expect(list).toMatchObject({ totalElements: 2, page: 0, size: 20 });
    expect((list.content as Array<{ qualifiedName: string }>).map((s) => s.qualifiedName)).toEqual([
      "alpha",
      "beta",
    ]);
    expect((await bodyOf(await json(viewer(), "GET", "/v1/skills?q=ALP"))).totalElements).toBe(1);
    expect((await bodyOf(await json(viewer(), "GET", "/v1/skills?namespace=-"))).totalElements).toBe(2);
    expect((await bodyOf(await json(viewer(), "GET", "/v1/skills?namespace=plug"))).totalElements).toBe(0);
    await expectError(await json(viewer(), "GET", "/v1/skills?size=0"), 400, "invalid_request", "size");
    const byName = await bodyOf(await json(viewer(), "GET", "/v1/skills/alpha"));
    expect((await bodyOf(await json(viewer(), "GET", `/v1/skills/${byName.id}`))).qualifiedName).toBe(
      "alpha",
    );
    await expectError(await json(viewer(), "GET", "/v1/skills/nope"), 404, "not_found");
    await expectError(await json(stranger, "GET", `/v1/skills/${byName.id}`), 404, "not_found");
    await expectError(await json(stranger, "GET", "/v1/skills/alpha"), 404, "not_found");
    expect((await bodyOf(await json(stranger, "GET", "/v1/skills"))).totalElements).toBe(0);
  });

  it("versions: list without skillMd, latest, by id or number, activate, deactivate", async () => {
    const { skill } = await seed("pdf-tools", 3);
    const base = `/v1/skills/${skill.id}`;
    const versions = await bodyOf(await json(viewer(), "GET", `${base}/versions?size=2`));
    expect(versions).toMatchObject({ totalElements: 3, totalPages: 2 });
    const content = versions.content as Array<Record<string, unknown>>;
    expect(content.map((v) => v.versionNumber)).toEqual([3, 2]);
    expect(content[0]).not.toHaveProperty("skillMd");
    const v1 = await bodyOf(await json(viewer(), "GET", `${base}/versions/1`));
    expect(v1).toMatchObject({ versionNumber: 1, skillMd: skillMd("pdf-tools", "v1") });
    expect((await bodyOf(await json(viewer(), "GET", `${base}/versions/${v1.id}`))).versionNumber).toBe(1);
    await expectError(await json(viewer(), "GET", `${base}/versions/9`), 404, "not_found");
    expect((await json(member(), "DELETE", `${base}/versions/3`)).status).toBe(403);
    expect((await json(admin(), "DELETE", `${base}/versions/3`)).status).toBe(204);
    expect((await json(admin(), "DELETE", `${base}/versions/3`)).status).toBe(204);
    expect(await bodyOf(await json(viewer(), "GET", `${base}/versions/latest`))).toMatchObject({
      versionNumber: 2,
    });
    expect(await bodyOf(await json(viewer(), "GET", base))).toMatchObject({
      description: "v2",
      latestVersionNumber: 2,
    });
    expect((await json(viewer(), "PUT", `${base}/versions/3/activate`)).status).toBe(403);
    const copy = await json(member(), "PUT", `${base}/versions/3/activate`);
    expect(copy.status).toBe(200);
    const copied = await bodyOf(copy);
    expect(copied).toMatchObject({
      versionNumber: 4,
      active: true,
      description: "v3",
      files: expect.any(Array),
    });
    expect(copied.copiedFromVersionId).toEqual(expect.stringMatching(/^skv_/));
    const file = await json(viewer(), "GET", `${base}/versions/4/files/notes.txt`);
    expect(await file.text()).toBe("n3");
    for (const n of [1, 2, 4]) await json(admin(), "DELETE", `${base}/versions/${n}`);
    await expectError(await json(viewer(), "GET", `${base}/versions/latest`), 404, "not_found");
  });

  it("serves files raw with the content type of §4.3", async () => {
    await importFiles(member(), {
      "SKILL.md": skillMd("files"),
      "docs/guide.md": "# Guide",
      "scripts/run.py": "print(1)",
      "bin.dat": "\u0000\u0001",
    });
    const get = (path: string, key = viewer()) =>
      json(key, "GET", `/v1/skills/files/versions/1/files/${path}`);
    const md = await get("SKILL.md");
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await md.text()).toBe(skillMd("files"));
    const guide = await get("docs%2Fguide.md");
    expect(guide.status).toBe(200);
    expect(guide.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const py = await get("scripts/run.py");
    expect(py.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await py.text()).toBe("print(1)");
    const bin = await get("bin.dat");
    expect(bin.headers.get("content-type")).toBe("application/octet-stream");
    expect(new Uint8Array(await bin.arrayBuffer())).toEqual(new Uint8Array([0, 1]));
    await expectError(await get("missing.txt"), 404, "not_found");
    await expectError(await get("SKILL.md", stranger), 404, "not_found");
  });
});

describe("labels", () => {
  it("lists latest first, creates, moves, deletes with the shared rules and roles", async () => {
    const { skill } = await seed("lab", 2);
    const base = `/v1/skills/lab/labels`;
    const v1 = await bodyOf(await json(viewer(), "GET", "/v1/skills/lab/versions/1"));
    expect((await json(viewer(), "POST", base, { name: "prod", skillVersionId: v1.id })).status).toBe(403);
    const created = await json(member(), "POST", base, { name: "prod", skillVersionId: v1.id });
    expect(created.status).toBe(201);
    expect(await bodyOf(created)).toMatchObject({
      name: "prod",
      skillVersionId: v1.id,
      versionNumber: 1,
      system: false,
    });
    const labels = (await bodyOf(await json(viewer(), "GET", base))) as unknown as Array<
      Record<string, unknown>
    >;
    expect(labels.map((l) => [l.name, l.versionNumber, l.system])).toEqual([
      ["latest", 2, true],
      ["prod", 1, false],
    ]);
    await expectError(
      await json(member(), "POST", base, { name: "prod", skillVersionId: v1.id }),
      409,
      "conflict",
    );
    await expectError(
      await json(member(), "POST", base, { name: "latest", skillVersionId: v1.id }),
      409,
      "conflict",
    );
    await expectError(
      await json(member(), "POST", base, { name: "Bad!", skillVersionId: v1.id }),
      400,
      "invalid_request",
      "name",
    );
    await expectError(
      await json(member(), "POST", base, { name: "x" }),
      400,
      "invalid_request",
      "skillVersionId",
    );
    await expectError(
      await json(member(), "POST", base, { name: "x", skillVersionId: "skv_nope" }),
      404,
      "not_found",
      "skillVersionId",
    );
    const moved = await json(member(), "PUT", `${base}/prod`, { skillVersionId: 2 });
    expect(await bodyOf(moved)).toMatchObject({ name: "prod", versionNumber: 2 });
    await expectError(await json(member(), "PUT", `${base}/latest`, { skillVersionId: 1 }), 409, "conflict");
    await expectError(await json(member(), "PUT", `${base}/none`, { skillVersionId: 1 }), 404, "not_found");
    await json(admin(), "DELETE", `/v1/skills/${skill.id}/versions/1`);
    await expectError(
      await json(member(), "PUT", `${base}/prod`, { skillVersionId: 1 }),
      409,
      "conflict",
      "skillVersionId",
    );
    expect((await json(member(), "DELETE", `${base}/prod`)).status).toBe(403);
    await expectError(await json(admin(), "DELETE", `${base}/latest`), 409, "conflict");
    expect((await json(admin(), "DELETE", `${base}/prod`)).status).toBe(204);
    await expectError(await json(admin(), "DELETE", `${base}/prod`), 404, "not_found");
    await expectError(await json(stranger, "GET", base), 404, "not_found");
  });
});

describe("GET /v1/skills/resolve", () => {
  it("resolves name, namespace:name, @ref and ref, with the spec's errors", async () => {
    const { skill } = await seed("pdf-tools", 2);
    const v1 = await bodyOf(await json(viewer(), "GET", "/v1/skills/pdf-tools/versions/1"));
    await json(member(), "POST", "/v1/skills/pdf-tools/labels", { name: "prod", skillVersionId: v1.id });
    const resolve = (query: string, key = viewer()) => json(key, "GET", `/v1/skills/resolve?${query}`);
    expect(await bodyOf(await resolve("name=pdf-tools"))).toEqual({
      skillId: skill.id,
      qualifiedName: "pdf-tools",
      namespace: null,
      name: "pdf-tools",
      description: "v2",
      versionId: expect.stringMatching(/^skv_/),
      versionNumber: 2,
      ref: "latest",
      label: "latest",
    });
    expect(await bodyOf(await resolve("name=pdf-tools@prod"))).toMatchObject({
      versionNumber: 1,
      label: "prod",
    });
    expect(await bodyOf(await resolve("name=pdf-tools@prod&ref=2"))).toMatchObject({
      versionNumber: 2,
      label: null,
      ref: "2",
    });
    // A label reaches a deactivated version; latest does not.
    await json(admin(), "DELETE", "/v1/skills/pdf-tools/versions/1");
    expect(await bodyOf(await resolve("name=pdf-tools@prod"))).toMatchObject({ versionNumber: 1 });
    await expectError(await resolve("name=pdf-tools@nope"), 404, "ref_not_found");
    await expectError(await resolve("name=pdf-tools&ref=9"), 404, "ref_not_found", "ref");
    await expectError(await resolve("name=other"), 404, "skill_not_found", "name");
    await expectError(await resolve("name=ns:pdf-tools"), 404, "skill_not_found");
    await expectError(await resolve("name=Bad"), 400, "invalid_request", "name");
    await expectError(await resolve("name=a@"), 400, "invalid_request", "name");
    await expectError(await resolve(""), 400, "invalid_request", "name");
    await expectError(await resolve("name=pdf-tools&ref="), 400, "invalid_request", "ref");
    await expectError(await resolve("name=pdf-tools", stranger), 404, "skill_not_found");
  });

  it("prefers the null namespace, takes a single plugin skill, and is ambiguous between several", async () => {
    const skills = tenant.store.skills;
    const commit = async (namespace: string, name: string) => {
      const s = await skills.create(tenant.organizationId, {
        name,
        namespace,
        description: "p",
        pluginId: "plg_1",
      });
      const md = skillMd(name);
      const bytes = new TextEncoder().encode(md);
      await skills.commitVersion(s.id, {
        name,
        description: "p",
        frontmatter: {},
        skillMd: md,
        files: [{ path: "SKILL.md", size: bytes.length, sha256: "0", bytes }],
        totalSize: bytes.length,
        source: "plugin",
      });
      return s;
    };
    await commit("one", "solo");
    expect(await bodyOf(await json(viewer(), "GET", "/v1/skills/resolve?name=solo"))).toMatchObject({
      qualifiedName: "one:solo",
      namespace: "one",
    });
    await commit("one", "dup");
    await commit("two", "dup");
    await expectError(
      await json(viewer(), "GET", "/v1/skills/resolve?name=dup"),
      409,
      "ambiguous_skill",
      "name",
    );
    expect(await bodyOf(await json(viewer(), "GET", "/v1/skills/resolve?name=two:dup"))).toMatchObject({
      qualifiedName: "two:dup",
    });
    expect(
      await bodyOf(await json(viewer(), "GET", `/v1/skills/${encodeURIComponent("two:dup")}`)),
    ).toMatchObject({
      pluginId: "plg_1",
    });
    await seed("dup");
    expect(await bodyOf(await json(viewer(), "GET", "/v1/skills/resolve?name=dup"))).toMatchObject({
      qualifiedName: "dup",
    });
    // A plugin's skill is managed by its plugin.
    await expectError(await json(admin(), "DELETE", "/v1/skills/two:dup"), 409, "managed_by_plugin");
    expect((await bodyOf(await json(viewer(), "GET", "/v1/skills?namespace=one"))).totalElements).toBe(2);
  });
});

describe("DELETE /v1/skills/{skill} and GET /v1/agents/{agentId}/skills", () => {
  it("reports every binding's status, and deleting a skill leaves its bindings unresolved", async () => {
    await seed("pdf-tools", 2);
    await seed("notes");
    const definition = {
      name: "helper",
      model: "openai/gpt-4o-mini",
      instructions: "help",
      skills: [{ name: "pdf-tools" }, { name: "notes", ref: "9" }, { name: "ghost" }],
      tools: [{ type: "platform.skill", skills: ["pdf-tools@1", "ns:x"] }],
    };
    const applied = await json(member(), "POST", "/v1/agents/apply", definition);
    expect(applied.status, JSON.stringify(await bodyOf(applied.clone()))).toBeLessThan(300);
    const agentId = ((await bodyOf(applied)).agent as { id: string } | undefined)?.id ?? "helper";
    const listing = await json(viewer(), "GET", `/v1/agents/${agentId}/skills`);
    expect(listing.status).toBe(200);
    const body = await bodyOf(listing);
    expect(body).toMatchObject({ agentVersionId: expect.stringMatching(/^agv_/), versionNumber: 1 });
    const entries = body.skills as Array<{
      binding: string;
      source: string;
      status: string;
      resolved: unknown;
    }>;
    expect(entries.map((e) => [e.binding, e.source, e.status])).toEqual([
      ["pdf-tools", "skills", "resolved"],
      ["notes@9", "skills", "ref_not_found"],
      ["ghost", "skills", "skill_not_found"],
      ["pdf-tools@1", "platform.skill", "resolved"],
      ["ns:x", "platform.skill", "skill_not_found"],
    ]);
    expect(entries[0]?.resolved).toMatchObject({ versionNumber: 2, qualifiedName: "pdf-tools" });
    expect(entries[1]?.resolved).toBeNull();
    expect((await json(viewer(), "GET", `/v1/agents/${agentId}/skills?version=1`)).status).toBe(200);
    await expectError(
      await json(viewer(), "GET", `/v1/agents/${agentId}/skills?version=7`),
      404,
      "not_found",
    );
    await expectError(await json(stranger, "GET", `/v1/agents/${agentId}/skills`), 404, "not_found");

    expect((await json(member(), "DELETE", "/v1/skills/pdf-tools")).status).toBe(403);
    expect((await json(admin(), "DELETE", "/v1/skills/pdf-tools")).status).toBe(204);
    await expectError(await json(admin(), "DELETE", "/v1/skills/pdf-tools"), 404, "not_found");
    const after = await bodyOf(await json(viewer(), "GET", `/v1/agents/${agentId}/skills`));
    expect((after.skills as Array<{ status: string }>).map((e) => e.status)).toEqual([
      "skill_not_found",
      "ref_not_found",
      "skill_not_found",
      "skill_not_found",
      "skill_not_found",
    ]);
    await expectError(await json(stranger, "DELETE", "/v1/skills/notes"), 404, "not_found");
  });
});

describe("roles", () => {
  it("Viewers read and resolve; import needs a Member", async () => {
    await expectError(await importFiles(viewer(), { "SKILL.md": skillMd("x") }), 403, "forbidden");
    expect((await importFiles(admin(), { "SKILL.md": skillMd("x") })).status).toBe(201);
    expect((await json(viewer(), "GET", "/v1/skills/x/versions")).status).toBe(200);
    expect((await json(viewer(), "GET", "/v1/skills/x/labels")).status).toBe(200);
    expect((await json(viewer(), "GET", "/v1/skills/resolve?name=x")).status).toBe(200);
  });
});
