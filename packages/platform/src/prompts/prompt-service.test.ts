/** Prompts through the library: versions, labels, resolve, compile, test, and their errors. */
import type { ChatCompletion, Principal } from "@groundwork/core";
import type { ChatRequestBody, Gateway } from "@groundwork/gateway";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";
import { PromptService } from "./prompt-service.js";

let store: PlatformStore;
let groundwork: Groundwork;
let org: string;
let otherOrg: string;
const page = { page: 0, size: 100 };

beforeEach(async () => {
  store = await openTestStore();
  groundwork = createGroundwork({ store });
  org = (await groundwork.principal("acme")).organizationId;
  otherOrg = (await groundwork.principal("globex")).organizationId;
});
afterEach(async () => await store.close());

const prompts = () => groundwork.prompts;

async function failure(run: () => unknown) {
  try {
    await run();
  } catch (error) {
    const { status, code, param } = error as { status: number; code: string; param: string | null };
    return { status, code, param };
  }
  throw new Error("expected a failure");
}

describe("PromptService: prompts and versions", () => {
  it("creates a prompt with version 1 and its labels, found by id or name, not from another organization", async () => {
    const prompt = await prompts().create(org, {
      name: "support/greeting",
      type: "text",
      tags: ["cs"],
      prompt: "Hello {{ name }}, about {{topic}} and {{name}}",
      config: { model: "gpt-x", temperature: 0.2, vendor: { a: 1 } },
      labels: ["production", "staging"],
    });
    expect(prompt).toMatchObject({ name: "support/greeting", latestVersionNumber: 1, tags: ["cs"] });
    expect((await prompts().get(org, "support/greeting")).id).toBe(prompt.id);
    const version = await prompts().getVersion(org, prompt.id, "1");
    expect(version).toMatchObject({
      versionNumber: 1,
      type: "text",
      variables: ["name", "topic"],
      config: { model: "gpt-x", temperature: 0.2, vendor: { a: 1 } },
      labels: ["latest", "production", "staging"],
      active: true,
      copiedFromVersionId: null,
    });
    expect((await prompts().getVersion(org, prompt.id, version.id)).id).toBe(version.id);
    expect(await failure(async () => await prompts().get(otherOrg, prompt.id))).toMatchObject({
      status: 404,
    });
    expect(await failure(async () => await prompts().get(otherOrg, "support/greeting"))).toMatchObject({
      status: 404,
    });
  });

  it("refuses bad names, duplicate names, the other type's shape and latest in labels", async () => {
    await prompts().create(org, { name: "a", type: "chat" });
    expect(await failure(async () => await prompts().create(org, { name: "a", type: "text" }))).toMatchObject(
      {
        status: 409,
        param: "name",
      },
    );
    for (const name of ["prm_x", "-a", "", "a b", "x".repeat(201)]) {
      expect(await failure(async () => await prompts().create(org, { name, type: "text" }))).toMatchObject({
        status: 400,
        param: "name",
      });
    }
    expect(
      await failure(async () => await prompts().createVersion(org, "a", { prompt: "text" })),
    ).toMatchObject({
      status: 400,
      param: "prompt",
    });
    expect(
      await failure(
        async () => await prompts().createVersion(org, "a", { prompt: [{ role: "tool", content: "x" }] }),
      ),
    ).toMatchObject({ status: 400, param: "prompt[0].role" });
    expect(await failure(async () => await prompts().createVersion(org, "a", { prompt: [] }))).toMatchObject({
      status: 400,
      param: "prompt",
    });
    expect(
      await failure(
        async () =>
          await prompts().createVersion(org, "a", {
            prompt: [{ role: "user", content: "x" }],
            labels: ["latest"],
          }),
      ),
    ).toMatchObject({ status: 409, param: "labels" });
    expect(
      await failure(
        async () => await prompts().create(org, { name: "b", type: "text", prompt: "x", labels: ["latest"] }),
      ),
    ).toMatchObject({ status: 409 });
    await expect(prompts().get(org, "b")).rejects.toThrow();
    expect(
      await failure(
        async () =>
          await prompts().create(org, { name: "c", type: "text", prompt: "x", config: { topP: 2 } }),
      ),
    ).toMatchObject({ status: 400, param: "config.topP" });
    expect(
      await failure(async () => await prompts().create(org, { name: "d", type: "text", labels: ["x"] })),
    ).toMatchObject({
      status: 400,
      param: "labels",
    });
    expect(
      await failure(async () => await prompts().create(org, { name: "e", type: "text", tags: ["x", "x"] })),
    ).toMatchObject({ status: 400, param: "tags" });
  });

  it("updates name, description and tags with a name conflict check", async () => {
    const a = await prompts().create(org, { name: "a", type: "text" });
    await prompts().create(org, { name: "b", type: "text" });
    expect(await prompts().update(org, "a", { description: "d", tags: ["t"] })).toMatchObject({
      description: "d",
      tags: ["t"],
    });
    expect(await failure(async () => await prompts().update(org, a.id, { name: "b" }))).toMatchObject({
      status: 409,
    });
    expect(await failure(async () => await prompts().update(org, a.id, {}))).toMatchObject({ status: 400 });
    expect((await prompts().update(org, a.id, { name: "renamed" })).name).toBe("renamed");
  });

  it("lists with filters, newest first", async () => {
    await prompts().create(org, {
      name: "one",
      type: "text",
      tags: ["x"],
      prompt: "1",
      labels: ["production"],
    });
    await prompts().create(org, { name: "two", type: "chat", tags: ["y"] });
    const names = async (query: Record<string, string>) =>
      (await prompts().list(org, query, page)).items.map((p) => p.name);
    expect(await names({})).toEqual(["two", "one"]);
    expect(await names({ type: "chat" })).toEqual(["two"]);
    expect(await names({ tag: "x" })).toEqual(["one"]);
    expect(await names({ label: "production" })).toEqual(["one"]);
    expect(await names({ name: "tw" })).toEqual(["two"]);
  });

  it("activates: an active version gets production; a deactivated one is copied to the head first", async () => {
    const p = await prompts().create(org, { name: "p", type: "text", prompt: "v1" });
    await prompts().createVersion(org, "p", { prompt: "v2", labels: ["production"] });
    expect((await prompts().activateVersion(org, "p", "1")).labels).toEqual(["production"]);
    expect((await prompts().getVersion(org, "p", "2")).labels).toEqual(["latest"]);
    await prompts().deactivateVersion(org, "p", "1");
    await prompts().deactivateVersion(org, "p", "1");
    expect(await prompts().getVersion(org, "p", "1")).toMatchObject({
      active: false,
      labels: ["production"],
    });
    const copy = await prompts().activateVersion(org, p.id, "1");
    expect(copy).toMatchObject({
      versionNumber: 3,
      prompt: "v1",
      copiedFromVersionId: (await prompts().getVersion(org, "p", "1")).id,
      labels: ["latest", "production"],
    });
    expect((await prompts().latestVersion(org, "p")).versionNumber).toBe(3);
    expect((await prompts().listVersions(org, "p", page)).items.map((v) => v.versionNumber)).toEqual([
      3, 2, 1,
    ]);
  });

  it("keeps the label rules: latest is system, duplicates 409, deactivated targets 409, unknown 404", async () => {
    await prompts().create(org, { name: "p", type: "text", prompt: "v1" });
    const v2 = await prompts().createVersion(org, "p", { prompt: "v2" });
    const other = await prompts().create(org, { name: "q", type: "text", prompt: "q1" });
    const label = await prompts().createLabel(org, "p", { name: "staging", promptVersionId: "1" });
    expect(label).toMatchObject({ name: "staging", versionNumber: 1 });
    expect(await prompts().moveLabel(org, "p", "staging", { promptVersionId: v2.id })).toMatchObject({
      versionNumber: 2,
    });
    expect(
      await failure(
        async () => await prompts().createLabel(org, "p", { name: "staging", promptVersionId: "1" }),
      ),
    ).toMatchObject({ status: 409 });
    expect(
      await failure(
        async () => await prompts().createLabel(org, "p", { name: "latest", promptVersionId: "1" }),
      ),
    ).toMatchObject({ status: 409 });
    expect(
      await failure(
        async () =>
          await prompts().createLabel(org, "p", {
            name: "x",
            promptVersionId: (await prompts().getVersion(org, other.id, "1")).id,
          }),
      ),
    ).toMatchObject({ status: 404, param: "promptVersionId" });
    await prompts().deactivateVersion(org, "p", "1");
    expect(
      await failure(async () => await prompts().createLabel(org, "p", { name: "x", promptVersionId: "1" })),
    ).toMatchObject({ status: 409 });
    expect(
      await failure(async () => await prompts().moveLabel(org, "p", "nope", { promptVersionId: "2" })),
    ).toMatchObject({
      status: 404,
    });
    expect(await failure(async () => await prompts().deleteLabel(org, "p", "latest"))).toMatchObject({
      status: 409,
    });
    await prompts().deleteLabel(org, "p", "staging");
    expect((await prompts().listLabels(org, "p")).map((l) => l.name)).toEqual(["latest"]);
  });

  it("deletes unless the in-use check says an experiment variant uses it", async () => {
    await prompts().create(org, { name: "used", type: "text", prompt: "x" });
    await prompts().create(org, { name: "free", type: "text" });
    prompts().setInUseCheck(async (_, promptId) => promptId === (await prompts().get(org, "used")).id);
    expect(await failure(async () => await prompts().delete(org, "used"))).toMatchObject({
      status: 409,
      code: "prompt_in_use",
    });
    await prompts().delete(org, "free");
    expect(await failure(async () => await prompts().get(org, "free"))).toMatchObject({ status: 404 });
  });
});

