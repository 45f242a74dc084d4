import { type ChatMessage, GroundworkError } from "@groundwork/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  chatCompletionFromResponse,
  isReasoningModel,
  isResponsesOnlyModel,
  messagesToInputItems,
  usesResponsesApi,
} from "./chat-via-responses.js";
import { inputItemsToMessages, parseResponsesBody, responsesToChatRequest } from "./responses-request.js";

const field = fc.oneof(fc.jsonValue(), fc.constant(undefined));
const anyItem = fc.oneof(
  fc.jsonValue(),
  fc.record({ role: field, content: field }),
  fc.record({
    type: fc.constantFrom("message", "function_call", "function_call_output", "reasoning", "item_reference"),
    role: fc.oneof(field, fc.constantFrom("user", "assistant", "system", "developer")),
    content: fc.oneof(
      field,
      fc.array(
        fc.record({
          type: fc.constantFrom("input_text", "input_image", "output_text", "refusal", "input_file"),
          text: field,
          image_url: field,
          refusal: field,
        }),
        { maxLength: 3 },
      ),
    ),
    call_id: field,
    name: field,
    arguments: field,
    output: field,
  }),
);

describe("parseResponsesBody and responsesToChatRequest", () => {
  it("accept a body or throw a 400 GroundworkError, never anything else", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            model: fc.oneof(field, fc.constant("m")),
            input: fc.oneof(field, fc.string(), fc.array(anyItem, { maxLength: 4 })),
            instructions: field,
            tools: field,
            tool_choice: field,
            text: field,
            temperature: field,
            max_output_tokens: field,
            metadata: field,
            previous_response_id: field,
          }),
        ),
        (value) => {
          try {
            const body = parseResponsesBody(value);
            const request = responsesToChatRequest(body, "provider-model");
            expect(request.model).toBe("provider-model");
            expect(request.messages.some((m) => m.role !== "system")).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(GroundworkError);
            expect((error as GroundworkError).status).toBe(400);
            expect((error as GroundworkError).type).toBe("invalid_request_error");
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("names the offending field inside unions", () => {
    const param = (value: unknown) => {
      try {
        parseResponsesBody(value);
        return "accepted";
      } catch (error) {
        return (error as GroundworkError).param;
      }
    };
    expect(
      param({
        model: "m",
        input: [
          { role: "user", content: "x" },
          { role: "user", content: 5 },
        ],
      }),
    ).toBe("input[1].content");
    expect(
      param({
        model: "m",
        input: [{ role: "user", content: [{ type: "input_text", text: "a" }, { type: "input_text" }] }],
      }),
    ).toBe("input[0].content[1].text");
    expect(param({ model: "m", input: [{ type: "function_call", call_id: "c", name: "f" }] })).toBe(
      "input[0].arguments",
    );
    expect(param({ model: "m", input: "x", tool_choice: { type: "function" } })).toBe("tool_choice.name");
  });

  it("puts instructions first and folds function calls into the assistant turn before them", () => {
    const body = parseResponsesBody({
      model: "m",
      instructions: "Be exact.",
      input: [
        { role: "developer", content: [{ type: "input_text", text: "dev" }] },
        { role: "user", content: "q" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "a" }] },
        { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
        { type: "function_call", call_id: "c2", name: "g", arguments: "[]" },
        { type: "function_call_output", call_id: "c1", output: [{ type: "input_text", text: "r1" }] },
        { type: "function_call_output", call_id: "c2", output: "r2" },
        { type: "function_call", call_id: "c3", name: "h", arguments: "" },
      ],
      tools: [{ type: "function", name: "f", strict: true }],
      tool_choice: { type: "function", name: "f" },
      text: { format: { type: "json_object" } },
      max_output_tokens: 10,
    });
    expect(responsesToChatRequest(body, "m")).toEqual({
      model: "m",
      messages: [
        { role: "system", content: "Be exact." },
        { role: "developer", content: "dev" },
        { role: "user", content: "q" },
        {
          role: "assistant",
          content: "a",
          tool_calls: [
            { id: "c1", type: "function", function: { name: "f", arguments: "{}" } },
            { id: "c2", type: "function", function: { name: "g", arguments: "[]" } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "r1" },
        { role: "tool", tool_call_id: "c2", content: "r2" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c3", type: "function", function: { name: "h", arguments: "" } }],
        },
      ],
      max_completion_tokens: 10,
      response_format: { type: "json_object" },
      tools: [{ type: "function", function: { name: "f", strict: true } }],
      tool_choice: { type: "function", function: { name: "f" } },
    });
  });
});

describe("chat messages through input items and back", () => {
  const text = fc.string({ maxLength: 8 });
  const call = fc.record({
    id: fc.string({ minLength: 1, maxLength: 6 }),
    type: fc.constant("function" as const),
    function: fc.record({ name: fc.string({ minLength: 1, maxLength: 6 }), arguments: text }),
  });
  const message: fc.Arbitrary<ChatMessage> = fc.oneof(
    fc.record({ role: fc.constantFrom("system" as const, "developer" as const), content: text }),
    fc.record({
      role: fc.constant("user" as const),
      content: fc.oneof(
        text,
        fc.array(
          fc.oneof(
            fc.record({ type: fc.constant("text" as const), text }),
            fc.record({
              type: fc.constant("image_url" as const),
              image_url: fc.record({
                url: fc.webUrl(),
                detail: fc.constantFrom("auto" as const, "low" as const, "high" as const),
              }),
            }),
          ),
          { minLength: 1, maxLength: 3 },
        ),
      ),
    }),
    fc.record({
      role: fc.constant("assistant" as const),
      content: fc.string({ minLength: 1, maxLength: 8 }),
    }),
    fc.record({
      role: fc.constant("assistant" as const),
      content: fc.oneof(fc.constant(null), fc.string({ minLength: 1, maxLength: 8 })),
      tool_calls: fc.array(call, { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      role: fc.constant("tool" as const),
      tool_call_id: fc.string({ minLength: 1, maxLength: 6 }),
      content: text,
    }),
  );

  it("comes back unchanged (messagesToInputItems is undone by inputItemsToMessages)", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 6 }), (messages) => {
        // Two assistant turns in a row merge in the chat shape only when the second is bare tool calls.
        const roundTrip = inputItemsToMessages(messagesToInputItems(messages));
        const expected: ChatMessage[] = [];
        for (const m of messages) {
          const last = expected.at(-1);
          if (m.role === "assistant" && m.content === null && last?.role === "assistant") {
            last.tool_calls = [...(last.tool_calls ?? []), ...(m.tool_calls ?? [])];
          } else expected.push(structuredClone(m));
        }
        expect(roundTrip).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe("the useResponsesApi rule", () => {
  it.each([
    ["o1", true, false],
    ["o3-mini", true, false],
    ["o4-mini-2025-04-16", true, false],
    ["gpt-5", true, false],
    ["gpt-5.1-mini", true, false],
    ["ft:o4-mini:acme::abc", true, false],
    ["o3-pro", true, true],
    ["o1-pro-2025-03-19", true, true],
    ["gpt-5-pro", true, true],
    ["gpt-5.1-codex-max", true, true],
    ["o4-mini-deep-research", true, true],
    ["codex-mini-latest", false, true],
    ["computer-use-preview", false, true],
    ["gpt-4o", false, false],
    ["gpt-4.1-mini", false, false],
    ["omni-moderation-latest", false, false],
    ["gpt-5-proto", true, false],
  ])("%s: reasoning %s, responses only %s", (model, reasoning, only) => {
    expect(isReasoningModel(model)).toBe(reasoning);
    expect(isResponsesOnlyModel(model)).toBe(only);
  });

  it("forces, automates or never uses the protocol", () => {
    const tools = [{ type: "function" as const, function: { name: "f" } }];
    const ask = (model: string, withTools: boolean) => ({
      model,
      messages: [{ role: "user" as const, content: "x" }],
      ...(withTools ? { tools } : {}),
    });
    expect(usesResponsesApi("always", ask("gpt-4o", false))).toBe(true);
    expect(usesResponsesApi("auto", ask("gpt-4o", true))).toBe(false);
    expect(usesResponsesApi("auto", ask("o3", false))).toBe(false);
    expect(usesResponsesApi("auto", ask("o3", true))).toBe(true);
    expect(usesResponsesApi("auto", ask("o3-pro", false))).toBe(true);
    expect(usesResponsesApi("never", ask("o3-pro", true))).toBe(false);
  });
});

describe("chatCompletionFromResponse", () => {
  it("answers a refusal as the text and a failed response as a 502", () => {
    const completion = chatCompletionFromResponse(
      {
        id: "resp_1",
        created_at: 1,
        model: "o3",
        status: "completed",
        output: [
          { type: "reasoning" },
          { type: "message", content: [{ type: "refusal", refusal: "I can't help with that." }] },
        ],
      },
      "hosted-a",
    );
    expect(completion.choices[0]?.message.content).toBe("I can't help with that.");
    expect(completion).not.toHaveProperty("usage");
    expect(() =>
      chatCompletionFromResponse(
        { id: "r", created_at: 1, model: "o3", status: "failed", error: { message: "boom" }, output: [] },
        "hosted-a",
      ),
    ).toThrow(/hosted-a failed the response: boom/);
  });
});
