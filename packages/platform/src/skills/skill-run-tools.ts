/**
 * The skills side of agent runs (PLATFORM.md §4.4, §6): resolving a version's bindings when
 * a response starts, and the `platform_skill`, `platform_skill_read` and
 * `platform_skills_apply` tools over the versions that response resolved. A skills-apply
 * call is checked and previewed before it pauses (nothing reaches a human that could not
 * be applied as shown); approval builds the same package again from the preview's base
 * version and stores it through the skills service like an import.
 */
import {
  type AgentDefinition,
  type ApprovalPreparation,
  agentSkillBindings,
  cutBytes,
  type RunSkill,
  type RunState,
  SKILL_MD,
  SKILL_READ_MAX_BYTES,
  SKILLS_APPLY_DIFF_MAX_BYTES,
  type SkillPackage,
  type SkillsApplyChange,
  skillFileText,
  skillMdBody,
  skillPackageFromEntries,
  type ToolCallInput,
  type ToolResult,
  unifiedDiff,
} from "@groundwork/agents";
import type { Principal } from "@groundwork/core";
import type { SkillService } from "./skill-service.js";

class ToolFailure extends Error {}

function fail(message: string): never {
  throw new ToolFailure(message);
}

function parseArgs(raw: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch {
    fail("the arguments must be a JSON object");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail("the arguments must be a JSON object");
  }
  return value as Record<string, unknown>;
}

function stringArg(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== "string" || value === "") fail(`the argument "${name}" must be a non-empty string`);
  return value;
}

function failureText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const SKILL_TYPES = new Set(["platform.skill", "platform.skill_read", "platform.skills_apply"]);

interface AppliedPackage {
  skill: RunSkill;
  pkg: SkillPackage;
  changes: SkillsApplyChange[];
}

export class SkillRunTools {
  constructor(private readonly skills: SkillService) {}

  /**
   * The version's bindings resolved now, in definition order (`skills[]`, then the
   * `platform.skill` list); unresolved bindings are left out, and a skill two bindings
   * reach counts once (the first binding's version).
   */
  async resolveForRun(organizationId: string, definition: AgentDefinition): Promise<RunSkill[]> {
    const bindings = agentSkillBindings(definition);
    if (bindings.length === 0) return [];
    const out: RunSkill[] = [];
    for (const resolution of await this.skills.resolveBindings(organizationId, bindings)) {
      const resolved = resolution.resolved;
      if (resolved === null || out.some((s) => s.skillId === resolved.skillId)) continue;
      out.push({
        skillId: resolved.skillId,
        qualifiedName: resolved.qualifiedName,
        namespace: resolved.namespace,
        name: resolved.name,
        description: resolved.description,
        versionId: resolved.versionId,
        versionNumber: resolved.versionNumber,
      });
    }
    return out;
  }

  /** The files of the versions a response resolved, for `platform_bash`'s read-only `/skills/<qualifiedName>/`. */
  async skillFiles(
    state: RunState,
  ): Promise<Array<{ qualifiedName: string; files: Array<{ path: string; bytes: Uint8Array }> }>> {
    return await Promise.all(
      (state.skills ?? []).map(async (skill) => ({
        qualifiedName: skill.qualifiedName,
        files: (await this.skills.versionFiles(skill.versionId)).map(({ path, bytes }) => ({ path, bytes })),
      })),
    );
  }

  /** Runs a skill tool; null when the call is not one. */
  async execute(principal: Principal, call: ToolCallInput): Promise<ToolResult | null> {
    const type = call.tool.definition.type ?? "";
    if (!SKILL_TYPES.has(type)) return null;
    try {
      const args = parseArgs(call.arguments);
      switch (type) {
        case "platform.skill":
          return this.open(principal, args, call.state);
        case "platform.skill_read":
          return this.read(principal, args, call.state);
        default:
          return this.apply(principal, args, call);
      }
    } catch (error) {
      return { output: `The tool failed: ${failureText(error)}`, failed: true };
    }
  }

  /** The preview of a `platform_skills_apply` call about to pause; a failure when it cannot apply. */
  async prepareApproval(principal: Principal, call: ToolCallInput): Promise<ApprovalPreparation> {
    if (call.tool.definition.type !== "platform.skills_apply") return null;
    try {
      const args = parseArgs(call.arguments);
      const skill = this.boundSkill(args, call.state, true);
      const applied = await this.build(principal, skill, skill.versionId, skill.versionNumber, args);
      return {
        preview: {
          skill: skill.qualifiedName,
          baseVersionId: skill.versionId,
          baseVersionNumber: skill.versionNumber,
          changes: applied.changes,
          fileCount: applied.pkg.files.length,
          totalSize: applied.pkg.totalSize,
        },
      };
    } catch (error) {
      return { failure: `The tool failed: ${failureText(error)}` };
    }
  }

  /** The run's skill named by `name` (its qualified name, or its plain name when that is unique). */
  private boundSkill(args: Record<string, unknown>, state: RunState, forApply = false): RunSkill {
    const name = stringArg(args, "name");
    const skills = state.skills ?? [];
    const byQualified = skills.find((s) => s.qualifiedName === name);
    const byName = skills.filter((s) => s.name === name);
    const skill = byQualified ?? (byName.length === 1 ? byName[0] : undefined);
    if (skill === undefined) {
      const names = skills.map((s) => s.qualifiedName).join(", ");
      fail(`"${name}" is not one of this agent's skills (${names === "" ? "none" : names})`);
    }
    if (forApply && skill.namespace !== null) {
      fail(`skill "${skill.qualifiedName}" is managed by a plugin and cannot be changed here`);
    }
    return skill;
  }

