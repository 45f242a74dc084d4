import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chatRequestSchema } from "./chat-request.js";
import { parseChatRequestFast } from "./chat-request-fast.js";

/**
 * Chat bodies where each field is one of its valid spellings, or (1 time in `1 + validWeight / 3`)
 * a near miss or any JSON value at all; with `Infinity`, valid bodies only.
 */
function chatBodies(validWeight: number): fc.Arbitrary<unknown> {
  const either = <T>(valid: fc.Arbitrary<T>, nearMiss: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
    validWeight === Number.POSITIVE_INFINITY
      ? valid
      : fc.oneof(
          { weight: validWeight, arbitrary: valid as fc.Arbitrary<unknown> },
          { weight: 2, arbitrary: nearMiss },
          { weight: 1, arbitrary: fc.jsonValue() },
        );

  const numberNear = (min: number, max: number) =>
    either(
      fc.oneof(fc.double({ min, max, noNaN: true }), fc.constantFrom(min, max, null)),
      fc.constantFrom(min - 0.001, max + 0.001, -3, 3),
    );
  const intNear = either(
    fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom(2 ** 53 - 1, null)),
    fc.constantFrom(0, -1, 1.5, 2 ** 53, 1e300),
  );
  const extra = fc.dictionary(fc.constantFrom("x", "extra", "vendor_field"), fc.jsonValue(), { maxKeys: 1 });

  const textPart = fc.record({ type: fc.constant("text"), text: either(fc.string(), fc.integer()) });
  const imagePart = fc.record({
    type: fc.constant("image_url"),
    image_url: either(
      fc.record(
        {
          url: either(fc.constantFrom("https://x.test/a.png", "data:image/png;base64,AA", ""), fc.integer()),
          detail: either(fc.constantFrom("auto", "low", "high"), fc.constantFrom("medium", null)),
        },
        { requiredKeys: ["url"] },
      ),
      fc.constant("https://x.test/a.png"),
    ),
  });
  const part = fc.tuple(fc.oneof(textPart, imagePart), extra).map(([p, e]) => ({ ...e, ...p }));
  const toolCall = fc.record({
    id: either(fc.string(), fc.constant(null)),
    type: either(fc.constant("function"), fc.constant("tool")),
    function: either(
      fc.record({ name: either(fc.string(), fc.integer()), arguments: either(fc.string(), fc.object()) }),
      fc.constant([]),
    ),
  });
  const message = fc
    .tuple(
      fc.record(
        {
          role: either(
            fc.constantFrom("system", "developer", "user", "assistant", "tool"),
            fc.constant("bot"),
          ),
          content: either(
            fc.oneof(fc.string(), fc.constant(null), fc.array(part, { maxLength: 3 })),
            fc.integer(),
          ),
          name: either(fc.string(), fc.integer()),
          tool_calls: either(fc.array(toolCall, { maxLength: 2 }), fc.constant({})),
          tool_call_id: either(fc.string(), fc.constant(null)),
        },
        { requiredKeys: ["role"] },
      ),
      extra,
    )
    .map(([m, e]) => ({ ...e, ...m }));
  const schemaObject = fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue(), { maxKeys: 3 });
  const tool = fc.record({
    type: either(fc.constant("function"), fc.constant("code")),
    function: either(
      fc.record(
        {
          name: either(fc.string({ minLength: 1, maxLength: 64 }), fc.constantFrom(null, "", "f".repeat(65))),
          description: either(fc.string(), fc.integer()),
          parameters: either(schemaObject, fc.array(fc.integer())),
          strict: either(fc.oneof(fc.boolean(), fc.constant(null)), fc.constant("yes")),
        },
        { requiredKeys: ["name"] },
      ),
      fc.constant(null),
    ),
  });
  const toolChoice = either(
    fc.oneof(
      fc.constantFrom("auto", "none", "required"),
      fc.record({
        type: either(fc.constant("function"), fc.constant("tool")),
        function: either(fc.record({ name: fc.string({ minLength: 1, maxLength: 3 }) }), fc.constant("f")),
      }),
    ),
    fc.constantFrom("any", { type: "function", function: { name: "" } }),
  );
  const responseFormat = fc.oneof(
    fc.record({ type: either(fc.constantFrom("text", "json_object"), fc.constant("xml")) }),
    fc.record({
      type: fc.constant("json_schema"),
      json_schema: either(
        fc.record(
          {
            name: either(fc.string({ minLength: 1, maxLength: 3 }), fc.constantFrom(1, "")),
            schema: either(schemaObject, fc.constant([1])),
            strict: either(fc.oneof(fc.boolean(), fc.constant(null)), fc.integer()),
            description: either(fc.string(), fc.boolean()),
          },
          { requiredKeys: ["name", "schema"] },
        ),
        fc.constant(null),
      ),
    }),
  );

  return fc
    .tuple(
      fc.record(
        {
          model: either(fc.string({ maxLength: 12 }), fc.constant(null)),
          messages: either(fc.array(message, { minLength: 0, maxLength: 3 }), fc.constant({})),
          stream: either(fc.oneof(fc.boolean(), fc.constant(null)), fc.constant("true")),
          temperature: numberNear(0, 2),
          max_tokens: intNear,
          max_completion_tokens: intNear,
          top_p: numberNear(0, 1),
          frequency_penalty: numberNear(-2, 2),
          presence_penalty: numberNear(-2, 2),
          stop: either(
            fc.oneof(fc.string(), fc.constant(null), fc.array(fc.string(), { maxLength: 5 })),
            fc.array(fc.integer(), { minLength: 1, maxLength: 2 }),
          ),
          response_format: either(responseFormat, fc.constant("json")),
          tools: either(fc.array(tool, { maxLength: 2 }), fc.constant(null)),
          tool_choice: either(toolChoice, fc.constant(null)),
          parallel_tool_calls: either(fc.oneof(fc.boolean(), fc.constant(null)), fc.constant(0)),
          prompt_cache_key: either(
            fc.string({ maxLength: 256 }),
            fc.oneof(fc.integer(), fc.constant("k".repeat(257))),
          ),
          stream_options: either(
            fc.oneof(
              fc.constant(null),
              fc.record({ include_usage: either(fc.boolean(), fc.constant(null)) }),
            ),
            fc.constant(true),
          ),
          user: either(fc.string(), fc.integer()),
        },
        { requiredKeys: [] },
      ),
      extra,
    )
    .map(([b, e]) => ({ ...e, ...b }));
}

