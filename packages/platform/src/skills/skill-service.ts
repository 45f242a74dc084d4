/**
 * Skills (PLATFORM.md §4): packages imported from a zip or a file map, immutable
 * numbered versions with their files, labels, and the resolution of agent skill
 * bindings (§4.4, §4.5). The package rules are the agents engine's; this service
 * applies them before a single row is written, keeps imports idempotent (identical
 * files → `unchanged`) and plugin-managed skills out of reach of hand edits. Roles
 * are the HTTP guards' business. Plugins and the run-time `platform_skill*` tools
 * build on `commitPackage`, `resolveBindings` and `readFile`.
 */
import {
  type AgentDefinition,
  type AgentSkillBinding,
  agentSkillBindings,
  parseSkillBinding,
  type SkillBindingRef,
  type SkillPackage,
  sameSkillFiles,
  skillFileContentType,
  skillFileText,
  skillPackageFromFiles,
  skillPackageFromZip,
} from "@groundwork/agents";
import {
  type Allowance,
  conflict,
  invalidRequest,
  notFound,
  type PageRequest,
  type Principal,
  UNLIMITED_ALLOWANCE,
} from "@groundwork/core";
import {
  LATEST_LABEL,
  type SkillLabelRecord,
  type SkillRecord,
  type SkillVersionRecord,
  type SkillVersionRef,
  type SkillVersionSource,
} from "@groundwork/store-sqlite";
import { resolveVersion } from "../agents/resolve.js";
import type { PlatformStore } from "../store-port.js";
import { VersionLabels } from "../versioning/version-labels.js";

export type SkillImportInput =
  | { files: Record<string, string>; changeDescription?: string | null | undefined }
  | { zip: Uint8Array; changeDescription?: string | null | undefined };

export interface SkillImportResult {
  result: "created" | "versioned" | "unchanged";
  skill: SkillRecord;
  version: SkillVersionRecord;
}

export interface ResolvedSkill {
  skillId: string;
  qualifiedName: string;
  namespace: string | null;
  name: string;
  description: string;
  versionId: string;
  versionNumber: number;
  /** The ref the binding named (`latest` when it named none). */
  ref: string;
  /** The label used; null when `ref` was a version number. */
  label: string | null;
}

export type SkillResolutionStatus = "resolved" | "skill_not_found" | "ref_not_found" | "ambiguous_skill";

export interface SkillBindingResolution {
  binding: string;
  status: SkillResolutionStatus;
  resolved: ResolvedSkill | null;
  /** Why it did not resolve; null when it did. */
  message: string | null;
}

export interface AgentSkillResolution extends SkillBindingResolution {
  source: AgentSkillBinding["source"];
}

export interface AgentSkills {
  agentId: string;
  agentVersionId: string;
  versionNumber: number;
  skills: AgentSkillResolution[];
}

export interface SkillFile {
  path: string;
  size: number;
  sha256: string;
  bytes: Uint8Array;
  contentType: string;
  /** The file as text; null for a binary file (not valid UTF-8, or holding NUL). */
  text: string | null;
}

/** How `commitPackage` stores a package. */
export interface CommitPackageOptions {
  namespace: string | null;
  pluginId: string | null;
  source: SkillVersionSource;
  changeDescription?: string | null | undefined;
}

const SKILL_ID = /^skl_/;

export class SkillService {
  private readonly allowance: Allowance;

  constructor(
    private readonly store: PlatformStore,
    options: { allowance?: Allowance } = {},
  ) {
    this.allowance = options.allowance ?? UNLIMITED_ALLOWANCE;
  }

  // ---- skills ----

  /** By qualified name; `namespace` `-` = only the null namespace; `q` a substring of name or description. */
  async list(
    organizationId: string,
    query: { page: PageRequest; namespace?: string | undefined; q?: string | undefined },
  ): Promise<{ items: SkillRecord[]; total: number }> {
    const namespace = query.namespace === "-" ? null : query.namespace === "" ? undefined : query.namespace;
    return await this.store.skills.list(organizationId, query.page, {
      ...(namespace === undefined ? {} : { namespace }),
      ...(query.q === undefined ? {} : { search: query.q }),
    });
  }

