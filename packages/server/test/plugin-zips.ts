/** Plugin packages for tests, built in memory with jszip. */
import { skillMd, type ZipEntries, zipOf } from "./skill-zips.js";

export const pluginManifest = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, version: "1.0.0", description: `The ${name} plugin`, ...extra });

export const agentFile = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, model: "gw-chat-1", instructions: `You are ${name}.`, ...extra });

export interface PluginSpec {
  name?: string;
  version?: string;
  /** skill name → extra body text (changes the files). */
  skills?: Record<string, string>;
  /** agent name → extra definition fields. */
  agents?: Record<string, Record<string, unknown>>;
  mcpServers?: Record<string, unknown>;
  extra?: ZipEntries;
}

/** A plugin zip from a compact spec. */
export function pluginZip(spec: PluginSpec = {}): Promise<Uint8Array> {
  const name = spec.name ?? "acme";
  const entries: ZipEntries = {
    ".claude-plugin/plugin.json": pluginManifest(name, { version: spec.version ?? "1.0.0" }),
  };
  for (const [skill, body] of Object.entries(spec.skills ?? { "pdf-tools": "" })) {
    entries[`skills/${skill}/SKILL.md`] = `${skillMd(skill)}${body}`;
  }
  for (const [agent, extra] of Object.entries(spec.agents ?? {})) {
    entries[`agents/${agent}.json`] = agentFile(agent, extra);
  }
  if (spec.mcpServers !== undefined) entries[".mcp.json"] = JSON.stringify({ mcpServers: spec.mcpServers });
  return zipOf({ ...entries, ...spec.extra });
}
