/**
 * Prompts (PLATFORM.md §7): text and chat prompts, immutable versions, labels, resolve,
 * compile and a test call through the gateway. `promptId` takes a prompt id or its name.
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page } from "./common.js";

const group = "Prompts" as const;
const promptId = z.string().min(1).describe("the prompt: its id (prm_…) or its name");
const versionId = z
  .union([z.string().min(1), z.number().int().min(1)])
  .describe("the version: its id (pmv_…) or its number");
const labelName = z.string().min(1).max(64).describe("the label name (lowercase letters, digits, hyphens)");
const message = z.object({
  role: z.enum(["system", "developer", "user", "assistant"]),
  content: z.string(),
});
const promptContent = z
  .union([z.string(), z.array(message)])
  .describe(
    "the template: a string for a text prompt, or [{role, content}] messages for a chat prompt; {{name}} placeholders",
  );
const config = z
  .record(z.string(), z.unknown())
  .describe(
    "model settings: model (string), temperature (0-2), maxTokens (integer >= 1), topP (0-1); other keys are kept",
  );
const labels = z
  .array(z.string())
  .describe("labels to point at this version (not 'latest'), e.g. ['production']");
const variables = z
  .record(z.string(), z.unknown())
  .describe("values for the template's variables; strings verbatim, other values as text or JSON");
const selection = {
  label: z.string().optional().describe("the label to use (default production if it exists, else latest)"),
  version: z.number().int().min(1).optional().describe("the version number to use (excludes label)"),
};

export const promptTools = [
  defineTool({
    name: "list_prompts",
    group,
    title: "List prompts",
    description:
      "Lists the organization's prompts, newest first, filtered by name substring, tag, type or label.",
    readOnly: true,
    input: {
      name: z.string().optional().describe("only prompts whose name contains this (case-insensitive)"),
      tag: z.string().optional().describe("only prompts with this tag"),
      type: z.enum(["text", "chat"]).optional().describe("only text or only chat prompts"),
      label: z.string().optional().describe("only prompts with a label of this name"),
      ...page,
    },
    run: (client, args) => client.prompts.list(defined(args)),
  }),
  defineTool({
    name: "get_prompt",
    group,
    title: "Get a prompt",
    description: "Reads one prompt: name, type, description, tags and its latest version.",
    readOnly: true,
    input: { promptId },
    run: (client, args) => client.prompts.get(args.promptId),
  }),
  defineTool({
    name: "create_prompt",
    group,
    title: "Create a prompt",
    description:
      "Creates a text or chat prompt; with a prompt template, version 1 is created too and the given labels point at it.",
    readOnly: false,
    input: {
      name: z
        .string()
        .min(1)
        .max(200)
        .describe("unique name: letters, digits, '.', '_', '/', '-'; not starting with prm_"),
      type: z.enum(["text", "chat"]).describe("text (one template) or chat (messages); cannot change later"),
      description: z.string().max(4000).nullable().optional().describe("what the prompt is for"),
      tags: z.array(z.string()).optional().describe("up to 20 unique tags"),
      prompt: promptContent.optional(),
      config: config.optional(),
      labels: labels.optional(),
    },
    run: (client, args) => client.prompts.create(defined(args)),
  }),
  defineTool({
    name: "update_prompt",
    group,
    title: "Update a prompt",
    description: "Renames a prompt or changes its description or tags (versions are immutable).",
    readOnly: false,
    input: {
      promptId,
      name: z.string().min(1).max(200).optional().describe("the new unique name"),
      description: z.string().max(4000).nullable().optional().describe("the new description, or null"),
      tags: z.array(z.string()).optional().describe("the new tags (replace the old ones)"),
    },
    run: (client, { promptId: id, ...body }) => client.prompts.update(id, defined(body)),
  }),
  defineTool({
    name: "delete_prompt",
    group,
    title: "Delete a prompt",
    description:
      "Deletes a prompt with its versions and labels (Admin); refused while an experiment variant uses it.",
    readOnly: false,
    destructive: true,
    input: { promptId },
    run: async (client, args) => {
      await client.prompts.delete(args.promptId);
      return { ok: true };
    },
  }),
  defineTool({
    name: "resolve_prompt",
    group,
    title: "Resolve a prompt",
    description:
      "Returns the template, config and variables of the version a label (default production, else latest) or a version number selects.",
    readOnly: true,
    input: { promptId, ...selection },
    run: (client, { promptId: id, ...query }) => client.prompts.resolve(id, defined(query)),
  }),
  defineTool({
    name: "compile_prompt",
    group,
    title: "Compile a prompt",
    description:
      "Fills a prompt version's {{placeholders}} with the given variables; every missing variable is named in the error.",
    readOnly: true,
    input: { promptId, variables: variables.optional(), ...selection },
    run: (client, { promptId: id, ...body }) => client.prompts.compile(id, defined(body)),
  }),
  defineTool({
    name: "test_prompt",
    group,
    title: "Test a prompt",
    description:
      "Compiles a prompt version and sends it to a model through the gateway (metered like a chat call); answers the output, usage and latency.",
    readOnly: false,
    input: {
      promptId,
      variables: variables.optional(),
      ...selection,
      model: z.string().optional().describe("the model to call; default the version's config.model"),
      config: config.optional().describe("settings merged over the version's config for this call"),
    },
    run: (client, { promptId: id, ...body }) => client.prompts.test(id, defined(body)),
  }),
  defineTool({
    name: "list_prompt_versions",
    group,
    title: "List prompt versions",
    description: "Lists a prompt's versions, newest first, with their labels and whether they are active.",
    readOnly: true,
    input: { promptId, ...page },
    run: (client, { promptId: id, ...query }) => client.prompts.versions.list(id, defined(query)),
  }),
  defineTool({
    name: "get_prompt_version",
    group,
    title: "Get a prompt version",
    description: "Reads one version of a prompt by id or number: template, config, variables and labels.",
    readOnly: true,
    input: { promptId, versionId },
    run: (client, args) => client.prompts.versions.get(args.promptId, args.versionId),
  }),
  defineTool({
    name: "get_latest_prompt_version",
    group,
    title: "Get the latest prompt version",
    description: "Reads the newest active version of a prompt.",
    readOnly: true,
    input: { promptId },
    run: (client, args) => client.prompts.versions.latest(args.promptId),
  }),
  defineTool({
    name: "delete_prompt_version",
    group,
    title: "Deactivate a prompt version",
    description:
      "Deactivates a prompt version (Admin): it stays readable but is no longer served or labelled; activate brings it back as a copy.",
    readOnly: false,
    destructive: true,
    input: { promptId, versionId },
    run: async (client, args) => {
      await client.prompts.versions.deactivate(args.promptId, args.versionId);
      return { ok: true };
    },
  }),
  defineTool({
    name: "create_prompt_version",
    group,
    title: "Create a prompt version",
    description:
      "Adds an immutable version to a prompt (it becomes latest) and points the given labels at it; the template must match the prompt's type.",
    readOnly: false,
    input: {
      promptId,
      prompt: promptContent,
      config: config.optional(),
      changeDescription: z.string().max(10_000).nullable().optional().describe("what changed"),
      labels: labels.optional(),
    },
    run: (client, { promptId: id, ...body }) => client.prompts.versions.create(id, defined(body)),
  }),
  defineTool({
    name: "activate_prompt_version",
    group,
    title: "Activate a prompt version",
    description:
      "Labels a version production; a deactivated version is first copied to the head and the copy gets the label.",
    readOnly: false,
    input: { promptId, versionId },
    run: (client, args) => client.prompts.versions.activate(args.promptId, args.versionId),
  }),
  defineTool({
    name: "list_prompt_labels",
    group,
    title: "List prompt labels",
    description: "Lists a prompt's labels (latest first, then by name) with the version each points at.",
    readOnly: true,
    input: { promptId },
    run: async (client, args) => ({ items: await client.prompts.labels.list(args.promptId) }),
  }),
  defineTool({
    name: "create_prompt_label",
    group,
    title: "Create a prompt label",
    description: "Creates a label pointing at an active version of the prompt (latest is the system label).",
    readOnly: false,
    input: {
      promptId,
      name: labelName,
      promptVersionId: z.string().min(1).describe("the version (pmv_… id or number) the label points at"),
    },
    run: (client, { promptId: id, ...body }) => client.prompts.labels.create(id, body),
  }),
  defineTool({
    name: "update_prompt_label",
    group,
    title: "Move a prompt label",
    description: "Points an existing label at another active version of the prompt.",
    readOnly: false,
    input: {
      promptId,
      name: labelName,
      promptVersionId: z.string().min(1).describe("the version (pmv_… id or number) the label moves to"),
    },
    run: (client, { promptId: id, name, ...body }) => client.prompts.labels.update(id, name, body),
  }),
  defineTool({
    name: "delete_prompt_label",
    group,
    title: "Delete a prompt label",
    description: "Deletes a label of a prompt (Admin); latest cannot be deleted.",
    readOnly: false,
    destructive: true,
    input: { promptId, name: labelName },
    run: async (client, args) => {
      await client.prompts.labels.delete(args.promptId, args.name);
      return { ok: true };
    },
  }),
];