describe("PromptService: resolve and compile", () => {
  it("resolves production when it exists, else latest; a label or a version number; not both", async () => {
    await prompts().create(org, { name: "p", type: "text", prompt: "v1 {{a}}" });
    await prompts().createVersion(org, "p", { prompt: "v2" });
    expect(await prompts().resolve(org, "p")).toMatchObject({ versionNumber: 2, label: "latest" });
    await prompts().activateVersion(org, "p", "1");
    expect(await prompts().resolve(org, "p")).toMatchObject({
      versionNumber: 1,
      label: "production",
      type: "text",
      prompt: "v1 {{a}}",
      variables: ["a"],
      config: {},
    });
    expect(await prompts().resolve(org, "p", { label: "latest" })).toMatchObject({ versionNumber: 2 });
    expect(await prompts().resolve(org, "p", { version: "2" })).toMatchObject({
      versionNumber: 2,
      label: null,
    });
    expect(
      await failure(async () => await prompts().resolve(org, "p", { version: "2", label: "latest" })),
    ).toMatchObject({
      status: 400,
    });
    expect(await failure(async () => await prompts().resolve(org, "p", { version: "x" }))).toMatchObject({
      status: 400,
      param: "version",
    });
    expect(await failure(async () => await prompts().resolve(org, "p", { version: "9" }))).toMatchObject({
      status: 404,
    });
    expect(await failure(async () => await prompts().resolve(org, "p", { label: "nope" }))).toMatchObject({
      status: 404,
      param: "label",
    });
    await prompts().create(org, { name: "empty", type: "chat" });
    expect(await failure(async () => await prompts().resolve(org, "empty"))).toMatchObject({ status: 404 });
  });

  it("compiles text and chat prompts; missing_variables lists every missing name over all messages", async () => {
    await prompts().create(org, { name: "t", type: "text", prompt: "{{{x}}} {{ y }} {{x}} {{ not a var }}" });
    expect(
      await prompts().compile(org, "t", { variables: { x: 1, y: { k: [true] }, unused: "z" } }),
    ).toMatchObject({
      type: "text",
      versionNumber: 1,
      compiled: '{1} {"k":[true]} 1 {{ not a var }}',
    });
    await prompts().create(org, {
      name: "c",
      type: "chat",
      prompt: [
        { role: "system", content: "You are {{persona}}." },
        { role: "user", content: "{{question}} ({{lang}}, {{persona}})" },
      ],
    });
    expect((await prompts().getVersion(org, "c", "1")).variables).toEqual(["persona", "question", "lang"]);
    expect(
      (await prompts().compile(org, "c", { variables: { persona: "kind", question: "Why?", lang: "en" } }))
        .compiled,
    ).toEqual([
      { role: "system", content: "You are kind." },
      { role: "user", content: "Why? (en, kind)" },
    ]);
    const error = await failure(
      async () => await prompts().compile(org, "c", { variables: { question: "q" } }),
    );
    expect(error).toMatchObject({ status: 400, code: "missing_variables", param: "variables" });
    try {
      await prompts().compile(org, "c", {});
    } catch (e) {
      expect((e as Error).message).toContain("lang, persona, question");
    }
  });

  it("serves only active versions", async () => {
    await prompts().create(org, { name: "p", type: "text", prompt: "v1", labels: ["production"] });
    await prompts().createVersion(org, "p", { prompt: "v2" });
    await prompts().deactivateVersion(org, "p", "1");
    expect(await failure(async () => await prompts().resolve(org, "p"))).toMatchObject({
      status: 404,
      param: "label",
    });
    expect(await failure(async () => await prompts().compile(org, "p", { version: 1 }))).toMatchObject({
      status: 404,
      param: "version",
    });
    expect((await prompts().compile(org, "p", { label: "latest" })).compiled).toBe("v2");
  });
});