  /** A skill of the organization by id or qualified name (404 otherwise). */
  async get(organizationId: string, skill: string): Promise<SkillRecord> {
    const found = SKILL_ID.test(skill)
      ? await this.store.skills.get(organizationId, skill)
      : await this.store.skills.byQualifiedName(organizationId, skill);
    if (found === null) throw notFound(`No skill ${skill}`, { param: "skill" });
    return found;
  }

  /**
   * Imports a package into the null namespace: a new skill (`created`), a new version
   * of the skill of that name (`versioned`), or nothing when its files equal the latest
   * active version's (`unchanged`). Everything is checked before anything is written.
   */
  async import(principal: Principal, input: SkillImportInput): Promise<SkillImportResult> {
    const pkg = "zip" in input ? await skillPackageFromZip(input.zip) : skillPackageFromFiles(input.files);
    const existing = await this.store.skills.byQualifiedName(principal.organizationId, pkg.name);
    if (existing?.pluginId != null) throw managedByPlugin(existing);
    return this.commitPackage(principal.organizationId, pkg, {
      namespace: null,
      pluginId: null,
      source: "import",
      changeDescription: input.changeDescription,
    });
  }

  /**
   * Stores a validated package as the skill `namespace:name` (created when absent), in one
   * transaction: `unchanged` when its files equal the latest active version's, else a new
   * version. The storage allowance is asked before writing. Plugins call this with their
   * namespace, id and `source: "plugin"`; callers decide who may change which skill.
   */
  async commitPackage(
    organizationId: string,
    pkg: SkillPackage,
    options: CommitPackageOptions,
  ): Promise<SkillImportResult> {
    const qualifiedName = options.namespace === null ? pkg.name : `${options.namespace}:${pkg.name}`;
    return await this.store.skills.atomically(async () => {
      const existing = await this.store.skills.byQualifiedName(organizationId, qualifiedName);
      const latest = existing === null ? null : await this.store.skills.latestVersion(existing.id);
      if (existing !== null && latest !== null && sameSkillFiles(latest.files, pkg.files)) {
        return { result: "unchanged" as const, skill: existing, version: latest };
      }
      await this.allowance.checkStorage?.(organizationId, pkg.totalSize);
      const skill =
        existing ??
        (await this.store.skills.create(organizationId, {
          name: pkg.name,
          namespace: options.namespace,
          description: pkg.description,
          pluginId: options.pluginId,
        }));
      const version = await this.store.skills.commitVersion(skill.id, {
        name: pkg.name,
        description: pkg.description,
        frontmatter: pkg.frontmatter,
        skillMd: pkg.skillMd,
        files: pkg.files,
        totalSize: pkg.totalSize,
        source: options.source,
        changeDescription: options.changeDescription ?? null,
      });
      return {
        result: existing === null ? ("created" as const) : ("versioned" as const),
        skill: (await this.store.skills.get(organizationId, skill.id)) as SkillRecord,
        version,
      };
    });
  }

  /**
   * Deletes a skill with its versions and labels; agent bindings to it become unresolved.
   * A plugin's skill goes only with `managed: true` (the plugin's own removal).
   */
  async delete(organizationId: string, skill: string, options: { managed?: boolean } = {}): Promise<void> {
    const found = await this.get(organizationId, skill);
    if (found.pluginId !== null && options.managed !== true) throw managedByPlugin(found);
    await this.store.skills.delete(organizationId, found.id);
  }

  // ---- versions ----

  async listVersions(
    organizationId: string,
    skill: string,
    page: PageRequest,
  ): Promise<{ items: SkillVersionRecord[]; total: number }> {
    return await this.store.skills.listVersions((await this.get(organizationId, skill)).id, page);
  }

  async latestVersion(organizationId: string, skill: string): Promise<SkillVersionRecord> {
    const found = await this.get(organizationId, skill);
    const version = await this.store.skills.latestVersion(found.id);
    if (version === null) throw notFound(`Skill ${found.qualifiedName} has no active version`);
    return version;
  }

  /** A version by id or number (deactivated ones included). */
  async getVersion(organizationId: string, skill: string, versionRef: string): Promise<SkillVersionRecord> {
    const found = await this.get(organizationId, skill);
    const version = await this.findVersion(organizationId, found.id, versionRef);
    if (version === null) {
      throw notFound(`Skill ${found.qualifiedName} has no version ${versionRef}`, { param: "versionId" });
    }
    return version;
  }

