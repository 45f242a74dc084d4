/**
 * A plugin package (PLATFORM.md §5.1): a zip in the Claude Code plugin layout,
 * checked whole before anything is stored. The central directory is read first
 * (names, declared sizes, symlinks, path rules, counts) without inflating anything;
 * the real inflated bytes are counted while inflating, so lying headers do not help.
 *
 * - `.claude-plugin/plugin.json` — the manifest (required);
 * - `skills/<dir>/SKILL.md` (+ files under `<dir>`) — one skill each (§4.1 rules);
 * - `.mcp.json` — `{mcpServers: {<serverLabel>: {type: "http", url, auth?, description?}}}`;
 *   entries of another type (`stdio`, `sse`, …) are skipped with a warning;
 * - `agents/*.json` — agent definition files.
 *
 * Everything else is ignored. Failures are core errors: `400 invalid_plugin` with
 * `param` naming the path (`skills/x/SKILL.md:name`, `.mcp.json:mcpServers.y.url`,
 * `agents/a.json:model`), `413 payload_too_large` over a size limit.
 */
import {
  type GroundworkError,
  invalidRequest,
  isZipSymlink,
  payloadTooLarge,
  readZipDirectory,
} from "@groundwork/core";
import { type AgentDefinition, parseDefinition } from "../definition.js";
import { SKILL_FILE_MAX_BYTES, SKILL_MD_MAX_BYTES, SKILL_PATH_MAX_LENGTH } from "../skills/skill-limits.js";
import {
  inflateRootedFiles,
  rootedNames,
  SKILL_MD,
  type SkillPackage,
  skillPackageFromEntries,
} from "../skills/skill-package.js";
import { skillPathProblem } from "../skills/skill-paths.js";

export const PLUGIN_MANIFEST_PATH = ".claude-plugin/plugin.json";
export const PLUGIN_MCP_PATH = ".mcp.json";
export const PLUGIN_ZIP_MAX_BYTES = 10_485_760;
export const PLUGIN_MAX_FILES = 1_000;
export const PLUGIN_MAX_SKILLS = 50;
export const PLUGIN_MAX_CONNECTORS = 20;
export const PLUGIN_MAX_AGENTS = 20;
/** All files of a plugin together, uncompressed (decision PL2). */
export const PLUGIN_TOTAL_MAX_BYTES = 52_428_800;
export const PLUGIN_NAME_REGEX = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const PLUGIN_SERVER_LABEL_REGEX = /^[a-z0-9_-]{1,32}$/;

export interface PluginManifest {
  name: string;
  version: string;
  description: string | null;
  /** The whole `plugin.json` object as it was (keys not interpreted are kept). */
  raw: Record<string, unknown>;
}

export interface PluginSkill {
  /** The folder under `skills/`. */
  dir: string;
  package: SkillPackage;
}

export interface PluginConnectorEntry {
  serverLabel: string;
  url: string;
  authKind: "none" | "bearer" | "oauth";
  description: string | null;
}

export interface PluginAgentEntry {
  /** `agents/<file>.json`. */
  path: string;
  definition: AgentDefinition;
}

export interface PluginPackage {
  manifest: PluginManifest;
  /** Sorted by folder. */
  skills: PluginSkill[];
  /** In `.mcp.json` order. */
  connectors: PluginConnectorEntry[];
  /** Sorted by path. */
  agents: PluginAgentEntry[];
  warnings: string[];
}

const invalid = (message: string, param: string) =>
  invalidRequest(message, { param, code: "invalid_plugin" });

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkPath(path: string, maxLength = SKILL_PATH_MAX_LENGTH): void {
  const problem = skillPathProblem(path, maxLength);
  if (problem !== null) throw invalid(`File path "${path.slice(0, 300)}" ${problem}`, path.slice(0, 300));
}

/** The cap of one file: `SKILL.md` 100 KiB, anything else 1 MiB. */
function fileCap(path: string): number {
  return path.endsWith(`/${SKILL_MD}`) && path.startsWith("skills/")
    ? SKILL_MD_MAX_BYTES
    : SKILL_FILE_MAX_BYTES;
}

function fileTooLarge(path: string, cap: number): GroundworkError {
  return payloadTooLarge(`${path} is larger than ${cap} bytes`, { param: path });
}

