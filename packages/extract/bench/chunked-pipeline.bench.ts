/**
 * Wall time of the chunked pipeline's own work for a ~100K-token input: token estimate, chunking,
 * prompt and carry-forward building, answer parsing, merge, dedup, post-merge validation,
 * resequencing and scoring. The model answers instantly from answers computed before the
 * benchmark, so no model latency (and no "model" parsing work) is measured.
 */
import { type ChatCompletion, type ChatModel, estimateTokens } from "@groundwork/core";
import { bench, describe } from "vitest";
import { chunkText } from "../src/chunking.js";
import { DEFAULT_EXTRACTION_SETTINGS, ExtractionEngine } from "../src/extraction-engine.js";

const jsonSchema = {
  type: "object",
  required: ["invoiceNumber", "lines"],
  properties: {
    invoiceNumber: { type: ["string", "null"] },
    lines: {
      type: "array",
      items: {
        type: "object",
        properties: {
          lineNumber: { type: "integer" },
          partNumber: { type: "string" },
          description: { type: ["string", "null"] },
          quantity: { type: ["number", "null"] },
        },
      },
    },
  },
};

function line(i: number): string {
  return `Line ${i}: part PN-${String(i).padStart(6, "0")} described as blue anodised bracket, quantity ${(i % 9) + 1}\n`;
}

let text = "Invoice INV-2024-001 from Acme Tools\n";
for (let i = 1; estimateTokens(text) < 99_000; i++) text += line(i);
const inputTokens = estimateTokens(text);

// What a model would answer for each chunk: the lines it contains (overlaps included).
const answers = chunkText(text, DEFAULT_EXTRACTION_SETTINGS).map((chunk) => {
  const lines = [
    ...chunk.text.matchAll(/^Line (\d+): part (PN-\d+) described as (.+), quantity (\d+)$/gm),
  ].map((m) => ({ lineNumber: Number(m[1]), partNumber: m[2], description: m[3], quantity: Number(m[4]) }));
  const content = JSON.stringify({ invoiceNumber: chunk.index === 0 ? "INV-2024-001" : null, lines });
  return { content, items: lines.length };
});

let call = 0;
const instantModel: ChatModel = {
  async complete(): Promise<ChatCompletion> {
    const answer = answers[call++ % answers.length];
    return {
      id: "bench",
      object: "chat.completion",
      created: 0,
      model: "bench",
      choices: [
        { index: 0, message: { role: "assistant", content: answer?.content ?? "{}" }, finish_reason: "stop" },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
  },
  stream() {
    throw new Error("unused");
  },
};

const engine = new ExtractionEngine({ model: instantModel });
const itemCount = answers.reduce((sum, answer) => sum + answer.items, 0);
console.log(
  `chunked pipeline bench: ${inputTokens} estimated tokens, ${text.length} characters, ${answers.length} chunks, ${itemCount} items answered`,
);

describe("chunked pipeline, 100K-token input, instant model", () => {
  bench(
    "engine.run (CHUNKED)",
    async () => {
      call = 0;
      const result = await engine.run(
        { jsonSchema, inputText: text, model: "bench" },
        { strategy: "CHUNKED" },
      );
      if (result.metadata.chunksProcessed !== answers.length) throw new Error("unexpected chunk count");
    },
    { iterations: 10, warmupIterations: 2 },
  );
});
