/**
 * The skill tools of agent runs (PLATFORM.md §6): `platform_skill` and `platform_skill_read`
 * (read class, offered when at least one binding resolved) and `platform_skills_apply`
 * (write class, offered when a resolved skill has the null namespace; every call waits for
 * a human). The definition's `platform.skill` entry only contributes bindings; its
 * `requiresConfirmation` applies to both read tools. The instructions get an index of the
 * resolved skills.
 */
import type { AgentDefinition, ToolDefinition } from "../definition.js";
import type { RunSkill } from "../run-state.js";
import type { ResolvedTool } from "../tools.js";
import { resolveTools } from "../tools.js";

export const SKILL_TOOL_NAME = "platform_skill";
export const SKILL_READ_TOOL_NAME = "platform_skill_read";
export const SKILLS_APPLY_TOOL_NAME = "platform_skills_apply";
/** What `platform_skill_read` returns of a text file at most (then a truncation marker). */
export const SKILL_READ_MAX_BYTES = 64 * 1024;
/** The unified diff of one file in a `platform_skills_apply` preview, at most (then truncated). */
export const SKILLS_APPLY_DIFF_MAX_BYTES = 20 * 1024;

const SKILL_DESCRIPTION =
  "Open one of the agent's skills: returns its SKILL.md instructions (without frontmatter) and the list of its files. Read a skill before following it.";
const SKILL_READ_DESCRIPTION =
  "Read one file of one of the agent's skills (text files; at most 64 KiB, longer files are truncated).";
const SKILLS_APPLY_DESCRIPTION =
  "Propose changes to one of the agent's skills (not plugin skills): files maps paths to their new full text, or null to delete the file. A human reviews the diff; on approval a new version of the skill is created.";

const SKILL_PARAMETERS = {
  type: "object",
  properties: { name: { type: "string", description: "The skill's name as listed in the instructions" } },
  required: ["name"],
};
const SKILL_READ_PARAMETERS = {
  type: "object",
  properties: {
    name: { type: "string", description: "The skill's name" },
    path: { type: "string", description: "The file's path inside the skill, e.g. reference/forms.md" },
  },
  required: ["name", "path"],
};
const SKILLS_APPLY_PARAMETERS = {
  type: "object",
  properties: {
    name: { type: "string", description: "The skill's name" },
    files: {
      type: "object",
      description: "Path → the file's new full text, or null to delete it",
      additionalProperties: { type: ["string", "null"] },
    },
    changeDescription: { type: "string", description: "What the change does" },
  },
  required: ["name", "files"],
};

function skillTool(
  type: string,
  name: string,
  description: string,
  parameters: Record<string, unknown>,
  cls: "read" | "write",
  extra: { requiresConfirmation?: boolean; alwaysPause?: boolean; catalog: string },
): ResolvedTool {
  return {
    name,
    definition: { type } as unknown as ToolDefinition,
    gate: {
      name,
      runs: "server",
      runnable: true,
      builtinClass: cls,
      ...(extra.requiresConfirmation === undefined
        ? {}
        : { requiresConfirmation: extra.requiresConfirmation }),
      ...(extra.alwaysPause === undefined ? {} : { alwaysPause: extra.alwaysPause }),
    },
    chat: { type: "function", function: { name, description, parameters } },
    catalog: extra.catalog,
  };
}

/** The definition's `platform.skill` entry, if it has one. */
function skillEntry(definition: AgentDefinition): { requiresConfirmation?: boolean } | undefined {
  return (definition.tools ?? []).find((tool) => "type" in tool && tool.type === "platform.skill") as
    | { requiresConfirmation?: boolean }
    | undefined;
}

/**
 * The skill tools a response offers for its resolved skills, in catalog order: none without a
 * resolved skill; `platform_skill` (in the `definition` catalog when the definition configures
 * `platform.skill`), `platform_skill_read`, and `platform_skills_apply` when a resolved skill
 * has the null namespace.
 */
export function skillTools(definition: AgentDefinition, skills: readonly RunSkill[]): ResolvedTool[] {
  if (skills.length === 0) return [];
  const entry = skillEntry(definition);
  const confirm = entry?.requiresConfirmation === true ? { requiresConfirmation: true } : {};
  const out = [
    skillTool("platform.skill", SKILL_TOOL_NAME, SKILL_DESCRIPTION, SKILL_PARAMETERS, "read", {
      ...confirm,
      catalog: entry === undefined ? "platform" : "definition",
    }),
    skillTool(
      "platform.skill_read",
      SKILL_READ_TOOL_NAME,
      SKILL_READ_DESCRIPTION,
      SKILL_READ_PARAMETERS,
      "read",
      { ...confirm, catalog: "platform" },
    ),
  ];
  if (skills.some((skill) => skill.namespace === null)) {
    out.push(
      skillTool(
        "platform.skills_apply",
        SKILLS_APPLY_TOOL_NAME,
        SKILLS_APPLY_DESCRIPTION,
        SKILLS_APPLY_PARAMETERS,
        "write",
        { alwaysPause: true, catalog: "platform" },
      ),
    );
  }
  return out;
}

/**
 * The tools of a response: the definition's tools with the `platform.skill` entry replaced by
 * the runnable `platform_skill` when a skill resolved (it stays, not runnable, when none did),
 * then the implicit skill tools.
 */
export function runTools(definition: AgentDefinition, skills: readonly RunSkill[]): ResolvedTool[] {
  const base = resolveTools(definition.tools);
  const extra = skillTools(definition, skills);
  const configured = extra.find((tool) => tool.name === SKILL_TOOL_NAME && tool.catalog === "definition");
  const tools = base.map((tool) =>
    tool.definition.type === "platform.skill" && configured !== undefined ? configured : tool,
  );
  return [...tools, ...extra.filter((tool) => tool !== configured)];
}

/** The index of the resolved skills the instructions get: `name — description`, one a line. */
export function skillIndex(skills: readonly RunSkill[]): string | null {
  if (skills.length === 0) return null;
  const lines = skills.map((skill) => `- ${skill.qualifiedName} — ${skill.description}`);
  return `Skills (open one with ${SKILL_TOOL_NAME} before following it; read its files with ${SKILL_READ_TOOL_NAME}):\n${lines.join("\n")}`;
}

/** The version's instructions followed by the skill index (unchanged without resolved skills). */
export function withSkillIndex(instructions: string | null, skills: readonly RunSkill[]): string | null {
  const index = skillIndex(skills);
  if (index === null) return instructions;
  return instructions === null || instructions === "" ? index : `${instructions}\n\n${index}`;
}
