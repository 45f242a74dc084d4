/**
 * Bodies of the evaluator-template endpoints (PLATFORM.md §9) and the library input alike:
 * `POST /v1/evaluators/templates` and `PATCH …/{templateId}` (any of the create fields).
 */
import { judgeScaleSchema, MAX_JUDGE_PROMPT_LENGTH } from "@groundwork/evaluation";
import { z } from "zod";

const name = z
  .string({ error: "is required (a string)" })
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");
const description = z.string().max(10_000, "must be at most 10000 characters").nullable();
const prompt = z
  .string({ error: "is required (a string)" })
  .min(1, "must not be empty")
  .max(MAX_JUDGE_PROMPT_LENGTH, `must be at most ${MAX_JUDGE_PROMPT_LENGTH} characters`);
const model = z
  .string({ error: "is required (a model string)" })
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");
const scale = judgeScaleSchema;

export const evaluatorTemplateCreateBody = z.object({
  name,
  description: description.optional(),
  prompt,
  model,
  scale,
});
export type EvaluatorTemplateCreateInput = z.input<typeof evaluatorTemplateCreateBody>;

export const evaluatorTemplateUpdateBody = z
  .object({
    name: name.optional(),
    description: description.optional(),
    prompt: prompt.optional(),
    model: model.optional(),
    scale: scale.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: "at least one of name, description, prompt, model, scale is required",
  });
export type EvaluatorTemplateUpdateInput = z.input<typeof evaluatorTemplateUpdateBody>;

/** One evaluator as the library entry point (and later experiments) takes it. */
export const evaluatorSpec = z.object({
  type: z.string({ error: "is required (an evaluator type)" }),
  params: z.unknown().optional(),
});
export type EvaluatorSpec = z.input<typeof evaluatorSpec>;
