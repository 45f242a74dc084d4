/** Whatever arguments a model sends, the platform tools answer (an output or a failure) and never throw. */
import { platformTools, type ResolvedTool, type RunState, resolveTools } from "@groundwork/agents";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { FileService } from "../files/file-service.js";
import { PlatformToolRunner } from "./platform-tool-runner.js";

const store = await openTestStore();
const org = (await store.organizations.create("acme", "enterprise")).id;
const conversationId = (await store.agents.createConversation(org, null, "ask")).id;
const principal = {
  organizationName: "acme",
  organizationId: org,
  role: "member" as const,
  plan: "enterprise" as const,
  apiKeyId: "key_1",
};
const runner = new PlatformToolRunner(store, new FileService(store), {
  webSearch: null,
  allowPrivateNetwork: false,
  fetch: async () => {
    throw new Error("no network in this test");
  },
});
const tools: ResolvedTool[] = [...resolveTools([{ type: "platform.bash" }]), ...platformTools()];
const state = { conversationId, model: "m", deliverables: [], pendingApprovals: [] } as unknown as RunState;

const jsonValue = fc.jsonValue({ maxDepth: 2 });
const argumentsArb = fc.oneof(
  fc.string({ maxLength: 40 }),
  jsonValue.map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        command: fc.oneof(fc.string({ maxLength: 30 }), jsonValue),
        text: fc.oneof(fc.string({ maxLength: 30 }), jsonValue),
        fileIds: fc.oneof(fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }), jsonValue),
        paths: fc.oneof(fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }), jsonValue),
        fileId: fc.oneof(fc.string({ maxLength: 10 }), jsonValue),
        path: fc.oneof(fc.string({ maxLength: 10 }), jsonValue),
        url: fc.oneof(fc.webUrl(), fc.string({ maxLength: 10 })),
        query: fc.oneof(fc.string({ maxLength: 10 }), jsonValue),
        count: fc.oneof(fc.integer(), jsonValue),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
);

describe("platform tools with arbitrary arguments", () => {
  it("answer with an output or a failure, never an exception", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...tools), argumentsArb, async (tool, args) => {
        const result = await runner.execute(principal, { tool, callId: "c1", arguments: args, state });
        expect(result).not.toBeNull();
        expect(typeof result?.output).toBe("string");
      }),
      { numRuns: 60 },
    );
  });
});
