import { startOpenAIUpstream } from "@groundwork/testkit";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFastFetch } from "./fast-fetch.js";

const upstream = await startOpenAIUpstream();
afterAll(() => upstream.close());
beforeAll(() => upstream.reset());

describe("createFastFetch", () => {
  const client = new OpenAI({ apiKey: "k", baseURL: upstream.url, fetch: createFastFetch(), maxRetries: 0 });

  it("carries JSON requests and responses for the SDK", async () => {
    const completion = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "ping" }],
    });
    expect(completion.choices[0]?.message.content).toBe("Echo: ping");
    expect(upstream.requests.at(-1)?.headers["content-type"]).toMatch(/application\/json/);
  });

  it("streams SSE without buffering the whole answer", async () => {
    const stream = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "stream me" }],
      stream: true,
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("Echo: stream me");
  });

  it("sends multipart bodies with their boundary", async () => {
    const file = new File([new Uint8Array([1, 2, 3])], "a.wav", { type: "audio/wav" });
    const result = await client.audio.transcriptions.create({ file, model: "whisper-x" });
    expect(typeof result.text).toBe("string");
    expect(upstream.requests.at(-1)?.raw.form?.files[0]?.filename).toBe("a.wav");
  });

  it("passes status codes and aborts through", async () => {
    upstream.enqueue({ kind: "error", status: 404, message: "nope" });
    await expect(client.models.list()).rejects.toMatchObject({ status: 404 });
    upstream.enqueue({ text: "slow", delayMs: 2_000 });
    const controller = new AbortController();
    const pending = client.chat.completions.create(
      { model: "m", messages: [{ role: "user", content: "x" }] },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow();
  });
});
