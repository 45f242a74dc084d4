/**
 * Annotation queues (PLATFORM.md §12): the 11 `svc_` tools over /v1/annotation-queues and
 * /v1/annotation-queue-items — queues with score configs, items on subjects, claims that lock
 * an item to the calling key, and scored updates that complete or reopen items.
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page } from "./common.js";

const queueId = z.string().min(1).describe("the annotation queue id (aq_…)");
const itemId = z.string().min(1).describe("the queue item id (aqi_…)");
const subjectType = z
  .enum(["trace", "response", "extraction", "run_result", "conversation", "dataset_item"])
  .describe("what the item points at, as scores: response (resp_…), conversation (conv_…), extraction, …");
const subjectId = z.string().min(1).describe("the subject's id; it must exist in the organization");
const itemStatus = z.enum(["PENDING", "COMPLETED"]);
const scoreConfig = z.object({
  name: z
    .string()
    .describe("the score's name, 1-100 chars of letters, digits and _ . : -; unique in the queue"),
  dataType: z.enum(["NUMERIC", "CATEGORICAL", "BOOLEAN"]).describe("NUMERIC, CATEGORICAL or BOOLEAN"),
  min: z.number().nullable().optional().describe("NUMERIC only: the lowest allowed value"),
  max: z
    .number()
    .nullable()
    .optional()
    .describe("NUMERIC only: the highest allowed value (greater than min)"),
  categories: z
    .array(z.string())
    .nullable()
    .optional()
    .describe("CATEGORICAL only (required): 2-50 distinct category strings"),
});
const queueFields = {
  name: z.string().min(1).max(200).describe("the queue name, 1-200 chars, unique in the organization"),
  description: z.string().max(4000).nullable().describe("a description of up to 4000 chars, or null"),
  scoreConfigs: z.array(scoreConfig).min(1).max(20).describe("1-20 score configurations reviewers fill in"),
};

export const annotationQueueTools = [
  defineTool({
    name: "list_annotation_queues",
    group: "Annotation Queues",
    title: "List annotation queues",
    description:
      "Lists the organization's annotation queues, newest first, with their pending and completed counts.",
    readOnly: true,
    input: {
      status: z.enum(["ACTIVE", "ARCHIVED", "all"]).optional().describe("ACTIVE (default), ARCHIVED or all"),
      ...page,
    },
    run: (client, args) => client.annotationQueues.list(defined(args)),
  }),
  defineTool({
    name: "get_annotation_queue",
    group: "Annotation Queues",
    title: "Get an annotation queue",
    description: "Reads one annotation queue: score configs, status and item counts.",
    readOnly: true,
    input: { queueId },
    run: (client, args) => client.annotationQueues.get(args.queueId),
  }),
  defineTool({
    name: "create_annotation_queue",
    group: "Annotation Queues",
    title: "Create an annotation queue",
    description: "Creates an annotation queue with the scores reviewers give each item (Admin).",
    readOnly: false,
    input: { ...queueFields, description: queueFields.description.optional() },
    run: (client, args) => client.annotationQueues.create(defined(args)),
  }),
  defineTool({
    name: "update_annotation_queue",
    group: "Annotation Queues",
    title: "Update an annotation queue",
    description: "Changes the name, description or score configs of an active annotation queue (Admin).",
    readOnly: false,
    input: {
      queueId,
      name: queueFields.name.optional(),
      description: queueFields.description.optional(),
      scoreConfigs: queueFields.scoreConfigs.optional(),
    },
    run: (client, { queueId: id, ...body }) => client.annotationQueues.update(id, defined(body)),
  }),
  defineTool({
    name: "archive_annotation_queue",
    group: "Annotation Queues",
    title: "Archive an annotation queue",
    description:
      "Archives an annotation queue (Admin): its locks are released and it can be read but no longer changed. Archiving twice changes nothing.",
    readOnly: false,
    input: { queueId },
    run: (client, args) => client.annotationQueues.archive(args.queueId),
  }),
  defineTool({
    name: "find_queue_items_by_subject",
    group: "Annotation Queues",
    title: "Find queue items by subject",
    description: "Lists the queue items on one subject across all annotation queues, newest first.",
    readOnly: true,
    input: {
      subjectType,
      subjectId,
      status: itemStatus.optional().describe("only items in this status"),
      ...page,
    },
    run: (client, args) => client.annotationQueues.findItems(defined(args)),
  }),
  defineTool({
    name: "list_queue_items",
    group: "Annotation Queues",
    title: "List queue items",
    description: "Lists the items of an annotation queue, oldest first, optionally by status.",
    readOnly: true,
    input: { queueId, status: itemStatus.optional().describe("PENDING or COMPLETED"), ...page },
    run: (client, { queueId: id, ...query }) => client.annotationQueues.items.list(id, defined(query)),
  }),
  defineTool({
    name: "add_queue_items",
    group: "Annotation Queues",
    title: "Add queue items",
    description:
      "Adds 1-500 subjects to an annotation queue as PENDING items; subjects already PENDING in the queue are skipped and counted.",
    readOnly: false,
    input: {
      queueId,
      items: z
        .array(z.object({ subjectType, subjectId }))
        .min(1)
        .max(500)
        .describe("the subjects to review, in order"),
    },
    run: (client, args) => client.annotationQueues.items.add(args.queueId, args.items),
  }),
  defineTool({
    name: "claim_next_queue_item",
    group: "Annotation Queues",
    title: "Claim the next queue item",
    description:
      "Locks the next item to review to the calling key (for 300 s by default): the caller's own unexpired lock, renewed, or else the oldest PENDING item nobody holds. Answers {ok:true} without an item when nothing is claimable.",
    readOnly: false,
    input: { queueId },
    run: async (client, args) => (await client.annotationQueues.items.claim(args.queueId)) ?? { ok: true },
  }),
  defineTool({
    name: "get_queue_item",
    group: "Annotation Queues",
    title: "Get a queue item",
    description: "Reads one queue item: subject, status, lock, completion and the ids of its scores.",
    readOnly: true,
    input: { queueId, itemId },
    run: (client, args) => client.annotationQueues.items.get(args.queueId, args.itemId),
  }),
  defineTool({
    name: "update_queue_item",
    group: "Annotation Queues",
    title: "Score, complete or reopen a queue item",
    description:
      "Records scores (one per score config name, values within the config) on a queue item and/or sets its status: COMPLETED needs every config scored in this call or since the last reopen; PENDING reopens it (lock and completion cleared). Takes or renews the caller's lock; an item another key holds is refused (item_locked).",
    readOnly: false,
    input: {
      queueId,
      itemId,
      status: itemStatus.optional().describe("COMPLETED to finish the item, PENDING to reopen or release it"),
      scores: z
        .array(
          z.object({
            name: z.string().describe("a score config name of the queue"),
            value: z
              .union([z.number(), z.string(), z.boolean()])
              .describe(
                "a number within min/max (NUMERIC), one of the categories (CATEGORICAL) or true/false",
              ),
            comment: z
              .string()
              .max(2000)
              .nullable()
              .optional()
              .describe("an optional comment, up to 2000 chars"),
          }),
        )
        .max(20)
        .optional()
        .describe("the scores to record, each as a HUMAN score of the caller"),
    },
    run: (client, { queueId: id, itemId: item, ...body }) =>
      client.annotationQueues.items.update(id, item, defined(body)),
  }),
];
