import { type AddressInfo, createServer } from "node:net";
import { inspect } from "node:util";
import { type GroundworkError, invalidRequest, upstreamError } from "@groundwork/core";
import { startOpenAIUpstream } from "@groundwork/testkit";
import { describe, expect, it } from "vitest";
import { createAzureAdapter } from "./adapters/azure-adapter.js";
import { createOpenAICompatibleAdapter } from "./adapters/openai-compatible-adapter.js";
import { toUpstreamError, withSafeRetry } from "./upstream-errors.js";

const chat = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };

describe("toUpstreamError", () => {
  it("marks only never-processed failures as retryable", async () => {
    const upstream = await startOpenAIUpstream();
    const adapter = createOpenAICompatibleAdapter({ provider: "p", baseUrl: upstream.url, apiKey: "k" });
    const failure = async () =>
      (await adapter.complete(chat).then(
        () => {
          throw new Error("expected the call to fail");
        },
        (error: unknown) => error,
      )) as GroundworkError;
    try {
      upstream.enqueue(
        { kind: "error", status: 503 },
        { kind: "error", status: 500 },
        { kind: "error", status: 429, headers: { "retry-after": "1" } },
        { kind: "error", status: 429, headers: { "retry-after": "30" } },
        { kind: "error", status: 400 },
      );
      expect((await failure()).details.retryable).toBe(true);
      expect((await failure()).details.retryable).toBe(false);
      const shortWait = await failure();
      expect(shortWait.status).toBe(429);
      expect(shortWait.details.retryable).toBe(true);
      expect((await failure()).details.retryable).toBe(false);
      expect((await failure()).details.retryable).toBeUndefined();
    } finally {
      await upstream.close();
    }
  });

  it("marks a refused connection retryable: the request was never sent", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const adapter = createOpenAICompatibleAdapter({
      provider: "p",
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: "k",
    });
    const refused = (await adapter.complete(chat).catch((error: unknown) => error)) as GroundworkError;
    expect(refused.status).toBe(502);
    expect(refused.details.retryable).toBe(true);
  });

  it("takes the account's key out of the message and out of every cause a log could print", async () => {
    const key = "sk-live-0123456789abcdefghARY";
    const openai = await startOpenAIUpstream({ apiKey: "sk-rotated", echoKey: "whole" });
    const azure = await startOpenAIUpstream({
      apiKey: "sk-rotated",
      echoKey: "whole",
      basePath: "/openai/deployments/dep",
    });
    try {
      const calls = [
        createOpenAICompatibleAdapter({ provider: "p", baseUrl: openai.url, apiKey: key }).complete(chat),
        // cloud-a sends the key as `api-key`; the upstream quotes it all the same.
        createAzureAdapter({ apiKey: key, endpoint: azure.origin }).complete({ ...chat, model: "dep" }),
      ];
      for (const call of calls) {
        const error = (await call.catch((caught: unknown) => caught)) as GroundworkError;
        expect(error).toMatchObject({ status: 400, type: "upstream_error" });
        expect(error.message).toContain("Incorrect API key provided: [redacted]");
        // What `console.error(error)` or a logger's inspect would write, causes and stacks included.
        const printed = inspect(error, { depth: 10 });
        expect(printed).toContain("[redacted]");
        for (let i = 0; i + 8 <= key.length; i++) expect(printed).not.toContain(key.slice(i, i + 8));
      }
    } finally {
      await Promise.all([openai.close(), azure.close()]);
    }
  });

  it("keeps gateway errors as they are", () => {
    const error = invalidRequest("x");
    expect(toUpstreamError(error, { provider: "p", secret: null })).toBe(error);
  });
});

describe("withSafeRetry", () => {
  it("retries retryable failures at most twice", async () => {
    let calls = 0;
    const always = () => {
      calls += 1;
      return Promise.reject(upstreamError("down", "failed", { details: { retryable: true } }));
    };
    await expect(withSafeRetry(always)).rejects.toThrow("down");
    expect(calls).toBe(3);
  });

  it("never retries other failures", async () => {
    let calls = 0;
    await expect(
      withSafeRetry(() => {
        calls += 1;
        return Promise.reject(upstreamError("bad", "failed"));
      }),
    ).rejects.toThrow("bad");
    expect(calls).toBe(1);
  });

  it("returns the first success", async () => {
    let calls = 0;
    const flaky = () => {
      calls += 1;
      return calls < 2
        ? Promise.reject(upstreamError("busy", "failed", { details: { retryable: true } }))
        : Promise.resolve("ok");
    };
    expect(await withSafeRetry(flaky)).toBe("ok");
  });
});
