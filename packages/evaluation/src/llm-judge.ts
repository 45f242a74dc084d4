/**
 * The LLM judge (PLATFORM.md §9): a template's prompt compiled with the case, sent to a chat
 * model that must answer JSON matching the template's scale (`score`, `verdict` or `label`, plus
 * `reason`), mapped to [0, 1]. The model is a port; the platform passes its metered gateway.
 */
import {
  type ChatModel,
  type ChatRequest,
  compileTemplate,
  invalidRequest,
  templateVariables,
} from "@groundwork/core";
import { z } from "zod";
import { type EvaluationCase, type EvaluationOutcome, hasExpected, scored, skipped } from "./outcome.js";

export const JUDGE_VARIABLES = ["input", "output", "expectedOutput", "metadata"] as const;
export const MAX_JUDGE_PROMPT_LENGTH = 20_000;
/** Longest comment kept from a judge's reason (a score comment's limit). */
export const MAX_JUDGE_REASON_LENGTH = 2000;

const label = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");

export const judgeScaleSchema = z.discriminatedUnion(
  "type",
  [
    z
      .object({
        type: z.literal("numeric"),
        min: z.number({ error: "is required (a number)" }),
        max: z.number({ error: "is required (a number)" }),
      })
      .refine((scale) => scale.min < scale.max, { message: "must be greater than min", path: ["max"] }),
    z.object({ type: z.literal("boolean") }),
    z.object({
      type: z.literal("categorical"),
      categories: z
        .array(
          z.object({
            label,
            value: z
              .number({ error: "is required (a number between 0 and 1)" })
              .min(0, "must be between 0 and 1")
              .max(1, "must be between 0 and 1"),
          }),
          { error: "must be an array of {label, value}" },
        )
        .min(2, "must have 2 to 20 categories")
        .max(20, "must have 2 to 20 categories")
        .refine((categories) => new Set(categories.map((c) => c.label)).size === categories.length, {
          message: "labels must be unique",
        }),
    }),
  ],
  { error: "type must be one of numeric, boolean, categorical" },
);

export type JudgeScale = z.output<typeof judgeScaleSchema>;

export interface JudgeTemplate {
  prompt: string;
  model: string;
  scale: JudgeScale;
}

export interface JudgeUsage {
  inputTokens: number;
  outputTokens: number;
}

/** A judge outcome, with the model call's token usage when a call was made. */
export type JudgeOutcome = EvaluationOutcome & { usage?: JudgeUsage };

/** Variables a prompt uses that the judge does not provide (only the four of §9 are). */
export function unknownJudgeVariables(prompt: string): string[] {
  return templateVariables(prompt).filter((name) => !(JUDGE_VARIABLES as readonly string[]).includes(name));
}

/** A template needs an expected output when its prompt uses `{{expectedOutput}}`. */
export function judgeNeedsExpectedOutput(prompt: string): boolean {
  return templateVariables(prompt).includes("expectedOutput");
}

/** The case as prompt variables: strings verbatim, other values as JSON, absent ones as "". */
export function judgeVariables(testCase: EvaluationCase): Record<string, unknown> {
  const value = (field: unknown) => (field === undefined || field === null ? "" : field);
  return {
    input: value(testCase.input),
    output: value(testCase.output),
    expectedOutput: value(testCase.expectedOutput),
    metadata: value(testCase.metadata),
  };
}

const ANSWER_FIELD = { numeric: "score", boolean: "verdict", categorical: "label" } as const;

function answerSchema(scale: JudgeScale): Record<string, unknown> {
  const answer =
    scale.type === "numeric"
      ? { type: "number", description: `from ${scale.min} to ${scale.max}` }
      : scale.type === "boolean"
        ? { type: "boolean" }
        : { type: "string", enum: scale.categories.map((category) => category.label) };
  const field = ANSWER_FIELD[scale.type];
  return {
    type: "object",
    properties: { [field]: answer, reason: { type: "string" } },
    required: [field, "reason"],
    additionalProperties: false,
  };
}

function answerInstruction(scale: JudgeScale): string {
  const format =
    scale.type === "numeric"
      ? `{"score": <a number from ${scale.min} to ${scale.max}>, "reason": "<one or two sentences>"}`
      : scale.type === "boolean"
        ? `{"verdict": <true or false>, "reason": "<one or two sentences>"}`
        : `{"label": <one of ${scale.categories.map((c) => JSON.stringify(c.label)).join(", ")}>, "reason": "<one or two sentences>"}`;
  return `You are an evaluator. Answer with one JSON object and nothing else: ${format}`;
}