  private async open(
    principal: Principal,
    args: Record<string, unknown>,
    state: RunState,
  ): Promise<ToolResult> {
    const skill = this.boundSkill(args, state);
    const version = await this.skills.getVersion(principal.organizationId, skill.skillId, skill.versionId);
    const files = version.files.map((f) => `- ${f.path} (${f.size} bytes)`).join("\n");
    return {
      output: `${skillMdBody(version.skillMd).trimEnd()}\n\n---\nFiles of skill ${skill.qualifiedName} (version ${skill.versionNumber}; read them with platform_skill_read):\n${files}`,
    };
  }

  private async read(
    principal: Principal,
    args: Record<string, unknown>,
    state: RunState,
  ): Promise<ToolResult> {
    const skill = this.boundSkill(args, state);
    const path = stringArg(args, "path");
    const file = await this.skills.readFile(principal.organizationId, skill.skillId, skill.versionId, path);
    if (file.text === null) return { output: `The tool failed: binary file (${path})`, failed: true };
    return { output: cutBytes(file.text, SKILL_READ_MAX_BYTES, "file") };
  }

  private async apply(
    principal: Principal,
    args: Record<string, unknown>,
    call: ToolCallInput,
  ): Promise<ToolResult> {
    const preview = call.preview;
    if (preview === undefined) fail("this change was not approved through a preview");
    const skill = this.boundSkill(args, call.state, true);
    const applied = await this.build(
      principal,
      skill,
      preview.baseVersionId,
      preview.baseVersionNumber,
      args,
    );
    const given = args.changeDescription;
    const responseId = call.state.previousResponseId ?? call.state.id;
    const result = await this.skills.commitPackage(principal.organizationId, applied.pkg, {
      namespace: null,
      pluginId: null,
      source: "skills_apply",
      changeDescription:
        typeof given === "string" && given.trim() !== "" ? given : `platform_skills_apply in ${responseId}`,
    });
    return {
      output: JSON.stringify({
        skill: result.skill.qualifiedName,
        versionNumber: result.version.versionNumber,
      }),
    };
  }

  /** The base version's files with the changes applied, validated as a package (as an import is). */
  private async build(
    principal: Principal,
    skill: RunSkill,
    baseVersionId: string,
    baseVersionNumber: number,
    args: Record<string, unknown>,
  ): Promise<AppliedPackage> {
    const files = args.files;
    if (typeof files !== "object" || files === null || Array.isArray(files)) {
      fail('the argument "files" must be an object of paths to texts (or null to delete)');
    }
    const entries = Object.entries(files as Record<string, unknown>);
    if (entries.length === 0) fail('"files" names no change');
    const given = args.changeDescription;
    if (given !== undefined && given !== null && typeof given !== "string") {
      fail('the argument "changeDescription" must be a string');
    }
    // The skill must still exist and the base version must be one of its versions.
    const base = await this.skills.getVersion(principal.organizationId, skill.skillId, baseVersionId);
    const current = new Map<string, Uint8Array>();
    for (const file of await this.skills.versionFiles(base.id)) current.set(file.path, file.bytes);
    const next = new Map(current);
    const encoder = new TextEncoder();
    const changes: SkillsApplyChange[] = [];
    for (const [path, value] of entries) {
      const before = current.get(path);
      const beforeText = before === undefined ? null : skillFileText(before);
      if (value === null) {
        if (before === undefined) fail(`version ${baseVersionNumber} has no file "${path}" to delete`);
        next.delete(path);
        changes.push({ path, change: "deleted", diff: this.diff(path, before, beforeText, null) });
      } else if (typeof value === "string") {
        const bytes = encoder.encode(value);
        if (before !== undefined && beforeText === value) continue;
        next.set(path, bytes);
        changes.push({
          path,
          change: before === undefined ? "added" : "modified",
          diff: this.diff(path, before, beforeText, value),
        });
      } else {
        fail(`files["${path}"] must be a text or null`);
      }
    }
    if (changes.length === 0) fail(`the changes leave skill "${skill.qualifiedName}" as it is`);
    if (!next.has(SKILL_MD)) fail("SKILL.md cannot be deleted");
    const pkg = skillPackageFromEntries([...next].map(([path, bytes]) => ({ path, bytes })));
    if (pkg.name !== skill.name) {
      fail(`SKILL.md must keep the name "${skill.name}" (a package with another name is another skill)`);
    }
    changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { skill, pkg, changes };
  }

  private diff(
    path: string,
    before: Uint8Array | undefined,
    beforeText: string | null,
    after: string | null,
  ): string {
    if (before !== undefined && beforeText === null) {
      return `Binary file ${path} ${after === null ? "deleted" : "replaced by a text file"}\n`;
    }
    return unifiedDiff(path, before === undefined ? null : beforeText, after, SKILLS_APPLY_DIFF_MAX_BYTES);
  }
}
