/**
 * Scores (PLATFORM.md §10): record a human (or API) score on a subject of the organization and
 * list scores with filters. `EVAL` scores come only from evaluators.
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page } from "./common.js";

const subjectType = z
  .enum(["trace", "response", "extraction", "run_result", "conversation", "dataset_item"])
  .describe(
    "what is scored: response (resp_…), extraction, conversation (conv_…), dataset_item, trace, run_result",
  );
const dataType = z
  .enum(["NUMERIC", "CATEGORICAL", "BOOLEAN"])
  .describe("NUMERIC (finite number), CATEGORICAL (string 1-100) or BOOLEAN");
const instant = (what: string) =>
  z.string().describe(`${what}: an ISO 8601 instant with an offset or Z, e.g. 2025-01-31T09:15:00.000Z`);

export const scoreTools = [
  defineTool({
    name: "record_human_score",
    group: "Scores",
    title: "Record a score",
    description:
      "Records a named score on a response, extraction, conversation, dataset item, trace or run result of the organization; value must match dataType (Member).",
    readOnly: false,
    input: {
      subjectType,
      subjectId: z
        .string()
        .min(1)
        .describe("the id of the scored subject; it must exist in the organization"),
      name: z.string().describe("the score's name, 1-100 chars of letters, digits and _ . : -"),
      dataType,
      value: z
        .union([z.number(), z.string(), z.boolean()])
        .describe("a finite number (NUMERIC), a category string (CATEGORICAL) or true/false (BOOLEAN)"),
      comment: z.string().max(2000).nullable().optional().describe("an optional comment, up to 2000 chars"),
      source: z.enum(["HUMAN", "API"]).optional().describe("HUMAN (default) or API"),
    },
    run: (client, args) => client.scores.record(defined(args)),
  }),
  defineTool({
    name: "list_human_scores",
    group: "Scores",
    title: "List scores",
    description:
      "Lists the organization's scores, newest first, filtered by subject, name, source, data type and creation time.",
    readOnly: true,
    input: {
      subjectType: subjectType.optional(),
      subjectId: z.string().min(1).optional().describe("only scores of this subject"),
      name: z.string().min(1).optional().describe("only scores with this name"),
      source: z.enum(["HUMAN", "API", "EVAL"]).optional().describe("only scores from this source"),
      dataType: dataType.optional(),
      from: instant("created at or after").optional(),
      to: instant("created before").optional(),
      ...page,
    },
    run: (client, args) => client.scores.list(defined(args)),
  }),
];
