import { type AddressInfo, createServer } from "node:net";
import { type GroundworkError, invalidRequest, upstreamError } from "@groundwork/core";
import { startOpenAIUpstream } from "@groundwork/testkit";
import { describe, expect, it } from "vitest";
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

  it("keeps gateway errors as they are", () => {
    const error = invalidRequest("x");
    expect(toUpstreamError(error, "p")).toBe(error);
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