/** The chat request of one judgement: the format instruction, then the compiled prompt. */
export function judgeRequest(template: JudgeTemplate, testCase: EvaluationCase): ChatRequest {
  return {
    model: template.model,
    temperature: 0,
    messages: [
      { role: "system", content: answerInstruction(template.scale) },
      { role: "user", content: compileTemplate(template.prompt, judgeVariables(testCase)) },
    ],
    response_format: {
      type: "json_schema",
      json_schema: { name: "judgement", schema: answerSchema(template.scale), strict: true },
    },
  };
}

/** The answer's value mapped to [0, 1] by the scale, or why it cannot be. */
export function mapJudgeAnswer(
  scale: JudgeScale,
  answer: unknown,
): { score: number; reason: string | null } | { error: string } {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) {
    return { error: "judge answer is not a JSON object" };
  }
  const fields = answer as Record<string, unknown>;
  const reason =
    typeof fields.reason === "string" && fields.reason.trim() !== ""
      ? fields.reason.trim().slice(0, MAX_JUDGE_REASON_LENGTH)
      : null;
  const field = ANSWER_FIELD[scale.type];
  const value = fields[field];
  switch (scale.type) {
    case "numeric": {
      const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (typeof number !== "number" || !Number.isFinite(number)) {
        return { error: `judge answer has no numeric "score"` };
      }
      const clamped = Math.min(scale.max, Math.max(scale.min, number));
      return { score: Math.min(1, Math.max(0, (clamped - scale.min) / (scale.max - scale.min))), reason };
    }
    case "boolean": {
      const verdict =
        typeof value === "string" ? { true: true, false: false }[value.trim().toLowerCase()] : value;
      if (typeof verdict !== "boolean") return { error: `judge answer has no boolean "verdict"` };
      return { score: verdict ? 1 : 0, reason };
    }
    case "categorical": {
      if (typeof value !== "string") return { error: `judge answer has no "label"` };
      const wanted = value.trim();
      const category =
        scale.categories.find((c) => c.label === wanted) ??
        scale.categories.find((c) => c.label.toLowerCase() === wanted.toLowerCase());
      if (category === undefined)
        return {
          error: `judge answered label ${JSON.stringify(wanted.slice(0, 100))}, not one of the scale's`,
        };
      return { score: category.value, reason };
    }
  }
}

/** The JSON of a model answer, tolerating a Markdown code fence around it. */
export function parseJudgeContent(content: string | null): { ok: true; value: unknown } | { ok: false } {
  if (content === null) return { ok: false };
  const fenced = /^\s*```(?:json)?\s*\n?([\s\S]*?)\n?```\s*$/i.exec(content);
  try {
    return { ok: true, value: JSON.parse(fenced?.[1] ?? content) as unknown };
  } catch {
    return { ok: false };
  }
}

export interface JudgeOptions {
  /** passed = score ≥ passThreshold; default 0.5. */
  passThreshold?: number;
  signal?: AbortSignal;
}

/**
 * Judges one case. A case without an expected output is skipped when the prompt uses one; a
 * failed model call, an unparsable answer or one outside the scale is an `{error}` (no score).
 * Only an abort (the signal) is thrown.
 */
export async function judge(
  model: ChatModel,
  template: JudgeTemplate,
  testCase: EvaluationCase,
  options: JudgeOptions = {},
): Promise<JudgeOutcome> {
  if (judgeNeedsExpectedOutput(template.prompt) && !hasExpected(testCase.expectedOutput)) {
    return skipped("no expected output");
  }
  const unknown = unknownJudgeVariables(template.prompt);
  if (unknown.length > 0) {
    throw invalidRequest(`Unknown template variable(s): ${unknown.join(", ")}`, { param: "prompt" });
  }
  let completion: Awaited<ReturnType<ChatModel["complete"]>>;
  try {
    completion = await model.complete(
      judgeRequest(template, testCase),
      options.signal === undefined ? undefined : { signal: options.signal },
    );
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    return { error: `judge call failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const usage =
    completion.usage === undefined
      ? undefined
      : { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens };
  const withUsage = <T extends EvaluationOutcome>(outcome: T): JudgeOutcome =>
    usage === undefined ? outcome : { ...outcome, usage };
  const parsed = parseJudgeContent(completion.choices[0]?.message.content ?? null);
  if (!parsed.ok) return withUsage({ error: "judge answer is not JSON" });
  const mapped = mapJudgeAnswer(template.scale, parsed.value);
  if ("error" in mapped) return withUsage(mapped);
  return withUsage(scored(mapped.score, options.passThreshold ?? 0.5, mapped.reason));
}
