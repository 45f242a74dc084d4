/** The gateway builds one SDK client per provider account and reuses it until the account changes. */
import type { Principal } from "@groundwork/core";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProviderAdapter } from "./adapters/create-provider-adapter.js";
import { chatRequestSchema } from "./chat-request.js";
import { Gateway } from "./gateway.js";
import type { ProviderAccount } from "./ports.js";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["m"] });
});
afterAll(() => upstream.close());

const principal: Principal = {
  organizationId: "org_1",
  organizationName: "acme",
  plan: "team",
  role: "member",
  apiKeyId: "key_1",
};

describe("provider adapters", () => {
  it("are built once per account and again when its key or config changes", async () => {
    let account: ProviderAccount = {
      id: "prv_1",
      name: "mine",
      type: "HOSTED_A",
      config: { baseUrl: upstream.url },
      apiKey: "sk-1",
    };
    const built: string[] = [];
    const gateway = new Gateway({
      builtin: null,
      providers: { find: () => account, list: () => [account] },
      usage: { record: () => undefined, chargedSince: () => 0 },
      adapterFor: (a, fetchImpl) => {
        built.push(a.apiKey ?? "");
        return createProviderAdapter(a, fetchImpl);
      },
    });
    const body = chatRequestSchema.parse({
      model: "hosted-a/m",
      messages: [{ role: "user", content: "hi" }],
    });
    for (let i = 0; i < 3; i++) await gateway.chat(body, { principal });
    expect(built).toEqual(["sk-1"]);
    account = { ...account, apiKey: "sk-2" };
    await gateway.chat(body, { principal });
    account = { ...account, config: { baseUrl: upstream.url, organizationId: "org-9" } };
    await gateway.chat(body, { principal });
    expect(built).toEqual(["sk-1", "sk-2", "sk-2"]);
    expect(upstream.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer sk-1",
      "Bearer sk-1",
      "Bearer sk-1",
      "Bearer sk-2",
      "Bearer sk-2",
    ]);
  });
});
