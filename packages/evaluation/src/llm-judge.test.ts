import type { ChatCompletion, ChatModel, ChatRequest } from "@groundwork/core";
import { describe, expect, it } from "vitest";
import { type JudgeTemplate, judge, judgeScaleSchema, mapJudgeAnswer } from "./llm-judge.js";

function modelAnswering(...contents: Array<string | Error>): ChatModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    async complete(request) {
      requests.push(request);
      const next = contents.shift() ?? "{}";
      if (next instanceof Error) throw next;
      return {
        id: "c",
        object: "chat.completion",
        created: 0,
        model: request.model,
        choices: [{ index: 0, message: { role: "assistant", content: next }, finish_reason: "stop" }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      } satisfies ChatCompletion;
    },
    stream() {
      throw new Error("not used");
    },
  };
}

const numeric: JudgeTemplate = {
  prompt: "Question: {{input}}\nAnswer: {{output}}\nReference: {{expectedOutput}}\nMeta: {{metadata}}",
  model: "gpt-4o-mini",
  scale: { type: "numeric", min: 1, max: 5 },
};

describe("judge", () => {
  it("compiles the prompt with the case (JSON for non-strings) and asks for the scale's JSON", async () => {
    const model = modelAnswering('{"score": 4, "reason": "close"}');
    const outcome = await judge(model, numeric, {
      input: { q: "capital?" },
      output: "Paris",
      expectedOutput: "Paris",
      metadata: { lang: "en" },
    });
    expect(outcome).toEqual({
      score: 0.75,
      passed: true,
      comment: "close",
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    const request = model.requests[0];
    expect(request?.model).toBe("gpt-4o-mini");
    expect(request?.messages[1]?.content).toBe(
      'Question: {"q":"capital?"}\nAnswer: Paris\nReference: Paris\nMeta: {"lang":"en"}',
    );
    expect(request?.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { schema: { required: ["score", "reason"] } },
    });
  });

  it("skips a case without an expected output only when the prompt uses one", async () => {
    const model = modelAnswering('{"verdict": true, "reason": "ok"}');
    expect(await judge(model, numeric, { output: "x" })).toEqual({
      skipped: true,
      reason: "no expected output",
    });
    const boolean: JudgeTemplate = {
      prompt: "Is {{output}} polite? {{input}}",
      model: "m",
      scale: { type: "boolean" },
    };
    expect(await judge(model, boolean, { output: "thanks" })).toMatchObject({
      score: 1,
      passed: true,
      comment: "ok",
    });
    expect(model.requests[0]?.messages[1]?.content).toBe("Is thanks polite? ");
  });

  it("clamps numeric answers, maps labels and verdicts, tolerates a code fence", async () => {
    const model = modelAnswering('```json\n{"score": 9, "reason": ""}\n```', '{"score": "2"}');
    expect(await judge(model, numeric, { output: "a", expectedOutput: "b" })).toMatchObject({
      score: 1,
      comment: null,
    });
    expect(await judge(model, numeric, { output: "a", expectedOutput: "b" })).toMatchObject({ score: 0.25 });
    const categorical: JudgeTemplate = {
      prompt: "{{output}}",
      model: "m",
      scale: {
        type: "categorical",
        categories: [
          { label: "good", value: 1 },
          { label: "meh", value: 0.4 },
        ],
      },
    };
    const labels = modelAnswering('{"label": "Meh", "reason": "so so"}', '{"label": "great"}');
    expect(await judge(labels, categorical, { output: "x" })).toMatchObject({ score: 0.4, passed: false });
    expect(await judge(labels, categorical, { output: "x" })).toMatchObject({
      error: expect.stringContaining("great"),
    });
  });

  it("records an error, not a score, for unparsable or out-of-scale answers and failed calls", async () => {
    const model = modelAnswering("not json", '{"verdict": "maybe"}', "[1]", new Error("upstream down"));
    const boolean: JudgeTemplate = { prompt: "{{output}}", model: "m", scale: { type: "boolean" } };
    expect(await judge(model, boolean, { output: "x" })).toMatchObject({ error: "judge answer is not JSON" });
    expect(await judge(model, boolean, { output: "x" })).toMatchObject({
      error: expect.stringContaining("verdict"),
    });
    expect(await judge(model, boolean, { output: "x" })).toMatchObject({
      error: "judge answer is not a JSON object",
    });
    expect(await judge(model, boolean, { output: "x" })).toEqual({
      error: "judge call failed: upstream down",
    });
  });

  it("refuses a prompt with variables the judge does not provide", async () => {
    await expect(
      judge(modelAnswering(), { ...numeric, prompt: "{{foo}}" }, { output: "x" }),
    ).rejects.toMatchObject({
      status: 400,
      param: "prompt",
    });
  });
});

describe("scales", () => {
  it("validates numeric min < max and 2–20 unique categories with values in [0, 1]", () => {
    expect(judgeScaleSchema.safeParse({ type: "numeric", min: 1, max: 1 }).success).toBe(false);
    expect(
      judgeScaleSchema.safeParse({ type: "categorical", categories: [{ label: "a", value: 1 }] }).success,
    ).toBe(false);
    expect(
      judgeScaleSchema.safeParse({
        type: "categorical",
        categories: [
          { label: "a", value: 1 },
          { label: "b", value: 1.5 },
        ],
      }).success,
    ).toBe(false);
    expect(judgeScaleSchema.safeParse({ type: "other" }).success).toBe(false);
    expect(judgeScaleSchema.safeParse({ type: "boolean" }).success).toBe(true);
  });

  it("maps a boolean verdict given as text", () => {
    expect(mapJudgeAnswer({ type: "boolean" }, { verdict: "FALSE", reason: "no" })).toEqual({
      score: 0,
      reason: "no",
    });
  });
});
