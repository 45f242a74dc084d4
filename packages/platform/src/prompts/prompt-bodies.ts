/**
 * Bodies and queries of the prompt endpoints (PLATFORM.md §7): the HTTP bodies and the
 * library inputs alike. A version's `prompt` is checked against the prompt's type in the
 * service (its shape depends on the type), so here it is any value.
 */
import { z } from "zod";

export const PROMPT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
export const PROMPT_LABEL_PATTERN = /^[a-z0-9-]+$/;
export const PROMPT_TYPES = ["text", "chat"] as const;
export const PROMPT_ROLES = ["system", "developer", "user", "assistant"] as const;
export const MAX_PROMPT_TEXT = 100_000;
export const MAX_PROMPT_MESSAGES = 100;
export const MAX_PROMPT_CONFIG_BYTES = 64 * 1024;

const promptName = z
  .string({ error: "name is required" })
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters")
  .regex(PROMPT_NAME_PATTERN, "must start with a letter or digit and use letters, digits, '.', '_', '/', '-'")
  .refine((name) => !name.startsWith("prm_"), { message: "names starting with prm_ are reserved for ids" });

const description = z.string().max(4000, "must be at most 4000 characters").nullable();

const tags = z
  .array(z.string().min(1, "must not be empty").max(64, "must be at most 64 characters"))
  .max(20, "at most 20 tags")
  .refine((list) => new Set(list).size === list.length, { message: "tags must be unique" });

export const promptLabelName = z
  .string({ error: "name is required" })
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters")
  .regex(PROMPT_LABEL_PATTERN, "label names use lowercase letters, digits and hyphens only");

const labels = z.array(promptLabelName).max(64, "at most 64 labels");

/** A version's config: the keys test and experiments read are checked, the others kept. */
export const promptConfig = z
  .looseObject({
    model: z.string().min(1, "must not be empty").optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).optional(),
    topP: z.number().min(0).max(1).optional(),
  })
  .refine((config) => Buffer.byteLength(JSON.stringify(config)) <= MAX_PROMPT_CONFIG_BYTES, {
    message: `config must be at most ${MAX_PROMPT_CONFIG_BYTES} bytes serialized`,
  });
export type PromptConfig = z.output<typeof promptConfig>;

export const promptText = z
  .string({ error: "a text prompt is a string" })
  .min(1, "must not be empty")
  .max(MAX_PROMPT_TEXT, `must be at most ${MAX_PROMPT_TEXT} characters`);

export const promptMessages = z
  .array(
    z.object({
      role: z.enum(PROMPT_ROLES, { error: `role must be one of ${PROMPT_ROLES.join(", ")}` }),
      content: z
        .string({ error: "content is a string" })
        .max(MAX_PROMPT_TEXT, `must be at most ${MAX_PROMPT_TEXT} characters`),
    }),
    { error: "a chat prompt is an array of {role, content} messages" },
  )
  .min(1, "a chat prompt has at least one message")
  .max(MAX_PROMPT_MESSAGES, `a chat prompt has at most ${MAX_PROMPT_MESSAGES} messages`);

const promptValue = z.unknown();

export const promptCreateBody = z
  .object({
    name: promptName,
    type: z.enum(PROMPT_TYPES, { error: "type must be text or chat" }),
    description: description.optional(),
    tags: tags.optional(),
    prompt: promptValue.optional(),
    config: promptConfig.optional(),
    labels: labels.optional(),
  })
  .superRefine((body, context) => {
    if (body.prompt !== undefined) return;
    for (const field of ["config", "labels"] as const) {
      if (body[field] !== undefined) {
        context.addIssue({ code: "custom", path: [field], message: `${field} needs a prompt (version 1)` });
      }
    }
  });
export type PromptCreateInput = z.input<typeof promptCreateBody>;

export const promptUpdateBody = z
  .object({ name: promptName.optional(), description: description.optional(), tags: tags.optional() })
  .refine((body) => body.name !== undefined || body.description !== undefined || body.tags !== undefined, {
    message: "give at least one of name, description, tags",
  });
export type PromptUpdateInput = z.input<typeof promptUpdateBody>;

export const promptListQuery = z.object({
  name: z.string().optional(),
  tag: z.string().optional(),
  type: z.enum(PROMPT_TYPES, { error: "type must be text or chat" }).optional(),
  label: z.string().optional(),
});
export type PromptListQuery = z.input<typeof promptListQuery>;

export const promptVersionBody = z.object({
  prompt: promptValue.refine((value) => value !== undefined, { message: "prompt is required" }),
  config: promptConfig.optional(),
  changeDescription: z.string().max(10_000, "must be at most 10000 characters").nullable().optional(),
  labels: labels.optional(),
});
export type PromptVersionInput = z.input<typeof promptVersionBody>;

const versionNumber = z.number().int("must be an integer").min(1, "must be at least 1");
const labelRef = z.string().min(1, "must not be empty");

/** `?label=&version=` of resolve: the version is a number in the query string. */
export const promptResolveQuery = z.object({
  label: labelRef.optional(),
  version: z
    .string()
    .regex(/^\d{1,9}$/, "must be a version number")
    .transform(Number)
    .pipe(versionNumber)
    .optional(),
});
export type PromptResolveQuery = z.input<typeof promptResolveQuery>;

/** Which version a compile or test uses (as resolve). */
export interface PromptSelection {
  label?: string | undefined;
  version?: number | undefined;
}

const variables = z.record(z.string(), z.unknown(), { error: "variables is an object" });

export const promptCompileBody = z.object({
  variables: variables.optional(),
  label: labelRef.optional(),
  version: versionNumber.optional(),
});
export type PromptCompileInput = z.input<typeof promptCompileBody>;

export const promptTestBody = promptCompileBody.extend({
  model: z.string().min(1, "must not be empty").optional(),
  config: promptConfig.optional(),
});
export type PromptTestInput = z.input<typeof promptTestBody>;

export const promptLabelCreateBody = z.object({
  name: promptLabelName,
  promptVersionId: z.string({ error: "promptVersionId is required" }).min(1, "must not be empty"),
});
export type PromptLabelCreateInput = z.input<typeof promptLabelCreateBody>;

export const promptLabelUpdateBody = z.object({
  promptVersionId: z.string({ error: "promptVersionId is required" }).min(1, "must not be empty"),
});
export type PromptLabelUpdateInput = z.input<typeof promptLabelUpdateBody>;