  /** Re-activates a version as a copy at the head (its files copied, so the storage allowance is asked). */
  async activateVersion(
    organizationId: string,
    skill: string,
    versionRef: string,
  ): Promise<SkillVersionRecord> {
    const source = await this.getVersion(organizationId, skill, versionRef);
    await this.allowance.checkStorage?.(organizationId, source.totalSize);
    return this.store.skills.atomically(
      async () =>
        await this.store.skills.commitVersion(source.skillId, {
          name: source.name,
          description: source.description,
          frontmatter: source.frontmatter,
          skillMd: source.skillMd,
          files: await this.store.skills.files(source.id),
          totalSize: source.totalSize,
          source: source.source,
          changeDescription: `Re-activated copy of version ${source.versionNumber}`,
          copiedFromVersionId: source.id,
        }),
    );
  }

  /** Deactivates a version (a second time is a no-op); `latest` moves back to the newest active one. */
  async deactivateVersion(organizationId: string, skill: string, versionRef: string): Promise<void> {
    const version = await this.getVersion(organizationId, skill, versionRef);
    await this.store.skills.deactivateVersion(version.skillId, version.id);
  }

  /** One file of a version, with how it is served and its text when it is text. */
  async readFile(
    organizationId: string,
    skill: string,
    versionRef: string,
    path: string,
  ): Promise<SkillFile> {
    const version = await this.getVersion(organizationId, skill, versionRef);
    const file = await this.store.skills.fileContent(version.id, path);
    if (file === null) {
      throw notFound(`Version ${version.versionNumber} of skill ${skill} has no file "${path}"`, {
        param: "path",
      });
    }
    return {
      ...file,
      contentType: skillFileContentType(file.path, file.bytes),
      text: skillFileText(file.bytes),
    };
  }

  /** Every file of a version with its bytes (a plugin export, the bash tool's `/skills` tree). */
  async versionFiles(
    versionId: string,
  ): Promise<Array<{ path: string; size: number; sha256: string; bytes: Uint8Array }>> {
    return await this.store.skills.files(versionId);
  }

  // ---- labels ----

  async listLabels(organizationId: string, skill: string): Promise<SkillLabelRecord[]> {
    return await this.store.skills.listLabels((await this.get(organizationId, skill)).id);
  }

  async createLabel(
    organizationId: string,
    skill: string,
    name: string,
    versionRef: string,
  ): Promise<SkillLabelRecord> {
    return this.labels(organizationId).create((await this.get(organizationId, skill)).id, name, versionRef);
  }

  async moveLabel(
    organizationId: string,
    skill: string,
    name: string,
    versionRef: string,
  ): Promise<SkillLabelRecord> {
    return this.labels(organizationId).move((await this.get(organizationId, skill)).id, name, versionRef);
  }

  async deleteLabel(organizationId: string, skill: string, name: string): Promise<void> {
    await this.labels(organizationId).delete((await this.get(organizationId, skill)).id, name);
  }

  // ---- resolution ----

  /**
   * `GET /v1/skills/resolve`: a binding (`name`, `namespace:name`, optionally `@ref`) to
   * one version; `ref` overrides the `@ref` part. 404 `skill_not_found` / `ref_not_found`,
   * 409 `ambiguous_skill`.
   */
  async resolve(organizationId: string, name: string, ref?: string): Promise<ResolvedSkill> {
    const binding = parseSkillBinding(name, "name");
    if (ref !== undefined && (ref.trim() === "" || /\s/.test(ref))) {
      throw invalidRequest("ref must be a label name or a version number", { param: "ref" });
    }
    const outcome = await this.resolveOne(organizationId, ref === undefined ? binding : { ...binding, ref });
    if (outcome.status === "resolved") return outcome.resolved as ResolvedSkill;
    const message = outcome.message as string;
    if (outcome.status === "ambiguous_skill")
      throw conflict(message, { param: "name", code: outcome.status });
    throw notFound(message, {
      param: outcome.status === "ref_not_found" && ref !== undefined ? "ref" : "name",
      code: outcome.status,
    });
  }

  /** Resolves bindings of the organization in one go, each with its status (never throws for a miss). */
  async resolveBindings(
    organizationId: string,
    bindings: ReadonlyArray<SkillBindingRef>,
  ): Promise<SkillBindingResolution[]> {
    return await Promise.all(bindings.map(async (binding) => await this.resolveOne(organizationId, binding)));
  }

