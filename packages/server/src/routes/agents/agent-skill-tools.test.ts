/**
 * The skill tools inside agent runs (PLATFORM.md §4.4, §6): run-time resolution pinned per
 * response, the instructions' skill index, `platform_skill`, `platform_skill_read` and
 * `platform_skills_apply` (always a human, the exact preview, approve/reject, no remember).
 */
import { type AgentResponseObject, skillPackageFromFiles } from "@groundwork/agents";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AgentTenant, agentTenant } from "../../../test/agent-tenant-support.js";
import { skillMd } from "../../../test/skill-zips.js";
import { bearer, bodyOf } from "../../../test/test-support.js";

let upstream: Upstream;
let t: AgentTenant;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(async () => {
  upstream.reset();
  t = await agentTenant(upstream.url);
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  key = t.tenant.keys.member,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await t.app.request(path, {
    method,
    headers: { ...bearer(key), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await bodyOf(response)) as Record<string, unknown> };
}

async function respond(
  body: Record<string, unknown>,
): Promise<{ status: number; body: AgentResponseObject }> {
  const result = await call("POST", "/v1/responses", body);
  return { status: result.status, body: result.body as unknown as AgentResponseObject };
}

const importSkill = (files: Record<string, string>, extra: Record<string, unknown> = {}) =>
  call("POST", "/v1/skills/import", { files, ...extra });

/** The system message and tool names of the n-th model request. */
function modelRequest(n: number): { system: string; tools: string[] } {
  const body = upstream.requests[n]?.body as {
    messages: Array<{ role: string; content: string }>;
    tools?: Array<{ function: { name: string } }>;
  };
  return {
    system: body.messages.find((m) => m.role === "system")?.content ?? "",
    // The always-offered platform_deliver / platform_view_image are left out of these checks.
    tools: (body.tools ?? [])
      .map((tool) => tool.function.name)
      .filter((name) => name !== "platform_deliver" && name !== "platform_view_image"),
  };
}

const guideMd = skillMd("pdf-guide", "Fill PDF forms", "license: MIT\n");

async function setUp(definition: Record<string, unknown> = {}) {
  const imported = await importSkill({
    "SKILL.md": guideMd,
    "reference/forms.md": "# Forms\n\nStep one.\nStep two.\n",
  });
  expect(imported.status).toBe(201);
  const applied = await call("POST", "/v1/agents/apply", {
    name: "helper",
    model: "gw-chat-1",
    instructions: "Be helpful.",
    skills: [{ name: "pdf-guide" }, { name: "missing-skill" }],
    ...definition,
  });
  expect(applied.status).toBe(201);
  return {
    skill: (imported.body.skill as { id: string }).id,
    version: (imported.body.version as { id: string }).id,
    agentId: (applied.body.agent as { id: string }).id,
  };
}

describe("skill tools in runs", () => {
  it("indexes the resolved skills in the instructions and reads them through both tools", async () => {
    const { version } = await setUp();
    upstream.enqueue(
      {
        toolCalls: [
          { id: "s1", name: "platform_skill", arguments: { name: "pdf-guide" } },
          {
            id: "s2",
            name: "platform_skill_read",
            arguments: { name: "pdf-guide", path: "reference/forms.md" },
          },
          { id: "s3", name: "platform_skill_read", arguments: { name: "pdf-guide", path: "nope.md" } },
          { id: "s4", name: "platform_skill", arguments: { name: "missing-skill" } },
        ],
      },
      { text: "done" },
    );
    const { status, body } = await respond({ model: "agent/helper", input: "fill the form" });
    expect(status).toBe(200);
    const run = body.run;
    expect(run.status).toBe("completed");
    const first = modelRequest(0);
    expect(first.system).toContain("Be helpful.");
    expect(first.system).toContain("- pdf-guide — Fill PDF forms");
    expect(first.system).not.toContain("missing-skill");
    expect(first.tools).toEqual(["platform_skill", "platform_skill_read", "platform_skills_apply"]);
    const [open, read, missingFile, unbound] = run.toolCalls;
    expect(open?.status).toBe("completed");
    expect(open?.output).toContain("# pdf-guide\n\nUse it well.");
    expect(open?.output).not.toContain("license: MIT");
    expect(open?.output).toContain("- reference/forms.md (");
    expect(open?.output).toContain("- SKILL.md (");
    expect(read).toMatchObject({ status: "completed", output: "# Forms\n\nStep one.\nStep two.\n" });
    expect(missingFile?.status).toBe("failed");
    expect(missingFile?.output).toMatch(/no file "nope.md"/);
    expect(unbound?.status).toBe("failed");
    expect(unbound?.output).toMatch(/not one of this agent's skills/);
    const stored = await t.tenant.store.agents.getRun(t.tenant.organizationId, body.id);
    expect(
      (stored?.state as { skills: Array<{ versionId: string }> } | undefined)?.skills.map((s) => s.versionId),
    ).toEqual([version]);
  });

  it("truncates long files at 64 KiB and refuses binary files", async () => {
    const long = "x".repeat(70 * 1024);
    // A NUL character makes a file binary.
    await importSkill({ "SKILL.md": skillMd("big"), "long.txt": long, "blob.bin": "a\u0000b" });
    await call("POST", "/v1/agents/apply", {
      name: "reader",
      model: "gw-chat-1",
      tools: [{ type: "platform.skill", skills: ["big"] }],
    });
    upstream.enqueue(
      {
        toolCalls: [
          { id: "r1", name: "platform_skill_read", arguments: { name: "big", path: "long.txt" } },
          { id: "r2", name: "platform_skill_read", arguments: { name: "big", path: "blob.bin" } },
        ],
      },
      { text: "ok" },
    );
    const { body } = await respond({ model: "agent/reader", input: "read" });
    const [long64, binary] = body.run.toolCalls;
    expect(long64?.status).toBe("completed");
    expect(long64?.output?.startsWith("x".repeat(65536))).toBe(true);
    expect(long64?.output).toMatch(/file truncated: 71680 bytes, the first 65536 shown/);
    expect(binary).toMatchObject({ status: "failed" });
    expect(binary?.output).toMatch(/binary file/);
    // Only a plugin-free, null-namespace skill makes skills_apply appear; this one is, so it is offered.
    expect(modelRequest(0).tools).toEqual(["platform_skill", "platform_skill_read", "platform_skills_apply"]);
  });

  it("offers no skill tool when no binding resolves, and requiresConfirmation on platform.skill pauses both read tools", async () => {
    await call("POST", "/v1/agents/apply", {
      name: "nobody",
      model: "gw-chat-1",
      tools: [{ type: "platform.skill", skills: ["ghost"] }, { type: "platform.todo" }],
    });
    upstream.enqueue({ text: "hi" });
    await respond({ model: "agent/nobody", input: "hi" });
    expect(modelRequest(0).tools).toEqual(["platform_todo"]);
    expect(modelRequest(0).system).toBe("");

    await importSkill({ "SKILL.md": skillMd("careful") });
    await call("POST", "/v1/agents/apply", {
      name: "confirm",
      model: "gw-chat-1",
      tools: [{ type: "platform.skill", skills: ["careful"], requiresConfirmation: true }],
    });
    upstream.enqueue({
      toolCalls: [
        { id: "c1", name: "platform_skill", arguments: { name: "careful" } },
        { id: "c2", name: "platform_skill_read", arguments: { name: "careful", path: "SKILL.md" } },
      ],
    });
    const { body } = await respond({ model: "agent/confirm", input: "go" });
    expect(body.run.status).toBe("requires_approval");
    expect(body.run.pendingApprovals.map((a) => a.tool)).toEqual(["platform_skill", "platform_skill_read"]);
    // Both may be remembered (read class); the remembered read tool then runs without asking.
    upstream.enqueue(
      {
        toolCalls: [
          { id: "c3", name: "platform_skill_read", arguments: { name: "careful", path: "SKILL.md" } },
        ],
      },
      { text: "read" },
    );
    const decided = await respond({
      model: "agent/confirm",
      previous_response_id: body.id,
      input: body.run.pendingApprovals.map((a) => ({
        type: "approval_response",
        approval_request_id: a.id,
        approve: true,
        remember: a.tool === "platform_skill_read",
      })),
    });
    expect(decided.status).toBe(200);
    expect(decided.body.run.status).toBe("completed");
    expect(decided.body.run.toolCalls.map((c) => [c.tool, c.status])).toEqual([
      ["platform_skill", "completed"],
      ["platform_skill_read", "completed"],
      ["platform_skill_read", "completed"],
    ]);
  });

  it("pins the resolved versions for the whole response while a new version is imported mid-run", async () => {
    const { version: v1 } = await setUp();
    let imported: string | undefined;
    upstream.enqueue({ toolCalls: [{ id: "p1", name: "platform_skill", arguments: { name: "pdf-guide" } }] });
    upstream.handler = async (request) => {
      const messages = (request.body as { messages: unknown[] } | undefined)?.messages ?? [];
      if (imported === undefined && messages.length > 0) {
        const next = await importSkill({
          "SKILL.md": skillMd("pdf-guide", "Fill PDF forms, v2").replace("Use it well.", "Version two."),
        });
        imported = (next.body.version as { id: string }).id;
        return { toolCalls: [{ id: "p2", name: "platform_skill", arguments: { name: "pdf-guide" } }] };
      }
      return { text: "done" };
    };
    const first = await respond({ model: "agent/helper", input: "go" });
    expect(first.body.run.status).toBe("completed");
    expect(imported).toBeDefined();
    const outputs = first.body.run.toolCalls.map((c) => c.output ?? "");
    expect(outputs).toHaveLength(2);
    for (const output of outputs) {
      expect(output).toContain("Use it well.");
      expect(output).toContain("(version 1;");
    }
    const state = (await t.tenant.store.agents.getRun(t.tenant.organizationId, first.body.id))?.state as {
      skills: Array<{ versionId: string }>;
    };
    expect(state.skills.map((s) => s.versionId)).toEqual([v1]);

    // The next turn resolves again and sees version 2.
    upstream.reset();
    upstream.enqueue(
      { toolCalls: [{ id: "p3", name: "platform_skill", arguments: { name: "pdf-guide" } }] },
      { text: "done" },
    );
    const second = await respond({
      model: "agent/helper",
      input: "again",
      previous_response_id: first.body.id,
    });
    expect(second.body.run.toolCalls[0]?.output).toContain("Version two.");
    expect(modelRequest(0).system).toContain("- pdf-guide — Fill PDF forms, v2");
    const next = (await t.tenant.store.agents.getRun(t.tenant.organizationId, second.body.id))?.state as {
      skills: Array<{ versionId: string }>;
    };
    expect(next.skills.map((s) => s.versionId)).toEqual([imported]);
  });
});

describe("platform_bash and skills", () => {
  it("copies the response's resolved skill versions to /skills/<qualifiedName>/, read-only", async () => {
    await setUp({ tools: [{ type: "platform.bash" }] });
    upstream.enqueue(
      {
        toolCalls: [
          {
            id: "b1",
            name: "platform_bash",
            arguments: { command: "cat /skills/pdf-guide/reference/forms.md" },
          },
          { id: "b2", name: "platform_bash", arguments: { command: "echo x > /skills/pdf-guide/new.md" } },
        ],
      },
      { text: "ok" },
    );
    const { body } = await respond({ model: "agent/helper", input: "look" });
    const [read, write] = body.run.toolCalls.map(
      (c) => JSON.parse(c.output ?? "{}") as { stdout: string; exitCode: number },
    );
    expect(read).toMatchObject({ stdout: "# Forms\n\nStep one.\nStep two.\n", exitCode: 0 });
    expect(write?.exitCode).not.toBe(0);
  });
});

describe("platform_skills_apply", () => {
  const change = {
    name: "pdf-guide",
    files: {
      "reference/forms.md": "# Forms\n\nStep one.\nStep 2.\n",
      "reference/new.md": "new\n",
    },
  };

  it("pauses with the exact preview, even in auto mode with allow; approve creates the version", async () => {
    const { skill, version, agentId } = await setUp({ hitlPolicy: { default: "allow" } });
    upstream.enqueue(
      { toolCalls: [{ id: "a1", name: "platform_skills_apply", arguments: change }] },
      { text: "changed" },
    );
    const paused = await respond({ model: "agent/helper", input: "improve", mode: "auto" });
    expect(paused.body.run.status).toBe("requires_approval");
    const approval = paused.body.run.pendingApprovals[0];
    expect(approval).toMatchObject({ tool: "platform_skills_apply", policyClass: "write", judge: null });
    expect(approval?.preview).toEqual({
      skill: "pdf-guide",
      baseVersionId: version,
      baseVersionNumber: 1,
      changes: [
        {
          path: "reference/forms.md",
          change: "modified",
          diff: "--- a/reference/forms.md\n+++ b/reference/forms.md\n@@ -1,4 +1,4 @@\n # Forms\n \n Step one.\n-Step two.\n+Step 2.\n",
        },
        {
          path: "reference/new.md",
          change: "added",
          diff: "--- /dev/null\n+++ b/reference/new.md\n@@ -0,0 +1 @@\n+new\n",
        },
      ],
      fileCount: 3,
      totalSize: Buffer.byteLength(guideMd) + Buffer.byteLength("# Forms\n\nStep one.\nStep 2.\n") + 4,
    });
    // The approvals listing carries the preview too.
    const listed = await call("GET", `/v1/agents/${agentId}/approvals`, undefined, t.tenant.keys.viewer);
    expect((listed.body.content as Array<{ preview: unknown }>)[0]?.preview).toEqual(approval?.preview);

    const done = await respond({
      model: "agent/helper",
      previous_response_id: paused.body.id,
      input: [{ type: "approval_response", approval_request_id: approval?.id, approve: true }],
    });
    expect(done.body.run.status).toBe("completed");
    expect(done.body.run.toolCalls[0]).toMatchObject({ tool: "platform_skills_apply", status: "completed" });
    expect(JSON.parse(done.body.run.toolCalls[0]?.output ?? "{}")).toEqual({
      skill: "pdf-guide",
      versionNumber: 2,
    });
    const latest = await call("GET", `/v1/skills/${skill}/versions/latest`);
    expect(latest.body).toMatchObject({
      versionNumber: 2,
      source: "skills_apply",
      changeDescription: `platform_skills_apply in ${paused.body.id}`,
    });
    expect((latest.body.files as Array<{ path: string }>).map((f) => f.path)).toEqual([
      "SKILL.md",
      "reference/forms.md",
      "reference/new.md",
    ]);
    const file = await t.app.request(
      `/v1/skills/${skill}/versions/2/files/${encodeURIComponent("reference/forms.md")}`,
      {
        headers: bearer(t.tenant.keys.viewer),
      },
    );
    expect(await file.text()).toBe("# Forms\n\nStep one.\nStep 2.\n");
  });

  it("reject creates nothing; remember is 400; a deletion and changeDescription are kept", async () => {
    const { skill } = await setUp();
    upstream.enqueue(
      { toolCalls: [{ id: "b1", name: "platform_skills_apply", arguments: change }] },
      { text: "ok" },
    );
    const paused = await respond({ model: "agent/helper", input: "improve" });
    const approval = paused.body.run.pendingApprovals[0];
    const remember = await respond({
      model: "agent/helper",
      previous_response_id: paused.body.id,
      input: [
        { type: "approval_response", approval_request_id: approval?.id, approve: true, remember: true },
      ],
    });
    expect(remember.status).toBe(400);
    expect((remember.body as unknown as { error: { param: string } }).error.param).toBe("input[0].remember");
    const rejected = await respond({
      model: "agent/helper",
      previous_response_id: paused.body.id,
      input: [{ type: "approval_response", approval_request_id: approval?.id, approve: false, reason: "no" }],
    });
    expect(rejected.body.run.toolCalls[0]).toMatchObject({ status: "rejected" });
    expect((await call("GET", `/v1/skills/${skill}`)).body.latestVersionNumber).toBe(1);

    upstream.enqueue(
      {
        toolCalls: [
          {
            id: "b2",
            name: "platform_skills_apply",
            arguments: {
              name: "pdf-guide",
              files: { "reference/forms.md": null },
              changeDescription: "drop forms",
            },
          },
        ],
      },
      { text: "ok" },
    );
    const again = await respond({
      model: "agent/helper",
      input: "drop",
      previous_response_id: rejected.body.id,
    });
    const pending = again.body.run.pendingApprovals[0];
    expect(pending?.preview).toMatchObject({
      changes: [{ path: "reference/forms.md", change: "deleted" }],
      fileCount: 1,
      totalSize: Buffer.byteLength(guideMd),
    });
    expect(pending?.preview?.changes[0]?.diff).toContain("+++ /dev/null\n@@ -1,4 +0,0 @@\n-# Forms\n");
    await respond({
      model: "agent/helper",
      previous_response_id: again.body.id,
      input: [{ type: "approval_response", approval_request_id: pending?.id, approve: true }],
    });
    const latest = await call("GET", `/v1/skills/${skill}/versions/latest`);
    expect(latest.body).toMatchObject({ versionNumber: 2, changeDescription: "drop forms" });
  });

  it("fails at once on an invalid result, an unbound or plugin skill, and stays hidden on deny", async () => {
    await setUp({ skills: [{ name: "pdf-guide" }, { name: "plug:kit" }] });
    // A plugin's skill (namespace "plug"), stored as plugins store theirs.
    await t.groundwork.skills.commitPackage(
      t.tenant.organizationId,
      skillPackageFromFiles({ "SKILL.md": skillMd("kit") }),
      {
        namespace: "plug",
        pluginId: "plg_test",
        source: "plugin",
      },
    );
    upstream.enqueue(
      {
        toolCalls: [
          {
            id: "i1",
            name: "platform_skills_apply",
            arguments: { name: "pdf-guide", files: { "SKILL.md": "no frontmatter" } },
          },
          { id: "i2", name: "platform_skills_apply", arguments: { name: "other", files: { "a.md": "x" } } },
          {
            id: "i3",
            name: "platform_skills_apply",
            arguments: { name: "pdf-guide", files: { "../x": "x" } },
          },
          {
            id: "i4",
            name: "platform_skills_apply",
            arguments: { name: "pdf-guide", files: { "SKILL.md": skillMd("renamed") } },
          },
          { id: "i5", name: "platform_skills_apply", arguments: { name: "pdf-guide", files: {} } },
          { id: "i6", name: "platform_skills_apply", arguments: "not json" },
          {
            id: "i7",
            name: "platform_skills_apply",
            arguments: { name: "plug:kit", files: { "a.md": "x" } },
          },
        ],
      },
      { text: "ok" },
    );
    const { body } = await respond({ model: "agent/helper", input: "break it" });
    expect(body.run.status).toBe("completed");
    expect(body.run.pendingApprovals).toEqual([]);
    const outputs = body.run.toolCalls.map((c) => [c.status, c.output]);
    expect(outputs.every(([status]) => status === "failed")).toBe(true);
    expect(outputs[0]?.[1]).toMatch(/SKILL.md must start with a YAML frontmatter/);
    expect(outputs[1]?.[1]).toMatch(/not one of this agent's skills/);
    expect(outputs[2]?.[1]).toMatch(/\.\./);
    expect(outputs[3]?.[1]).toMatch(/must keep the name "pdf-guide"/);
    expect(outputs[4]?.[1]).toMatch(/names no change/);
    expect(outputs[5]?.[1]).toMatch(/JSON object/);
    expect(outputs[6]?.[1]).toMatch(/managed by a plugin/);

    await call("POST", "/v1/agents/apply", {
      name: "helper",
      model: "gw-chat-1",
      skills: [{ name: "pdf-guide" }],
      hitlPolicy: { tools: { platform_skills_apply: "deny" } },
    });
    upstream.reset();
    upstream.enqueue({ text: "hi" });
    await respond({ model: "agent/helper", input: "hi" });
    expect(modelRequest(0).tools).toEqual(["platform_skill", "platform_skill_read"]);
  });

  it("plan mode blocks it", async () => {
    await setUp();
    upstream.enqueue(
      { toolCalls: [{ id: "m1", name: "platform_skills_apply", arguments: change }] },
      { text: "ok" },
    );
    const { body } = await respond({ model: "agent/helper", input: "x", mode: "plan" });
    expect(body.run.toolCalls[0]).toMatchObject({ status: "blocked" });
  });
});
