/**
 * The bodies, queries and limits of the Annotation queues group (PLATFORM.md §12). The routes
 * validate with these schemas and the service validates again (library calls come without a
 * route). Score names and data types are the Scores group's (§10).
 */
import { z } from "zod";
import {
  SCORE_CATEGORY_MAX_LENGTH,
  SCORE_COMMENT_MAX_LENGTH,
  SCORE_DATA_TYPES,
  scoreName,
} from "../scores/score-service.js";
import { SCORE_SUBJECT_TYPES } from "../scores/score-subjects.js";

/** Score configurations per queue. */
export const QUEUE_MAX_SCORE_CONFIGS = 20;
/** Categories of a CATEGORICAL score configuration. */
export const QUEUE_MIN_CATEGORIES = 2;
export const QUEUE_MAX_CATEGORIES = 50;
/** Subjects per `POST …/items`. */
export const QUEUE_MAX_ITEMS_PER_CALL = 500;
export const QUEUE_NAME_MAX_LENGTH = 200;
export const QUEUE_DESCRIPTION_MAX_LENGTH = 4000;

const name = z
  .string({ error: "name must be a string" })
  .min(1, "name must not be empty")
  .max(QUEUE_NAME_MAX_LENGTH, `name holds at most ${QUEUE_NAME_MAX_LENGTH} characters`);
const description = z
  .string({ error: "description must be a string or null" })
  .max(QUEUE_DESCRIPTION_MAX_LENGTH, `description holds at most ${QUEUE_DESCRIPTION_MAX_LENGTH} characters`)
  .nullable();
const dataType = z.enum(SCORE_DATA_TYPES, {
  error: `dataType must be one of ${SCORE_DATA_TYPES.join(", ")}`,
});
const subjectType = z.enum(SCORE_SUBJECT_TYPES, {
  error: `subjectType must be one of ${SCORE_SUBJECT_TYPES.join(", ")}`,
});
const subjectId = z.string({ error: "subjectId must be a string" }).min(1, "subjectId must not be empty");
const bound = (field: string) =>
  z
    .number({ error: `${field} must be a finite number or null` })
    .nullable()
    .optional();
const category = z
  .string({ error: "each category must be a string" })
  .min(1, "a category must not be empty")
  .max(SCORE_CATEGORY_MAX_LENGTH, `a category holds at most ${SCORE_CATEGORY_MAX_LENGTH} characters`);

/**
 * One score a reviewer gives per item. `min`/`max` (optional, `min < max`) belong to NUMERIC,
 * `categories` (2–50 distinct strings) to CATEGORICAL; BOOLEAN has neither. A field of another
 * type is refused rather than ignored; `null` counts as absent. Stored without absent fields.
 */
export const queueScoreConfig = z
  .object({
    name: scoreName,
    dataType,
    min: bound("min"),
    max: bound("max"),
    categories: z.array(category, { error: "categories must be an array of strings" }).nullable().optional(),
  })
  .transform((config, ctx) => {
    const { min, max, categories } = config;
    const refuse = (field: string, message: string) => {
      ctx.addIssue({ code: "custom", path: [field], message });
      return z.NEVER;
    };
    switch (config.dataType) {
      case "NUMERIC":
        if (categories != null) return refuse("categories", "categories belong to CATEGORICAL score configs");
        if (min != null && max != null && !(min < max)) return refuse("max", "max must be greater than min");
        return {
          name: config.name,
          dataType: config.dataType,
          ...(min == null ? {} : { min }),
          ...(max == null ? {} : { max }),
        };
      case "CATEGORICAL": {
        if (min != null) return refuse("min", "min belongs to NUMERIC score configs");
        if (max != null) return refuse("max", "max belongs to NUMERIC score configs");
        if (categories == null) return refuse("categories", "CATEGORICAL score configs need categories");
        if (categories.length < QUEUE_MIN_CATEGORIES || categories.length > QUEUE_MAX_CATEGORIES) {
          return refuse(
            "categories",
            `categories holds ${QUEUE_MIN_CATEGORIES}-${QUEUE_MAX_CATEGORIES} strings (got ${categories.length})`,
          );
        }
        const twice = categories.findIndex((c, i) => categories.indexOf(c) !== i);
        if (twice >= 0) {
          ctx.addIssue({
            code: "custom",
            path: ["categories", twice],
            message: `category "${categories[twice]}" is listed twice`,
          });
          return z.NEVER;
        }
        return { name: config.name, dataType: config.dataType, categories };
      }
      case "BOOLEAN":
        if (min != null) return refuse("min", "min belongs to NUMERIC score configs");
        if (max != null) return refuse("max", "max belongs to NUMERIC score configs");
        if (categories != null) return refuse("categories", "categories belong to CATEGORICAL score configs");
        return { name: config.name, dataType: config.dataType };
    }
  });

