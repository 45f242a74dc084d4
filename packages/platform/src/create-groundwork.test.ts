/**
 * The composition root as a library user meets it: defaults, tenancy through a
 * principal the platform makes, the allowance port (none: unlimited; plans: the
 * server's 402s), and workers that start and stop with the object.
 */
import { isGroundworkError } from "@groundwork/core";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../test/test-store.js";
import { DEFAULT_CONFIG, resolveConfig } from "./config.js";
import { createGroundwork } from "./create-groundwork.js";
import { storePlanAllowance } from "./gateway/store-gateway.js";
import type { PlatformStore } from "./store-port.js";

let upstream: Upstream;
let store: PlatformStore;
beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gpt-x"] });
});
afterAll(() => upstream.close());
beforeEach(async () => {
  store = await openTestStore({ secret: "platform-test-secret" });
  upstream.reset();
});
afterEach(async () => await store.close());

/** An organization on the free plan with its own OpenAI-compatible provider. */
async function freeOrganizationWithProvider(): Promise<string> {
  const organization = await store.organizations.create("shop", "free");
  await store.providers.create({
    organizationId: organization.id,
    name: "own",
    type: "HOSTED_A",
    config: { baseUrl: upstream.url },
    apiKey: "sk-own",
  });
  return organization.id;
}

const hello = { model: "hosted-a/gpt-x", messages: [{ role: "user" as const, content: "hello" }] };

describe("createGroundwork", () => {
  it("merges a partial config into the defaults, group by group", () => {
    const config = resolveConfig({ agents: { functionTimeoutMs: 5 }, allowPrivateNetwork: true });
    expect(config.agents).toEqual({ ...DEFAULT_CONFIG.agents, functionTimeoutMs: 5 });
    expect(config.allowPrivateNetwork).toBe(true);
    expect(config.workers).toEqual(DEFAULT_CONFIG.workers);
    expect(config.builtin).toBeNull();
  });

  it("makes a principal for an organization by name, creating it once", async () => {
    const groundwork = createGroundwork({ store });
    const first = await groundwork.principal("acme");
    const again = await groundwork.principal("acme");
    expect(again.organizationId).toBe(first.organizationId);
    expect(first).toMatchObject({ organizationName: "acme", role: "admin" });
    expect(await store.organizations.count()).toBe(1);
  });

  it("without an allowance, calls any provider whatever the plan (a library user is unlimited)", async () => {
    await freeOrganizationWithProvider();
    const groundwork = createGroundwork({ store });
    upstream.enqueue({ text: "hi there" });
    const completion = await groundwork.gateway.chat(hello, {
      principal: await groundwork.principal("shop"),
    });
    expect(completion.choices[0]?.message.content).toBe("hi there");
  });

  it("with the plans' allowance, refuses own providers on the free plan with a 402", async () => {
    await freeOrganizationWithProvider();
    const groundwork = createGroundwork({ store, allowance: storePlanAllowance(store) });
    const attempt = groundwork.gateway.chat(hello, { principal: await groundwork.principal("shop") });
    await expect(attempt).rejects.toSatisfy(
      (error: unknown) => isGroundworkError(error) && error.status === 402,
    );
    await expect(attempt).rejects.toThrow(/need the Team, Business or Enterprise plan/);
    expect(upstream.requests).toHaveLength(0);
  });

  it("names its settings in errors, never the server's environment", async () => {
    const groundwork = createGroundwork({ store });
    const attempt = groundwork.gateway.chat(
      { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] },
      { principal: await groundwork.principal() },
    );
    await expect(attempt).rejects.toThrow(/the builtin setting/);
    await expect(attempt).rejects.not.toThrow(/GROUNDWORK_/);
  });

  it("starts its workers once and closes them, leaving the store open", async () => {
    const groundwork = createGroundwork({ store, config: { workers: { pollMs: 10, leaseMs: 1000 } } });
    expect(await groundwork.start()).toBe(await groundwork.start());
    const task = await groundwork.conversion.submit(
      (await groundwork.principal()).organizationId,
      [
        {
          kind: "bytes",
          filename: "note.md",
          mimeType: null,
          content: new TextEncoder().encode("# Hi\n\nThere"),
        },
      ],
      {},
    );
    let current = await store.conversionTasks.get(task.id);
    for (let i = 0; i < 200 && current?.status !== "success"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      current = await store.conversionTasks.get(task.id);
    }
    expect(current?.status).toBe("success");
    await groundwork.close();
    await groundwork.close();
    expect(await store.organizations.count()).toBe(1);
  });
});
