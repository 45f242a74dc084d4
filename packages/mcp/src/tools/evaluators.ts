/**
 * Evaluators (PLATFORM.md §9): the evaluator types and the LLM-judge templates the
 * experiments score with.
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page } from "./common.js";

const templateId = z.string().describe("the evaluator template id (evt_…)");
const scale = z
  .union([
    z.object({ type: z.literal("numeric"), min: z.number(), max: z.number() }),
    z.object({ type: z.literal("boolean") }),
    z.object({
      type: z.literal("categorical"),
      categories: z.array(z.object({ label: z.string(), value: z.number() })),
    }),
  ])
  .describe(
    'how the judge answer maps to [0, 1]: {type:"numeric", min, max} (min < max), {type:"boolean"} (true → 1) or {type:"categorical", categories:[{label, value in [0, 1]}]} (2–20)',
  );
const fields = {
  name: z.string().describe("unique name in the organization, 1–200 characters"),
  description: z.string().nullable().optional().describe("what the judge checks"),
  prompt: z
    .string()
    .describe(
      "the judge prompt (1–20,000 characters) with {{input}}, {{output}}, {{expectedOutput}}, {{metadata}}",
    ),
  model: z.string().describe("the judge model, e.g. gpt-4o-mini or <prefix>/<model>"),
  scale,
};

export const evaluatorTools = [
  defineTool({
    name: "list_evaluator_types",
    group: "Evaluators",
    title: "List evaluator types",
    description:
      "Lists the evaluator types (exact_match, contains, regex, json_schema_valid, numeric_tolerance, levenshtein, field_accuracy, llm_judge) with their params schemas.",
    readOnly: true,
    input: {},
    run: (client) => client.evaluators.types(),
  }),
  defineTool({
    name: "list_evaluator_templates",
    group: "Evaluators",
    title: "List evaluator templates",
    description: "Lists the organization's LLM-judge templates, newest first.",
    readOnly: true,
    input: { ...page },
    run: (client, args) => client.evaluators.templates.list(defined(args)),
  }),
  defineTool({
    name: "get_evaluator_template",
    group: "Evaluators",
    title: "Get an evaluator template",
    description: "Reads one LLM-judge template with its prompt, model, scale and version.",
    readOnly: true,
    input: { templateId },
    run: (client, args) => client.evaluators.templates.get(args.templateId),
  }),
  defineTool({
    name: "create_evaluator_template",
    group: "Evaluators",
    title: "Create an evaluator template",
    description: "Creates an LLM-judge template (version 1) for llm_judge evaluators.",
    readOnly: false,
    input: fields,
    run: (client, args) => client.evaluators.templates.create(defined(args)),
  }),
  defineTool({
    name: "update_evaluator_template",
    group: "Evaluators",
    title: "Update an evaluator template",
    description: "Changes any of name, description, prompt, model, scale; the version increments.",
    readOnly: false,
    input: {
      templateId,
      name: fields.name.optional(),
      description: fields.description,
      prompt: fields.prompt.optional(),
      model: fields.model.optional(),
      scale: scale.optional(),
    },
    run: (client, { templateId: id, ...body }) => client.evaluators.templates.update(id, defined(body)),
  }),
  defineTool({
    name: "delete_evaluator_template",
    group: "Evaluators",
    title: "Delete an evaluator template",
    description: "Deletes an LLM-judge template (Admin); refused while an experiment uses it.",
    readOnly: false,
    destructive: true,
    input: { templateId },
    run: async (client, args) => {
      await client.evaluators.templates.delete(args.templateId);
      return { ok: true };
    },
  }),
  defineTool({
    name: "run_evaluator",
    group: "Evaluators",
    title: "Score cases with an evaluator",
    description:
      "Scores outputs with one evaluator: either inline cases {input?, output, expectedOutput?, metadata?}, or datasetId (+ version) with outputs [{itemId, output}] scored against each item's expected output and recorded as EVAL scores on the items (record: false to only report). Answers each case's score, pass, comment, skip or error, and a summary.",
    readOnly: false,
    input: {
      evaluator: z
        .object({ type: z.string(), params: z.record(z.string(), z.unknown()).optional() })
        .describe("{type, params?}: a built-in type with its params, or llm_judge with params.templateId"),
      cases: z
        .array(
          z.object({
            input: z.unknown().optional(),
            output: z.unknown(),
            expectedOutput: z.unknown().optional(),
            metadata: z.unknown().optional(),
          }),
        )
        .optional()
        .describe("1–1000 cases to score (not recorded); or use datasetId + outputs"),
      datasetId: z.string().optional().describe("the dataset (ds_…) whose items the outputs answer"),
      version: z
        .union([z.string(), z.number()])
        .optional()
        .describe("a version id or number: its frozen items"),
      outputs: z
        .array(z.object({ itemId: z.string(), output: z.unknown() }))
        .optional()
        .describe("1–1000 outputs, one per dataset item (dsi_…)"),
      scoreName: z.string().optional().describe("name of the recorded scores (default the evaluator type)"),
      record: z.boolean().optional().describe("record the scores on the dataset items (default true)"),
    },
    run: (client, args) => client.evaluators.evaluate(defined(args) as never),
  }),
];