  /** Every skill binding of an agent version (default `latest`) with its resolution (§4.5). */
  async agentSkills(principal: Principal, agentId: string, versionSelector?: string): Promise<AgentSkills> {
    const agent = await this.store.agents.get(principal.organizationId, agentId);
    if (agent === null) throw notFound(`No agent ${agentId}`, { param: "agentId" });
    let version: Awaited<ReturnType<typeof resolveVersion>> | null;
    if (versionSelector === undefined || versionSelector === LATEST_LABEL) {
      version = await this.store.agents.latestVersion(agent.id);
      if (version === null) throw notFound(`Agent ${agent.id} has no active version`, { param: "version" });
    } else {
      version = await resolveVersion(this.store, agent, versionSelector, {
        param: "version",
        requireActive: false,
      });
    }
    const bindings = agentSkillBindings(version.definition as unknown as AgentDefinition);
    const resolutions = await this.resolveBindings(principal.organizationId, bindings);
    return {
      agentId: agent.id,
      agentVersionId: version.id,
      versionNumber: version.versionNumber,
      skills: bindings.map((binding, index) => ({
        ...(resolutions[index] as SkillBindingResolution),
        source: binding.source,
      })),
    };
  }

  private async resolveOne(
    organizationId: string,
    binding: SkillBindingRef,
  ): Promise<SkillBindingResolution> {
    const miss = (status: SkillResolutionStatus, message: string): SkillBindingResolution => ({
      binding: binding.binding,
      status,
      resolved: null,
      message,
    });
    let skill: SkillRecord | null;
    if (binding.namespace !== null) {
      skill = await this.store.skills.byQualifiedName(organizationId, binding.qualifiedName);
    } else {
      const candidates = await this.store.skills.byName(organizationId, binding.name);
      const [first] = candidates;
      if (first !== undefined && first.namespace === null) skill = first;
      else if (candidates.length > 1) {
        return miss(
          "ambiguous_skill",
          `Skill "${binding.name}" is ambiguous: ${candidates.map((c) => c.qualifiedName).join(", ")}; bind it as namespace:name`,
        );
      } else skill = first ?? null;
    }
    if (skill === null) return miss("skill_not_found", `No skill "${binding.qualifiedName}"`);
    const ref = binding.ref ?? LATEST_LABEL;
    const byNumber = /^\d+$/.test(ref);
    let version: SkillVersionRef | null;
    if (byNumber) version = await this.store.skills.versionRefByNumber(skill.id, Number(ref));
    else version = await this.store.skills.labelledVersionRef(skill.id, ref);
    if (version === null) {
      return miss(
        "ref_not_found",
        ref === LATEST_LABEL
          ? `Skill "${skill.qualifiedName}" has no active version`
          : `Skill "${skill.qualifiedName}" has no ${byNumber ? "version" : "label"} "${ref}"`,
      );
    }
    return {
      binding: binding.binding,
      status: "resolved",
      message: null,
      resolved: {
        skillId: skill.id,
        qualifiedName: skill.qualifiedName,
        namespace: skill.namespace,
        name: skill.name,
        description: version.description,
        versionId: version.id,
        versionNumber: version.versionNumber,
        ref,
        label: byNumber ? null : ref,
      },
    };
  }

  private async findVersion(
    organizationId: string,
    skillId: string,
    versionRef: string,
  ): Promise<SkillVersionRecord | null> {
    if (/^\d+$/.test(versionRef))
      return await this.store.skills.getVersionByNumber(skillId, Number(versionRef));
    return await this.store.skills.getVersion(organizationId, skillId, versionRef);
  }

  /** The shared label rules over this organization's skill versions. */
  private labels(organizationId: string): VersionLabels<SkillLabelRecord, SkillVersionRecord> {
    return new VersionLabels({
      noun: "Skill",
      versionParam: "skillVersionId",
      storage: this.store.skills,
      findVersion: async (skillId, versionRef) => await this.findVersion(organizationId, skillId, versionRef),
    });
  }
}

function managedByPlugin(skill: SkillRecord) {
  return conflict(
    `Skill ${skill.qualifiedName} is managed by plugin ${skill.pluginId}; change it through the plugin`,
    { code: "managed_by_plugin" },
  );
}