const scoreConfigs = z
  .array(queueScoreConfig, { error: "scoreConfigs must be an array of score configurations" })
  .min(1, "scoreConfigs must hold at least one score configuration")
  .max(QUEUE_MAX_SCORE_CONFIGS, `scoreConfigs holds at most ${QUEUE_MAX_SCORE_CONFIGS} score configurations`)
  .superRefine((configs, ctx) => {
    const seen = new Set<string>();
    configs.forEach((config, index) => {
      if (seen.has(config.name)) {
        ctx.addIssue({
          code: "custom",
          path: [index, "name"],
          message: `score config name "${config.name}" is used twice`,
        });
      }
      seen.add(config.name);
    });
  });

export const queueCreateBody = z.object({ name, description: description.optional(), scoreConfigs });
export type QueueCreateInput = z.input<typeof queueCreateBody>;

/** Any subset; an empty body changes nothing. */
export const queueUpdateBody = z.object({
  name: name.optional(),
  description: description.optional(),
  scoreConfigs: scoreConfigs.optional(),
});
export type QueueUpdateInput = z.input<typeof queueUpdateBody>;

export const queueListQuery = z.object({
  status: z
    .enum(["ACTIVE", "ARCHIVED", "all"], { error: "status must be ACTIVE, ARCHIVED or all" })
    .optional(),
});

const itemStatus = z.enum(["PENDING", "COMPLETED"], { error: "status must be PENDING or COMPLETED" });

export const queueItemsAddBody = z.object({
  items: z
    .array(z.object({ subjectType, subjectId }), { error: "items must be an array of subjects" })
    .min(1, "items must hold at least one subject")
    .max(QUEUE_MAX_ITEMS_PER_CALL, `items holds at most ${QUEUE_MAX_ITEMS_PER_CALL} subjects per call`),
});
export type QueueItemsAddInput = z.input<typeof queueItemsAddBody>;

export const queueItemsQuery = z.object({ status: itemStatus.optional() });

/** `GET /v1/annotation-queue-items`: both subject fields are required. */
export const queueItemsBySubjectQuery = z.object({
  subjectType,
  subjectId,
  status: itemStatus.optional(),
});
export type QueueItemsBySubjectQuery = z.input<typeof queueItemsBySubjectQuery>;

/**
 * `PATCH …/items/{itemId}`. The values are checked against the queue's score configs by the
 * service (which knows them); here only their shape. An empty body takes or renews the lock.
 */
export const queueItemUpdateBody = z.object({
  status: itemStatus.optional(),
  scores: z
    .array(
      z.object({
        name: scoreName,
        value: z.unknown(),
        comment: z
          .string({ error: "comment must be a string or null" })
          .max(SCORE_COMMENT_MAX_LENGTH, `comment is at most ${SCORE_COMMENT_MAX_LENGTH} characters`)
          .nullable()
          .optional(),
      }),
      { error: "scores must be an array of {name, value, comment?}" },
    )
    .max(QUEUE_MAX_SCORE_CONFIGS, `scores holds at most ${QUEUE_MAX_SCORE_CONFIGS} scores (one per config)`)
    .optional(),
});
export type QueueItemUpdateInput = z.input<typeof queueItemUpdateBody>;
