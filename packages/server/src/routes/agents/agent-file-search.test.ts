/** `file_search` in an agent run: fused search over several knowledge bases, citations as annotations. */
import type { AgentResponseObject } from "@groundwork/agents";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kbHarness } from "../../../test/kb-test-support.js";
import { bearer } from "../../../test/test-support.js";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
});
afterAll(async () => {
  await upstream.close();
});

describe("file_search", () => {
  it("searches every configured knowledge base and turns [n] markers into file citations", async () => {
    const h = await kbHarness({ builtin: { baseUrl: upstream.url, apiKey: "k" } });
    try {
      const policies = await h.createKb();
      const handbook = await h.createKb();
      expect(
        (
          await h.upload(policies.id as string, [
            { name: "refunds.txt", content: "Refunds are paid back within 14 days of the return." },
          ])
        ).status,
      ).toBe(202);
      expect(
        (
          await h.upload(handbook.id as string, [
            { name: "holidays.txt", content: "The office is closed on public holidays." },
          ])
        ).status,
      ).toBe(202);
      await h.drain();
      const applied = await h.json(
        "POST",
        "/v1/agents/apply",
        {
          name: "kb-agent",
          model: "gw-chat-1",
          tools: [{ type: "file_search", config: { knowledgeBaseIds: [policies.id, handbook.id] } }],
        },
        "member",
      );
      expect(applied.status).toBe(201);
      upstream.enqueue(
        { toolCalls: [{ id: "fs1", name: "file_search", arguments: { query: "refunds paid back days" } }] },
        { text: "Refunds are paid within 14 days [1]." },
      );
      const response = await h.app.request("/v1/responses", {
        method: "POST",
        headers: { ...bearer(h.tenant.keys.member), "content-type": "application/json" },
        body: JSON.stringify({ model: "agent/kb-agent", input: "How long do refunds take?" }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as AgentResponseObject;
      expect(body.run.status).toBe("completed");
      const call = body.run.toolCalls[0];
      expect(call).toMatchObject({ tool: "file_search", status: "completed" });
      expect(call?.output).toMatch(/\[1\] refunds\.txt/);
      expect(call?.output).toMatch(/14 days/);
      const message = body.output[0];
      if (message?.type !== "message") throw new Error("expected a message");
      const annotations = message.content[0]?.annotations ?? [];
      expect(annotations).toHaveLength(1);
      expect(annotations[0]).toMatchObject({
        type: "file_citation",
        filename: "refunds.txt",
        knowledge_base_id: policies.id,
        marker: 1,
        index: "Refunds are paid within 14 days [1]".length,
      });
      // The model saw the passages as a tool message.
      const second = upstream.requests[1]?.body as { messages: Array<{ role: string; content: string }> };
      expect(second.messages.find((m) => m.role === "tool")?.content).toMatch(/refunds\.txt/);
    } finally {
      await h.tenant.store.close();
    }
  });
});
