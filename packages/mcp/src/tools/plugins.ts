/**
 * Plugins (PLATFORM.md §5.2): list, read, install (a zip or a URL), update, sync and
 * delete plugins, which install namespaced skills, connectors and agents.
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page, toBlob } from "./common.js";

const pluginId = z.string().min(1).describe("plugin id (plg_…)");
const source = {
  sourceUrl: z.string().optional().describe("an http(s) URL of the plugin zip, fetched by the server"),
  zip: z
    .object({
      filename: z.string().min(1).describe("the zip's file name"),
      contentBase64: z.string().min(1).describe("the zip's bytes, base64-encoded"),
    })
    .optional()
    .describe("the plugin as a zip (instead of sourceUrl)"),
};

type SourceArgs = {
  sourceUrl?: string | undefined;
  zip?: { filename: string; contentBase64: string } | undefined;
};

function sourceOf(args: SourceArgs) {
  if (args.zip !== undefined) {
    return {
      zip: toBlob({ contentBase64: args.zip.contentBase64, mimeType: "application/zip" }),
      filename: args.zip.filename,
    };
  }
  return { sourceUrl: args.sourceUrl ?? "" };
}

export const pluginTools = [
  defineTool({
    name: "list_plugins",
    group: "Plugins",
    title: "List plugins",
    description:
      "Lists the organization's installed plugins, newest first, with their components and warnings.",
    readOnly: true,
    input: { ...page },
    run: (client, args) => client.plugins.list(defined(args)),
  }),
  defineTool({
    name: "get_plugin",
    group: "Plugins",
    title: "Get a plugin",
    description: "Reads one plugin: manifest, source, installed skills, connectors and agents, warnings.",
    readOnly: true,
    input: { pluginId },
    run: (client, args) => client.plugins.get(args.pluginId),
  }),
  defineTool({
    name: "install_plugin",
    group: "Plugins",
    title: "Install a plugin",
    description:
      "Installs a plugin (Admin) from a zip or an http(s) sourceUrl: .claude-plugin/plugin.json, skills/<dir>/SKILL.md (namespaced skills), .mcp.json http servers (connectors) and agents/*.json (agents). Answers the changes per component kind and warnings.",
    readOnly: false,
    input: source,
    run: (client, args) => client.plugins.install(sourceOf(args)),
  }),
  defineTool({
    name: "update_plugin",
    group: "Plugins",
    title: "Update a plugin",
    description:
      "Replaces an installed plugin's package (Admin; same manifest name) from a zip or a sourceUrl: changed skills and agents get new versions, missing ones are removed (refused while agents outside the plugin bind a removed skill).",
    readOnly: false,
    input: { pluginId, ...source },
    run: (client, { pluginId: id, ...args }) => client.plugins.update(id, sourceOf(args)),
  }),
  defineTool({
    name: "sync_plugin",
    group: "Plugins",
    title: "Sync a plugin",
    description: "Re-fetches a URL-installed plugin's source and applies it as an update (Admin).",
    readOnly: false,
    input: { pluginId },
    run: (client, args) => client.plugins.sync(args.pluginId),
  }),
  defineTool({
    name: "delete_plugin",
    group: "Plugins",
    title: "Delete a plugin",
    description:
      "Deletes a plugin with its skills, connectors and agents (Admin); refused while agents outside it bind its skills unless force is true (their bindings become unresolved).",
    readOnly: false,
    destructive: true,
    input: {
      pluginId,
      force: z.boolean().optional().describe("remove even while other agents bind its skills"),
    },
    run: async (client, args) => {
      await client.plugins.delete(args.pluginId, args.force === undefined ? {} : { force: args.force });
      return { ok: true };
    },
  }),
];
