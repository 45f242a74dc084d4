/**
 * A completion that passes through unchanged is answered with the upstream's own bytes; one the
 * gateway changes (the model name, the cache details of a built-in call) is serialised again.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Principal } from "@groundwork/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatRequestSchema } from "./chat-request.js";
import { createFastFetch } from "./fast-fetch.js";
import { Gateway } from "./gateway.js";
import { completionJson } from "./upstream-text.js";

let answer = "";
let events: string[] = [];
const server = createServer((request, response) => {
  let body = "";
  request.setEncoding("utf8");
  request.on("data", (part: string) => {
    body += part;
  });
  request.on("end", () => {
    if (body.includes('"stream":true')) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(`${events.map((event) => `data: ${event}\n\n`).join("")}data: [DONE]\n\n`);
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(answer);
  });
});
let gateway: Gateway;
beforeAll(async () => {
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as AddressInfo;
  gateway = new Gateway({
    builtin: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "k" },
    providers: { find: () => null, list: () => [] },
    usage: { record: () => undefined, chargedSince: () => 0 },
    fetch: createFastFetch(),
  });
});
afterAll(() => new Promise((closed) => server.close(closed)));

const principal: Principal = {
  organizationId: "org_1",
  organizationName: "acme",
  plan: "team",
  role: "member",
  apiKeyId: "key_1",
};
const completion = (model: string, usage: object) =>
  // Indented, as some providers send it: the bytes are told apart from a serialisation.
  JSON.stringify(
    {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model,
      choices: [{ index: 0, message: { role: "assistant", content: "pong" }, finish_reason: "stop" }],
      usage,
    },
    null,
    2,
  );
const ask = (body: object) =>
  gateway.chatJson(chatRequestSchema.parse({ messages: [{ role: "user", content: "ping" }], ...body }), {
    principal,
  });

describe("chatJson", () => {
  it("answers the upstream's bytes when nothing in them changes", async () => {
    answer = completion("m", { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 });
    expect(await ask({ model: "m" })).toBe(answer);
  });

  it("serialises again with the model name as sent", async () => {
    answer = completion("m-2025-01-01", { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 });
    const text = await ask({ model: "m" });
    expect(text).not.toBe(answer);
    expect(JSON.parse(text)).toEqual({ ...JSON.parse(answer), model: "m" });
  });

  it("serialises again without the cache details of a built-in call that sent no cache key", async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };
    answer = completion("m", { ...usage, prompt_tokens_details: { cached_tokens: 2 } });
    expect(JSON.parse(await ask({ model: "m" }))).toEqual({ ...JSON.parse(answer), usage });
    // With a cache key the details are the caller's to see, and the bytes pass through.
    expect(await ask({ model: "m", prompt_cache_key: "k" })).toBe(answer);
  });
});

/** A chunk as some providers write it: a space after each colon tells the bytes from a serialisation. */
const event = (fields: object) => JSON.stringify(fields).replaceAll('":', '": ');
const chunk = (model: string, content: string, extra: object = {}) =>
  event({
    id: "c1",
    object: "chat.completion.chunk",
    created: 1,
    model,
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
    ...extra,
  });
const usageChunk = (usage: object) =>
  event({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage });

async function streamed(body: object): Promise<string[]> {
  const request = chatRequestSchema.parse({
    messages: [{ role: "user", content: "ping" }],
    stream: true,
    ...body,
  });
  const texts: string[] = [];
  for await (const item of await gateway.openChatStream(request, { principal }))
    texts.push(completionJson(item));
  return texts;
}

describe("streamed chunks", () => {
  it("answer the upstream's event text when nothing in the chunk changes", async () => {
    events = [chunk("m", "po"), chunk("m", "ng")];
    expect(await streamed({ model: "m" })).toEqual(events);
  });

  it("are serialised again with the model name as sent", async () => {
    events = [chunk("m-2025-01-01", "po")];
    const [text] = await streamed({ model: "m" });
    expect(text).toBe(JSON.stringify({ ...JSON.parse(events[0] as string), model: "m" }));
  });

  it("are serialised again without the usage a client did not ask for, and its usage chunk dropped", async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };
    events = [chunk("m", "po", { usage: null }), chunk("m", "ng"), usageChunk(usage)];
    const texts = await streamed({ model: "m" });
    expect(texts).toEqual([
      JSON.stringify({ ...JSON.parse(events[0] as string), usage: undefined }),
      events[1],
    ]);
    // Asked for, the usage chunk passes through as written.
    expect(await streamed({ model: "m", stream_options: { include_usage: true } })).toEqual(events);
  });

  it("are serialised again without the cache details of a built-in call that sent no cache key", async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };
    events = [chunk("m", "po"), usageChunk({ ...usage, prompt_tokens_details: { cached_tokens: 2 } })];
    const texts = await streamed({ model: "m", stream_options: { include_usage: true } });
    expect(texts[0]).toBe(events[0]);
    expect(texts[1]).toBe(JSON.stringify({ ...JSON.parse(events[1] as string), usage }));
  });
});