/** The folder under `skills/` a path belongs to, or null for files outside a skill folder. */
function skillDirOf(path: string): string | null {
  const match = /^skills\/([^/]+)\/.+/.exec(path);
  return match === null ? null : (match[1] as string);
}

function isAgentFile(path: string): boolean {
  return /^agents\/[^/]+\.json$/.test(path);
}

/** Which paths are read: the manifest, `.mcp.json`, skill folders and agent files. */
function isComponentPath(path: string): boolean {
  return (
    path === PLUGIN_MANIFEST_PATH ||
    path === PLUGIN_MCP_PATH ||
    skillDirOf(path) !== null ||
    isAgentFile(path)
  );
}

function parseJson(bytes: Uint8Array, path: string): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalid(`${path} is not valid UTF-8`, path);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw invalid(
      `${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      path,
    );
  }
}

/** `plugin.json`: `name` (required), `version` (default `0.0.0`), `description`; other keys kept. */
export function parsePluginManifest(value: unknown): PluginManifest {
  const at = (key: string) => `${PLUGIN_MANIFEST_PATH}:${key}`;
  if (!isObject(value)) throw invalid(`${PLUGIN_MANIFEST_PATH} must be a JSON object`, PLUGIN_MANIFEST_PATH);
  const { name, version, description, author, homepage, license } = value;
  if (typeof name !== "string" || name.length < 1 || name.length > 64 || !PLUGIN_NAME_REGEX.test(name)) {
    throw invalid(
      "name is required: 1–64 characters of lowercase letters and digits in words joined by single hyphens",
      at("name"),
    );
  }
  if (version !== undefined && (typeof version !== "string" || version.length > 64)) {
    throw invalid("version must be a string of at most 64 characters", at("version"));
  }
  if (
    description !== undefined &&
    description !== null &&
    (typeof description !== "string" || description.length > 1024)
  ) {
    throw invalid("description must be a string of at most 1024 characters", at("description"));
  }
  if (author !== undefined && author !== null && typeof author !== "string" && !isObject(author)) {
    throw invalid("author must be an object or a string", at("author"));
  }
  if (homepage !== undefined && homepage !== null && typeof homepage !== "string") {
    throw invalid("homepage must be a string", at("homepage"));
  }
  if (license !== undefined && license !== null && typeof license !== "string") {
    throw invalid("license must be a string", at("license"));
  }
  return {
    name,
    version: typeof version === "string" ? version : "0.0.0",
    description: typeof description === "string" ? description : null,
    raw: value,
  };
}

/** `.mcp.json`: the `http` entries as connectors, the others skipped with a warning. */
export function parsePluginMcpServers(value: unknown): {
  connectors: PluginConnectorEntry[];
  warnings: string[];
} {
  const at = (key: string) => `${PLUGIN_MCP_PATH}:${key}`;
  if (!isObject(value)) throw invalid(`${PLUGIN_MCP_PATH} must be a JSON object`, PLUGIN_MCP_PATH);
  const servers = value.mcpServers ?? {};
  if (!isObject(servers)) throw invalid("mcpServers must be an object of server labels", at("mcpServers"));
  const connectors: PluginConnectorEntry[] = [];
  const warnings: string[] = [];
  for (const [label, entry] of Object.entries(servers)) {
    const param = at(`mcpServers.${label.slice(0, 64)}`);
    if (!isObject(entry)) throw invalid(`mcpServers.${label} must be an object`, param);
    if (entry.type !== "http") {
      const kind =
        typeof entry.type === "string" ? entry.type : typeof entry.command === "string" ? "stdio" : "untyped";
      warnings.push(
        `${PLUGIN_MCP_PATH}: server "${label.slice(0, 64)}" (${kind.slice(0, 32)}) skipped; only type "http" servers become connectors`,
      );
      continue;
    }
    if (!PLUGIN_SERVER_LABEL_REGEX.test(label)) {
      throw invalid(`Server label "${label.slice(0, 64)}" must match ^[a-z0-9_-]{1,32}$`, param);
    }
    const { url, auth, description } = entry;
    if (typeof url !== "string" || url.length > 2048 || !/^https?:\/\//i.test(url)) {
      throw invalid("url must be an http(s) URL of at most 2048 characters", `${param}.url`);
    }
    try {
      new URL(url);
    } catch {
      throw invalid("url must be an absolute http(s) URL", `${param}.url`);
    }
    if (auth !== undefined && auth !== "none" && auth !== "bearer" && auth !== "oauth") {
      throw invalid('auth must be "none", "bearer" or "oauth"', `${param}.auth`);
    }
    if (
      description !== undefined &&
      description !== null &&
      (typeof description !== "string" || description.length > 1024)
    ) {
      throw invalid("description must be a string of at most 1024 characters", `${param}.description`);
    }
    connectors.push({
      serverLabel: label,
      url,
      authKind: auth ?? "none",
      description: typeof description === "string" ? description : null,
    });
  }
  if (connectors.length > PLUGIN_MAX_CONNECTORS) {
    throw invalid(
      `A plugin holds at most ${PLUGIN_MAX_CONNECTORS} connectors; got ${connectors.length}`,
      at("mcpServers"),
    );
  }
  return { connectors, warnings };
}

/** Re-labels an engine error (skill or agent rules) as `invalid_plugin` naming the path inside the plugin. */
function rethrowAt(error: unknown, prefix: string, separator: ":" | "/"): never {
  const e = error as Partial<GroundworkError>;
  if (typeof e?.status !== "number" || e.status !== 400) {
    if (typeof e?.status === "number" && e.param != null && e.param !== "") {
      // 413 from the skill rules: name the path inside the plugin.
      const param = e.param.startsWith("files.") ? `${prefix}/${e.param.slice(6)}` : `${prefix}/${e.param}`;
      throw payloadTooLarge(e.message ?? "Too large", { param });
    }
    throw error;
  }
  let param: string = prefix;
  if (e.param != null && e.param !== "") {
    if (separator === "/") {
      // Skill params: `SKILL.md`, `SKILL.md:name`, `files.<path>`.
      param = e.param.startsWith("files.") ? `${prefix}/${e.param.slice(6)}` : `${prefix}/${e.param}`;
    } else param = `${prefix}:${e.param}`;
  }
  throw invalid(`${prefix}: ${e.message ?? "invalid"}`, param);
}

/** Builds the package from complete, rooted file contents (the zip reader's output; tests). */
export function pluginPackageFromEntries(
  entries: ReadonlyArray<{ path: string; bytes: Uint8Array }>,
): PluginPackage {
  const byPath = new Map(entries.map((entry) => [entry.path, entry.bytes]));
  const manifestBytes = byPath.get(PLUGIN_MANIFEST_PATH);
  if (manifestBytes === undefined) {
    throw invalid(`${PLUGIN_MANIFEST_PATH} is required at the package root`, PLUGIN_MANIFEST_PATH);
  }
  const manifest = parsePluginManifest(parseJson(manifestBytes, PLUGIN_MANIFEST_PATH));
  const warnings: string[] = [];

  // Skills: one per folder under skills/.
  const folders = new Map<string, Array<{ path: string; bytes: Uint8Array }>>();
  for (const { path, bytes } of entries) {
    const dir = skillDirOf(path);
    if (dir === null) continue;
    const list = folders.get(dir) ?? [];
    list.push({ path: path.slice(`skills/${dir}/`.length), bytes });
    folders.set(dir, list);
  }
  if (folders.size > PLUGIN_MAX_SKILLS) {
    throw invalid(`A plugin holds at most ${PLUGIN_MAX_SKILLS} skills; got ${folders.size}`, "skills");
  }
  const skills: PluginSkill[] = [];
  const skillNames = new Map<string, string>();
  for (const dir of [...folders.keys()].sort()) {
    const prefix = `skills/${dir}`;
    let pkg: SkillPackage;
    try {
      pkg = skillPackageFromEntries(folders.get(dir) as Array<{ path: string; bytes: Uint8Array }>);
    } catch (error) {
      rethrowAt(error, prefix, "/");
    }
    const other = skillNames.get(pkg.name);
    if (other !== undefined) {
      throw invalid(
        `Skills ${other} and ${prefix} are both named "${pkg.name}"`,
        `${prefix}/${SKILL_MD}:name`,
      );
    }
    skillNames.set(pkg.name, prefix);
    skills.push({ dir, package: pkg });
  }

  // Connectors.
  let connectors: PluginConnectorEntry[] = [];
  const mcpBytes = byPath.get(PLUGIN_MCP_PATH);
  if (mcpBytes !== undefined) {
    const parsed = parsePluginMcpServers(parseJson(mcpBytes, PLUGIN_MCP_PATH));
    connectors = parsed.connectors;
    warnings.push(...parsed.warnings);
  }

  // Agents.
  const agentPaths = [...byPath.keys()].filter(isAgentFile).sort();
  if (agentPaths.length > PLUGIN_MAX_AGENTS) {
    throw invalid(`A plugin holds at most ${PLUGIN_MAX_AGENTS} agents; got ${agentPaths.length}`, "agents");
  }
  const agents: PluginAgentEntry[] = [];
  const agentNames = new Map<string, string>();
  for (const path of agentPaths) {
    const value = parseJson(byPath.get(path) as Uint8Array, path);
    let definition: AgentDefinition;
    try {
      definition = parseDefinition(value);
    } catch (error) {
      rethrowAt(error, path, ":");
    }
    const other = agentNames.get(definition.name);
    if (other !== undefined)
      throw invalid(`Agents ${other} and ${path} are both named "${definition.name}"`, `${path}:name`);
    agentNames.set(definition.name, path);
    agents.push({ path, definition });
  }
  for (const path of byPath.keys()) {
    if (path.startsWith("agents/") && !isAgentFile(path)) {
      warnings.push(`${path} skipped; agents are agents/*.json definition files`);
    }
  }
  for (const dir of ["commands", "hooks"]) {
    if ([...byPath.keys()].some((path) => path.startsWith(`${dir}/`))) {
      warnings.push(`${dir}/ skipped; plugins install skills, connectors and agents only`);
    }
  }
  return { manifest, skills, connectors, agents, warnings };
}

/** A plugin package from a zip archive. */
export async function pluginPackageFromZip(bytes: Uint8Array): Promise<PluginPackage> {
  if (bytes.byteLength > PLUGIN_ZIP_MAX_BYTES) {
    throw payloadTooLarge(`A plugin zip is at most ${PLUGIN_ZIP_MAX_BYTES} bytes`, { param: "file" });
  }
  const directory = readZipDirectory(bytes);
  if (directory === null) throw invalid("The file is not a readable zip archive", "file");
  const names = new Set<string>();
  for (const entry of directory) {
    if (isZipSymlink(entry))
      throw invalid(`"${entry.name.slice(0, 300)}" is a symbolic link`, entry.name.slice(0, 300));
    checkPath(entry.directory ? entry.name.slice(0, -1) : entry.name, 2 * SKILL_PATH_MAX_LENGTH + 1);
    if (names.has(entry.name)) throw invalid(`"${entry.name}" appears twice in the zip`, entry.name);
    names.add(entry.name);
  }
  const fileEntries = directory.filter((entry) => !entry.directory);
  const rooted = rootedNames(
    fileEntries.map((entry) => entry.name),
    PLUGIN_MANIFEST_PATH,
  );
  if (rooted.size > PLUGIN_MAX_FILES) {
    throw invalid(`A plugin holds at most ${PLUGIN_MAX_FILES} files; got ${rooted.size}`, "file");
  }
  let declared = 0;
  for (const entry of fileEntries) {
    const path = rooted.get(entry.name);
    if (path === undefined) continue;
    checkPath(path);
    if (!isComponentPath(path)) continue;
    if (entry.uncompressedSize > fileCap(path)) throw fileTooLarge(path, fileCap(path));
    declared += entry.uncompressedSize;
  }
  const totalTooLarge = () =>
    payloadTooLarge(`A plugin's files total at most ${PLUGIN_TOTAL_MAX_BYTES} bytes uncompressed`, {
      param: "file",
    });
  if (declared > PLUGIN_TOTAL_MAX_BYTES) throw totalTooLarge();

  const entries = await inflateRootedFiles(bytes, rooted, {
    invalid,
    entryParam: (name) => name,
    // Files outside the components are not read, but still named so that the warnings can mention them.
    capOf: (path) => (isComponentPath(path) ? fileCap(path) : null),
    totalMax: PLUGIN_TOTAL_MAX_BYTES,
    tooLarge: (path, perFile, overTotal) => (overTotal ? totalTooLarge() : fileTooLarge(path, perFile)),
    corrupt: (message, path) => invalid(message, path),
  });
  return pluginPackageFromEntries(entries);
}
