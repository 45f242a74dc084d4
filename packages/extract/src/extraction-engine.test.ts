import type { ChatCompletion, ChatModel, ChatRequest } from "@groundwork/core";
import { describe, expect, it } from "vitest";
import { ExtractionEngine, ExtractionRunError } from "./extraction-engine.js";

const schema = {
  type: "object",
  required: ["invoiceNumber", "vendor", "lines"],
  properties: {
    invoiceNumber: { type: ["string", "null"] },
    vendor: { type: "string" },
    lines: {
      type: "array",
      items: {
        type: "object",
        properties: {
          lineNumber: { type: "integer" },
          partNumber: { type: "string" },
          description: { type: ["string", "null"] },
        },
      },
    },
  },
};

function completion(
  content: string | null,
  usage = { prompt_tokens: 100, completion_tokens: 10 },
): ChatCompletion {
  return {
    id: "c1",
    object: "chat.completion",
    created: 0,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

function userText(request: ChatRequest): string {
  const content = request.messages.find((m) => m.role === "user")?.content;
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

/** A model that "reads" the document part: one line item per `PN-` line it sees. */
function readingModel(extra: (text: string, call: number) => Record<string, unknown> = () => ({})): {
  model: ChatModel;
  requests: ChatRequest[];
} {
  const requests: ChatRequest[] = [];
  const model: ChatModel = {
    async complete(request) {
      requests.push(request);
      const text = userText(request);
      const body = text.includes("Document part:\n") ? text.slice(text.indexOf("Document part:\n")) : text;
      const lines = [...body.matchAll(/^Line (\d+): part (PN-\d+) (\w+)$/gm)].map((m) => ({
        // the model numbers lines within its part, so positions repeat across parts
        lineNumber: Number(m[1]) % 1000,
        partNumber: m[2],
        description: m[3],
      }));
      const invoice = /Invoice (INV-[\w-]+)/.exec(body)?.[1] ?? null;
      return completion(JSON.stringify({ invoiceNumber: invoice, lines, ...extra(body, requests.length) }));
    },
    stream() {
      throw new Error("not used");
    },
  };
  return { model, requests };
}

const document = (count: number, header = "Invoice INV-2024-001 from Acme\n") =>
  header +
  Array.from(
    { length: count },
    (_, i) => `Line ${i + 1}: part PN-${String(i + 1).padStart(5, "0")} widget\n`,
  ).join("");

describe("strategy choice", () => {
  const engine = new ExtractionEngine({ model: readingModel().model });
  it("uses the estimate thresholds: under 50K, 50K–100K, over 100K", () => {
    expect(engine.strategyFor(0)).toBe("SINGLE_SHOT");
    expect(engine.strategyFor(49_999)).toBe("SINGLE_SHOT");
    expect(engine.strategyFor(50_000)).toBe("CHUNKED");
    expect(engine.strategyFor(100_000)).toBe("CHUNKED");
    expect(engine.strategyFor(100_001)).toBe("ASYNC");
  });
  it("estimates tokens and output", () => {
    const estimate = engine.estimate("hello world ".repeat(100));
    expect(estimate.strategy).toBe("SINGLE_SHOT");
    expect(estimate.inputTokens).toBeGreaterThan(100);
    expect(estimate.estimatedOutputTokens).toBeGreaterThan(0);
  });
});

describe("single-shot extraction", () => {
  it("sends the schema as structured output to built-in and hosted-a models", async () => {
    const { model, requests } = readingModel();
    const engine = new ExtractionEngine({ model, costOf: (_m, usage) => usage.prompt_tokens / 1e6 });
    const result = await engine.run({
      jsonSchema: schema,
      schemaName: "Invoice v1!",
      inputText: document(3),
      model: "hosted-a/gpt-x",
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.model).toBe("hosted-a/gpt-x");
    expect(requests[0]?.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "Invoice_v1", schema, strict: false },
    });
    expect(result.structuredOutput).toMatchObject({
      invoiceNumber: "INV-2024-001",
      lines: [{ partNumber: "PN-00001" }, {}, {}],
    });
    expect(result.metadata).toMatchObject({
      inputTokens: 100,
      outputTokens: 10,
      model: "hosted-a/gpt-x",
      chunksProcessed: 1,
      cost: 0.0001,
    });
    expect(result.resultMetadata.dedup).toEqual({
      applied: false,
      itemsRemoved: 0,
      itemsMerged: 0,
      resequenced: false,
      originalItemCount: 3,
      finalItemCount: 3,
    });
    expect(result.resultMetadata.postValidation.applied).toBe(false);
    // vendor is required and missing: the model's violation is recorded, the run still succeeds
    expect(result.resultMetadata.schemaValidation.violations).toContainEqual(
      expect.objectContaining({ fieldPath: "", keyword: "required", property: "vendor", source: "MODEL" }),
    );
    expect(result.resultMetadata.scoring?.fields.invoiceNumber?.grounding.basis).toBe("exact_match");
  });

  it("sends the schema as prompt text to hosted-b and hosted-d, without response_format", async () => {
    for (const prefix of ["hosted-b", "hosted-d"]) {
      const { model, requests } = readingModel();
      await new ExtractionEngine({ model }).run({
        jsonSchema: schema,
        inputText: document(1),
        model: `${prefix}/m`,
      });
      expect(requests[0]?.response_format).toBeUndefined();
      const system = requests[0]?.messages[0]?.content as string;
      expect(system).toContain(JSON.stringify(schema));
      expect(system).toMatch(/raw JSON only/);
    }
  });

  it("sends images as data URLs and scores nothing for image-only input", async () => {
    const { model, requests } = readingModel();
    const result = await new ExtractionEngine({ model }).run({
      jsonSchema: schema,
      inputImages: [{ data: "aGVsbG8=", mimeType: "image/png" }],
      model: "gw-chat",
    });
    const content = requests[0]?.messages[1]?.content;
    expect(content).toEqual([{ type: "image_url", image_url: { url: "data:image/png;base64,aGVsbG8=" } }]);
    expect(result.resultMetadata.scoring).toBeNull();
  });

  it("fails the run when the model does not answer JSON, keeping the usage so far", async () => {
    const model: ChatModel = {
      complete: async () => completion("Sorry, I cannot help with that."),
      stream: () => {
        throw new Error("unused");
      },
    };
    const run = new ExtractionEngine({ model }).run({ jsonSchema: schema, inputText: "x", model: "m" });
    await expect(run).rejects.toBeInstanceOf(ExtractionRunError);
    await expect(run).rejects.toMatchObject({
      message: "The model did not answer with JSON",
      metadata: { inputTokens: 100, chunksProcessed: 1 },
    });
  });

  it("reads fenced JSON", async () => {
    const model: ChatModel = {
      complete: async () => completion('Here you go:\n```json\n{"vendor": "Acme"}\n```'),
      stream: () => {
        throw new Error("unused");
      },
    };
    const result = await new ExtractionEngine({ model }).run({
      jsonSchema: schema,
      inputText: "Acme",
      model: "m",
    });
    expect(result.structuredOutput).toEqual({ vendor: "Acme" });
  });
});

describe("chunked extraction", () => {
  const settings = {
    chunkTokens: 400,
    overlapTokens: 60,
    singleShotBelowTokens: 500,
    asyncAboveTokens: 100_000,
  };

  it("dedups items repeated across overlapping chunks, removes invented ones, restores required fields, resequences", async () => {
    const { model, requests } = readingModel((_text, call) =>
      call === 2 ? { lines: [{ lineNumber: 999, partNumber: "PN-77777", description: "invented" }] } : {},
    );
    // the invented item is appended to chunk 2's real items by the extra(): merge them
    const engine = new ExtractionEngine({
      model: {
        complete: async (request, options) => {
          const answer = await model.complete(request, options);
          const parsed = JSON.parse(answer.choices[0]?.message.content ?? "{}") as { lines: unknown[] };
          if (requests.length === 2) {
            const real = [...userText(request).matchAll(/^Line (\d+): part (PN-\d+) (\w+)$/gm)].map((m) => ({
              lineNumber: Number(m[1]) % 1000,
              partNumber: m[2],
              description: m[3],
            }));
            parsed.lines = [...real, ...parsed.lines];
          }
          return completion(JSON.stringify(parsed));
        },
        stream: model.stream,
      },
      settings,
    });
    const text = document(120);
    const result = await engine.run({ jsonSchema: schema, inputText: text, model: "gw-chat" });
    const chunks = requests.length;
    expect(chunks).toBeGreaterThan(2);
    expect(result.metadata.chunksProcessed).toBe(chunks);

    // later chunks carry a summary of what was extracted before
    expect(userText(requests[0] as ChatRequest)).not.toContain("Already extracted");
    const second = userText(requests[1] as ChatRequest);
    expect(second).toContain(`This is part 2 of ${chunks}`);
    expect(second).toContain("Already extracted from the earlier parts");
    expect(second).toMatch(
      /"lines": \d+ item\(s\) so far\. Most recent identifiers: .*partNumber="PN-000\d\d"/,
    );

    const output = result.structuredOutput as {
      lines: Array<{ lineNumber: number; partNumber: string }>;
      vendor: unknown;
    };
    expect(output.lines.map((line) => line.partNumber)).toEqual(
      Array.from({ length: 120 }, (_, i) => `PN-${String(i + 1).padStart(5, "0")}`),
    );
    expect(output.lines.map((line) => line.lineNumber)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(output.vendor).toBeNull();

    const { dedup, postValidation, schemaValidation } = result.resultMetadata;
    expect(dedup.applied).toBe(true);
    expect(dedup.itemsRemoved).toBeGreaterThan(0);
    expect(dedup.originalItemCount).toBe(120 + dedup.itemsRemoved + dedup.itemsMerged + 1);
    expect(dedup.finalItemCount).toBe(121);
    expect(dedup.resequenced).toBe(false); // the lines were already 1..120 after the invented one left
    expect(postValidation).toEqual({
      applied: true,
      hallucinatedItemsRemoved: 1,
      requiredFieldsRestored: 1,
      removedItemKeys: ["PN-77777"],
    });
    expect(schemaValidation.violations).toContainEqual(
      expect.objectContaining({ fieldPath: "/vendor", keyword: "type", source: "RESTORED_NULL" }),
    );
  });

  it("resequences positions that repeat across chunks", async () => {
    const { model } = readingModel();
    const numberedPerChunk: ChatModel = {
      async complete(request, options) {
        const answer = await model.complete(request, options);
        const parsed = JSON.parse(answer.choices[0]?.message.content ?? "{}") as {
          lines: Array<{ lineNumber: number }>;
        };
        parsed.lines.forEach((line, index) => {
          line.lineNumber = index + 1; // every part counts from 1
        });
        return completion(JSON.stringify(parsed));
      },
      stream: model.stream,
    };
    const result = await new ExtractionEngine({ model: numberedPerChunk, settings }).run({
      jsonSchema: schema,
      inputText: document(120),
      model: "gw-chat",
    });
    const output = result.structuredOutput as { lines: Array<{ lineNumber: number }> };
    expect(result.resultMetadata.dedup.resequenced).toBe(true);
    expect(output.lines.map((line) => line.lineNumber)).toEqual(
      Array.from({ length: output.lines.length }, (_, i) => i + 1),
    );
  });

  it("runs the size-appropriate pipeline for ASYNC and reports the chunk count", async () => {
    const { model, requests } = readingModel();
    const engine = new ExtractionEngine({ model, settings });
    await engine.run({ jsonSchema: schema, inputText: "Invoice INV-1", model: "m" }, { strategy: "ASYNC" });
    expect(requests).toHaveLength(1);
    const big = await engine.run(
      { jsonSchema: schema, inputText: document(120), model: "m" },
      { strategy: "ASYNC" },
    );
    expect(big.metadata.chunksProcessed).toBeGreaterThan(1);
    expect(big.resultMetadata.dedup.applied).toBe(true);
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    const { model } = readingModel();
    const aborting: ChatModel = {
      async complete(request, options) {
        controller.abort();
        return model.complete(request, options);
      },
      stream: model.stream,
    };
    await expect(
      new ExtractionEngine({ model: aborting, settings }).run(
        { jsonSchema: schema, inputText: document(120), model: "m" },
        { signal: controller.signal },
      ),
    ).rejects.toMatchObject({ metadata: { chunksProcessed: 1 } });
  });
});
