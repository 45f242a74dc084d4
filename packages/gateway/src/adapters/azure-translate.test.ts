import { GroundworkError } from "@groundwork/core";
import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import {
  fromAzureChunk,
  fromAzureCompletion,
  fromAzureUsage,
  toAzureChatBody,
  toAzureMessage,
} from "./azure-translate.js";

describe("toAzureChatBody", () => {
  it("names the deployment as model and leaves out absent and unsupported fields", () => {
    expect(
      toAzureChatBody(
        {
          model: "ignored",
          messages: [{ role: "user", content: "hi" }],
          prompt_cache_key: "k",
          temperature: 0,
        },
        "dep",
      ),
    ).toEqual({ model: "dep", messages: [{ role: "user", content: "hi" }], temperature: 0 });
  });
});

describe("toAzureMessage", () => {
  it("sends developer as system, keeps names, tool ids and assistant tool calls", () => {
    expect(toAzureMessage({ role: "developer", content: "rules", name: "ops" }, 0)).toEqual({
      role: "system",
      content: "rules",
      name: "ops",
    });
    const call = { id: "call_1", type: "function" as const, function: { name: "f", arguments: "{}" } };
    expect(toAzureMessage({ role: "assistant", content: null, tool_calls: [call] }, 0)).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [call],
    });
    expect(
      toAzureMessage({ role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "ok" }] }, 0),
    ).toEqual({ role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "ok" }] });
    expect(toAzureMessage({ role: "user", content: null }, 0)).toEqual({ role: "user", content: "" });
  });

  it("refuses images outside user messages", () => {
    const image = { type: "image_url" as const, image_url: { url: "https://example.com/a.png" } };
    for (const role of ["system", "assistant", "tool"] as const) {
      let caught: unknown;
      try {
        toAzureMessage({ role, content: [image], tool_call_id: "c" }, 3);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(GroundworkError);
      expect(caught).toMatchObject({ status: 400, param: "messages[3].content[0]" });
    }
  });
});

describe("answers", () => {
  it("keeps function tool calls only and drops vendor extras", () => {
    const completion = {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 7,
      model: "gpt-4o",
      system_fingerprint: "fp",
      prompt_filter_results: [],
      choices: [
        {
          index: 0,
          logprobs: null,
          content_filter_results: {},
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            refusal: null,
            tool_calls: [
              { id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } },
              { id: "c2", type: "custom", custom: { name: "g", input: "x" } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    } as unknown as ChatCompletion;
    expect(fromAzureCompletion(completion)).toEqual({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 7,
      model: "gpt-4o",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
          },
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
  });

  it("reports cached tokens only when the vendor does", () => {
    expect(
      fromAzureUsage({
        prompt_tokens: 10,
        completion_tokens: 1,
        total_tokens: 11,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      }),
    ).toEqual({
      prompt_tokens: 10,
      completion_tokens: 1,
      total_tokens: 11,
      prompt_tokens_details: { cached_tokens: 0 },
    });
    expect(fromAzureUsage({ prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 })).not.toHaveProperty(
      "prompt_tokens_details",
    );
  });

  it("drops chunks with neither choices nor usage and keeps the usage chunk", () => {
    const base = { id: "c", object: "chat.completion.chunk", created: 1, model: "m" };
    expect(fromAzureChunk({ ...base, choices: [] } as unknown as ChatCompletionChunk)).toBeUndefined();
    expect(
      fromAzureChunk({
        ...base,
        choices: [],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      } as unknown as ChatCompletionChunk),
    ).toEqual({ ...base, choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
    expect(
      fromAzureChunk({
        ...base,
        usage: null,
        choices: [
          {
            index: 0,
            finish_reason: null,
            delta: {
              role: "assistant",
              content: null,
              refusal: null,
              tool_calls: [{ index: 0, id: "t", type: "function", function: { name: "f", arguments: "" } }],
            },
          },
        ],
      } as unknown as ChatCompletionChunk),
    ).toEqual({
      ...base,
      choices: [
        {
          index: 0,
          finish_reason: null,
          delta: {
            role: "assistant",
            content: null,
            tool_calls: [{ index: 0, id: "t", type: "function", function: { name: "f", arguments: "" } }],
          },
        },
      ],
    });
  });
});
