/**
 * Skills (PLATFORM.md §4.6) and an agent's skill bindings (§4.5): list, read,
 * resolve, import (a file map or a zip) and delete skill packages.
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page, toBlob } from "./common.js";

const skill = z.string().min(1).describe("skill id (skl_…) or qualified name (name or namespace:name)");
const vid = z.string().min(1).describe("version id (skv_…) or version number");

export const skillTools = [
  defineTool({
    name: "list_skills",
    group: "Skills",
    title: "List skills",
    description:
      "Lists the organization's skills by qualified name, optionally only one namespace ('-' = imported skills only) or those whose name or description contains q.",
    readOnly: true,
    input: {
      namespace: z.string().optional().describe("a plugin namespace, or '-' for skills without namespace"),
      q: z.string().optional().describe("text to find in names and descriptions"),
      ...page,
    },
    run: (client, args) => client.skills.list(defined(args)),
  }),
  defineTool({
    name: "get_skill",
    group: "Skills",
    title: "Get a skill",
    description: "Reads one skill: its qualified name, description and latest version.",
    readOnly: true,
    input: { skill },
    run: (client, args) => client.skills.get(args.skill),
  }),
  defineTool({
    name: "list_skill_versions",
    group: "Skills",
    title: "List skill versions",
    description: "Lists a skill's versions, newest first, with their file lists (without the SKILL.md text).",
    readOnly: true,
    input: { skill, ...page },
    run: (client, { skill: id, ...query }) => client.skills.versions.list(id, defined(query)),
  }),
  defineTool({
    name: "get_skill_version",
    group: "Skills",
    title: "Get a skill version",
    description: "Reads one version of a skill with its SKILL.md text, frontmatter and file list.",
    readOnly: true,
    input: { skill, vid },
    run: (client, args) => client.skills.versions.get(args.skill, args.vid),
  }),
  defineTool({
    name: "list_skill_labels",
    group: "Skills",
    title: "List skill labels",
    description: "Lists a skill's labels: the system label latest first, then custom labels by name.",
    readOnly: true,
    input: { skill },
    run: async (client, args) => ({ items: await client.skills.labels.list(args.skill) }),
  }),
  defineTool({
    name: "resolve_skill",
    group: "Skills",
    title: "Resolve a skill binding",
    description:
      "Resolves a skill binding (name, namespace:name, optionally @ref) to one version, as agent runs do; ref overrides the @ref part (a label name or a version number).",
    readOnly: true,
    input: {
      name: z.string().min(1).describe("the binding: name, namespace:name, optionally followed by @ref"),
      ref: z.string().optional().describe("a label name or version number (default latest)"),
    },
    run: (client, args) => client.skills.resolve(defined(args)),
  }),
  defineTool({
    name: "delete_skill",
    group: "Skills",
    title: "Delete a skill",
    description:
      "Deletes a skill with all its versions and labels (Admin); agents bound to it keep the binding, unresolved.",
    readOnly: false,
    destructive: true,
    input: { skill },
    run: async (client, args) => {
      await client.skills.delete(args.skill);
      return { ok: true };
    },
  }),
  defineTool({
    name: "import_skill",
    group: "Skills",
    title: "Import a skill",
    description:
      "Imports a skill package (a SKILL.md with name and description frontmatter, plus files): either files as {path: text} or a zip. Creates the skill, adds a version, or answers unchanged when the files equal the latest version's.",
    readOnly: false,
    input: {
      files: z
        .record(z.string(), z.string())
        .optional()
        .describe("the package as {relative path: UTF-8 text}, SKILL.md included"),
      zip: z
        .object({
          filename: z.string().min(1).describe("the zip's file name"),
          contentBase64: z.string().min(1).describe("the zip's bytes, base64-encoded"),
        })
        .optional()
        .describe("the package as a zip (instead of files)"),
      changeDescription: z.string().optional().describe("what changed in this version"),
    },
    run: (client, args) => {
      if (args.zip !== undefined) {
        return client.skills.import({
          zip: toBlob({ contentBase64: args.zip.contentBase64, mimeType: "application/zip" }),
          filename: args.zip.filename,
          ...(args.changeDescription === undefined ? {} : { changeDescription: args.changeDescription }),
        });
      }
      return client.skills.import({
        files: args.files ?? {},
        ...(args.changeDescription === undefined ? {} : { changeDescription: args.changeDescription }),
      });
    },
  }),
  defineTool({
    name: "list_agent_skills",
    group: "Agents",
    title: "List an agent's skills",
    description:
      "Lists every skill binding of an agent version (definition skills first, then the platform.skill tool's list) with its resolution status.",
    readOnly: true,
    input: {
      agentId: z.string().describe("agent id"),
      version: z.string().optional().describe("version id, number or label (default latest)"),
    },
    run: (client, { agentId, ...query }) => client.agents.skills(agentId, defined(query)),
  }),
  defineTool({
    name: "list_agent_tool_catalogs",
    group: "Agents",
    title: "List an agent's tool catalogs",
    description:
      "Lists the tools a run of an agent version could see, by catalog (definition, platform, connector:<label>), each with its class, whether it is offered (and why not) and whether it is deferred behind platform_tool_search.",
    readOnly: true,
    input: {
      agentId: z.string().describe("agent id"),
      version: z.string().optional().describe("version id, number or label (default latest)"),
    },
    run: (client, { agentId, ...query }) => client.agents.toolCatalogs(agentId, defined(query)),
  }),
];