describe("PromptService: test", () => {
  function fakeGateway(answer: Partial<ChatCompletion> = {}) {
    const calls: Array<{ body: ChatRequestBody; principal: Principal }> = [];
    const gateway = {
      chat: async (body: ChatRequestBody, context: { principal: Principal }) => {
        calls.push({ body, principal: context.principal });
        return {
          id: "c",
          object: "chat.completion",
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content: "Hi!" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
          ...answer,
        } satisfies ChatCompletion;
      },
    } as unknown as Gateway;
    return { gateway, calls };
  }

  it("sends a text prompt as one user message with the effective config, and answers usage and latency", async () => {
    const { gateway, calls } = fakeGateway();
    const service = new PromptService(store, gateway);
    const principal = await groundwork.principal("acme", "member");
    await service.create(org, {
      name: "t",
      type: "text",
      prompt: "Hello {{who}}",
      config: { model: "m-1", temperature: 0.5, maxTokens: 10 },
    });
    const result = await service.test(principal, "t", {
      variables: { who: "Ada" },
      config: { topP: 0.9, temperature: 1 },
    });
    expect(calls[0]?.body).toMatchObject({
      model: "m-1",
      messages: [{ role: "user", content: "Hello Ada" }],
      temperature: 1,
      max_completion_tokens: 10,
      top_p: 0.9,
    });
    expect(result).toMatchObject({
      versionNumber: 1,
      compiled: "Hello Ada",
      model: "m-1",
      output: "Hi!",
      finishReason: "stop",
      usage: { promptTokens: 7, completionTokens: 2, totalTokens: 9 },
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    await service.test(principal, "t", { variables: { who: "B" }, model: "m-2" });
    expect(calls[1]?.body.model).toBe("m-2");
  });

  it("sends chat messages as they are; model_required and missing_variables come before any call", async () => {
    const { gateway, calls } = fakeGateway();
    const service = new PromptService(store, gateway);
    const principal = await groundwork.principal("acme", "member");
    await service.create(org, {
      name: "c",
      type: "chat",
      prompt: [
        { role: "developer", content: "Be {{tone}}" },
        { role: "user", content: "Go" },
      ],
    });
    expect(
      await failure(async () => await service.test(principal, "c", { variables: { tone: "brief" } })),
    ).toMatchObject({
      status: 400,
      code: "model_required",
      param: "model",
    });
    expect(await failure(async () => await service.test(principal, "c", { model: "m" }))).toMatchObject({
      code: "missing_variables",
    });
    expect(calls).toHaveLength(0);
    await service.test(principal, "c", { model: "m", variables: { tone: "brief" } });
    expect(calls[0]?.body.messages).toEqual([
      { role: "developer", content: "Be brief" },
      { role: "user", content: "Go" },
    ]);
  });
});