/** Values that are wrong for some field and right for another (ranges, lengths, types). */
const odd = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(-3, 3, 2.001, -0.001, 1.001, 0, 1, 1.5, 2 ** 53, 2 ** 53 - 1, "", "k".repeat(257)),
  fc.constantFrom("f".repeat(65), null, [], {}, true, "auto", "user", ["a", "b", "c", "d", "e"]),
  fc.constantFrom([{ type: "text", text: "x" }], { type: "json_object" }, { include_usage: 1 }),
);
const FIELDS = [
  ...["model", "messages", "stream", "temperature", "max_tokens", "max_completion_tokens", "top_p"],
  ...["frequency_penalty", "presence_penalty", "stop", "response_format", "tools", "tool_choice"],
  ...["parallel_tool_calls", "prompt_cache_key", "stream_options", "user"],
];
const MESSAGE_FIELDS = ["role", "content", "name", "tool_calls", "tool_call_id"];
type Loose = Record<string, unknown> & { messages: Array<Record<string, unknown>> };
/** A valid body with one field, or one field of its first message, set to an odd value. */
const oneFieldOff = fc
  .tuple(chatBodies(Number.POSITIVE_INFINITY), fc.constantFrom(...FIELDS), odd)
  .map(([body, field, value]) => ({ ...(body as object), [field]: value }));
const oneMessageFieldOff = fc
  .tuple(chatBodies(Number.POSITIVE_INFINITY), fc.constantFrom(...MESSAGE_FIELDS), odd)
  .map(([body, field, value]) => {
    const loose = body as Loose;
    if (!Array.isArray(loose.messages) || loose.messages.length === 0) return loose;
    return { ...loose, messages: [{ ...loose.messages[0], [field]: value }, ...loose.messages.slice(1)] };
  });

describe("parseChatRequestFast", () => {
  it("accepts exactly what zod accepts, with zod's output (fields, order, unknown keys dropped)", () => {
    let accepted = 0;
    fc.assert(
      // Mostly valid bodies (their outputs are compared), valid ones with one field off, mostly
      // broken ones (zod decides), anything.
      fc.property(
        fc.oneof(chatBodies(1000), oneFieldOff, oneMessageFieldOff, chatBodies(6), fc.jsonValue()),
        (value) => {
          // The server's bodies come from JSON.parse; so do these.
          const json = JSON.parse(JSON.stringify(value)) as unknown;
          const fast = parseChatRequestFast(json);
          const parsed = chatRequestSchema.safeParse(json);
          expect(fast !== null).toBe(parsed.success);
          if (fast !== null && parsed.success) {
            accepted++;
            expect(fast).toStrictEqual(parsed.data);
            expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
          }
        },
      ),
      { numRuns: 4000 },
    );
    // Enough valid bodies that the outputs are compared, not only the refusals.
    expect(accepted).toBeGreaterThan(250);
  });

  it("takes the common bodies (the property test above would pass by answering null for all)", () => {
    const bodies = [
      { model: "m", messages: [{ role: "user", content: "hi" }] },
      { model: "hosted-a/gpt-4o", messages: [{ role: "user", content: "hi" }], stream: true, user: "u-1" },
      {
        model: "m",
        messages: [
          { role: "system", content: "be brief" },
          { role: "user", content: [{ type: "image_url", image_url: { url: "https://x.test/a.png" } }] },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
          },
          { role: "tool", content: "42", tool_call_id: "c1" },
        ],
        tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
        tool_choice: "auto",
        response_format: {
          type: "json_schema",
          json_schema: { name: "s", schema: { type: "object" }, strict: true },
        },
        stream_options: { include_usage: true },
        temperature: 0.2,
        max_tokens: 100,
        stop: ["\n"],
      },
    ];
    for (const value of bodies) {
      expect(parseChatRequestFast(value)).toStrictEqual(chatRequestSchema.parse(value));
    }
  });

  it("leaves every refusal to zod", () => {
    expect(parseChatRequestFast({ model: "", messages: [{ role: "user" }] })).toBeNull();
    expect(parseChatRequestFast({ model: "m", messages: [] })).toBeNull();
    expect(parseChatRequestFast({ model: "m", messages: [{ role: "user" }], max_tokens: 0 })).toBeNull();
    expect(
      parseChatRequestFast(
        JSON.parse(
          '{"model":"m","messages":[{"role":"user"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"__proto__":{}}}}]}',
        ),
      ),
    ).toBeNull();
    expect(parseChatRequestFast("text")).toBeNull();
  });
});
