import type { ContentBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { ChatMessage } from "@groundwork/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toMessagesPrompt } from "./anthropic-translate.js";

const text = fc.string({ maxLength: 6 });
const id = fc.stringMatching(/^[a-z0-9]{1,6}$/);
const content = fc.oneof(
  text,
  fc.array(
    text.map((t) => ({ type: "text" as const, text: t })),
    { maxLength: 3 },
  ),
);
const toolCall = fc.record({
  id,
  type: fc.constant("function" as const),
  function: fc.record({
    name: id,
    arguments: fc.dictionary(id, fc.integer()).map((input) => JSON.stringify(input)),
  }),
});

const message: fc.Arbitrary<ChatMessage> = fc.oneof(
  fc.record({ role: fc.constantFrom("system" as const, "developer" as const), content }),
  fc.record({ role: fc.constant("user" as const), content }),
  fc.record({
    role: fc.constant("assistant" as const),
    content: fc.option(content, { nil: null }),
    tool_calls: fc.array(toolCall, { maxLength: 2 }),
  }),
  fc.record({ role: fc.constant("tool" as const), tool_call_id: id, content: text }),
);

function texts(value: ChatMessage["content"]): string[] {
  if (value === null) return [];
  const all =
    typeof value === "string" ? [value] : value.map((part) => (part.type === "text" ? part.text : ""));
  return all.filter((t) => t.length > 0);
}

// What the translation must carry over, one atom per piece of content, in input order.
function inputAtoms(messages: readonly ChatMessage[]): string[] {
  return messages.flatMap((m) => {
    if (m.role === "system" || m.role === "developer") return [];
    if (m.role === "tool") return [`result:${m.tool_call_id}`];
    return [...texts(m.content).map((t) => `text:${t}`), ...(m.tool_calls ?? []).map((c) => `use:${c.id}`)];
  });
}

function blockAtom(block: ContentBlockParam): string {
  if (block.type === "text") return `text:${block.text}`;
  if (block.type === "tool_use") return `use:${block.id}`;
  if (block.type === "tool_result") return `result:${block.tool_use_id}`;
  return block.type;
}

const isResult = (atom: string) => atom.startsWith("result:");

describe("toMessagesPrompt (property)", () => {
  it("alternates roles, loses no content, keeps order, and puts tool results first in a turn", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (messages) => {
        const prompt = toMessagesPrompt(messages);
        const turns = prompt.messages.map((turn) => ({
          role: turn.role,
          atoms: (typeof turn.content === "string" ? [] : turn.content).map(blockAtom),
        }));

        for (const [index, turn] of turns.entries()) {
          expect(turn.atoms.length).toBeGreaterThan(0);
          if (index > 0) expect(turn.role).not.toBe(turns[index - 1]?.role);
          const firstOther = turn.atoms.findIndex((atom) => !isResult(atom));
          if (firstOther >= 0) expect(turn.atoms.slice(firstOther).some(isResult)).toBe(false);
        }

        const expected = inputAtoms(messages);
        const actual = turns.flatMap((turn) => turn.atoms);
        expect([...actual].sort()).toEqual([...expected].sort());
        // Only tool results may move (to the front of their turn); everything else keeps its order.
        expect(actual.filter((a) => !isResult(a))).toEqual(expected.filter((a) => !isResult(a)));
        expect(actual.filter(isResult)).toEqual(expected.filter(isResult));

        const systemTexts = messages.flatMap((m) =>
          m.role === "system" || m.role === "developer" ? texts(m.content) : [],
        );
        expect(prompt.system.join("\n\n")).toBe(systemTexts.join("\n\n"));
      }),
      { numRuns: 300 },
    );
  });
});
