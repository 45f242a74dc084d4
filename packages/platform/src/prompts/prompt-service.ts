/**
 * Prompts (PLATFORM.md §7): text and chat prompts, immutable numbered versions, labels
 * (`latest` is the system label; `production` is ordinary except that activate moves it),
 * resolve, compile and a test call through the gateway's chat path. Roles are checked at the
 * edge; this service holds the rules. `{prompt}` is an id (`prm_…`) or a name; `{vid}` is a
 * version id or number.
 */
import {
  conflict,
  invalidRequest,
  missingTemplateVariables,
  missingVariablesError,
  notFound,
  type PageRequest,
  type ParsedTemplate,
  type Principal,
  parseTemplate,
  templateValueText,
  templateVariables,
} from "@groundwork/core";
import { chatRequestSchema, type Gateway } from "@groundwork/gateway";
import {
  LATEST_LABEL,
  type PromptContent,
  type PromptLabelRecord,
  type PromptMessage,
  type PromptRecord,
  type PromptType,
  type PromptVersionRecord,
} from "@groundwork/store-sqlite";
import { z } from "zod";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";
import { VersionLabels } from "../versioning/version-labels.js";
import {
  type PromptCompileInput,
  type PromptCreateInput,
  type PromptListQuery,
  type PromptResolveQuery,
  type PromptSelection,
  type PromptTestInput,
  type PromptUpdateInput,
  type PromptVersionInput,
  promptCompileBody,
  promptCreateBody,
  promptLabelCreateBody,
  promptLabelUpdateBody,
  promptListQuery,
  promptMessages,
  promptResolveQuery,
  promptTestBody,
  promptText,
  promptUpdateBody,
  promptVersionBody,
} from "./prompt-bodies.js";

/** The label activate moves to the version it activates. */
export const PRODUCTION_LABEL = "production";

/**
 * Whether something outside prompts (an experiment variant, §11) uses the prompt; a prompt
 * in use is not deleted (409 `prompt_in_use`). Supplied by the experiments service.
 */
export type PromptInUseCheck = (organizationId: string, promptId: string) => boolean | Promise<boolean>;

export interface PromptServiceOptions {
  isPromptInUse?: PromptInUseCheck;
  /** How many versions' parsed templates are kept (versions are immutable). */
  templateCacheSize?: number;
}

/** A version as the API shows it: with its prompt's type and the labels pointing at it. */
export interface PromptVersionView extends PromptVersionRecord {
  type: PromptType;
  labels: string[];
}

export interface ResolvedPrompt {
  promptId: string;
  name: string;
  type: PromptType;
  versionId: string;
  versionNumber: number;
  /** The label that selected the version; null when a version number did. */
  label: string | null;
  prompt: PromptContent;
  config: Record<string, unknown>;
  variables: string[];
}

export interface CompiledPrompt {
  promptId: string;
  versionId: string;
  versionNumber: number;
  type: PromptType;
  compiled: PromptContent;
}

export interface PromptTestResult {
  promptId: string;
  versionId: string;
  versionNumber: number;
  compiled: PromptContent;
  model: string;
  output: string | null;
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
  latencyMs: number;
}

export class PromptService {
  private inUse: PromptInUseCheck | null;
  private readonly templates = new Map<string, ParsedTemplate[]>();
  private readonly templateCacheSize: number;

  constructor(
    private readonly store: PlatformStore,
    private readonly gateway: Gateway,
    options: PromptServiceOptions = {},
  ) {
    this.inUse = options.isPromptInUse ?? null;
    this.templateCacheSize = options.templateCacheSize ?? 1000;
  }

  /** Installs the check that refuses deleting a prompt in use (the experiments service calls this). */
  setInUseCheck(check: PromptInUseCheck | null): void {
    this.inUse = check;
  }

  // ---- prompts ----

  async list(
    organizationId: string,
    query: PromptListQuery | unknown,
    page: PageRequest,
  ): Promise<{ items: PromptRecord[]; total: number }> {
    return await this.store.prompts.list(organizationId, validate(promptListQuery, query ?? {}), page);
  }

  /** Creates a prompt; with `prompt`, version 1 too (and `labels` on it), all or nothing. */
  async create(organizationId: string, raw: PromptCreateInput): Promise<PromptRecord> {
    const input = validate(promptCreateBody, raw);
    const content = input.prompt === undefined ? undefined : checkedContent(input.type, input.prompt);
    if (input.labels !== undefined) checkLabelNames(input.labels);
    const created = await this.store.prompts.atomically(async () => {
      const prompt = await this.store.prompts.create(organizationId, {
        name: input.name,
        type: input.type,
        description: input.description ?? null,
        tags: input.tags ?? [],
      });
      if (prompt === null) return null;
      if (content !== undefined) {
        await this.commit(organizationId, prompt.id, content, input.config ?? {}, null, input.labels ?? []);
      }
      return prompt;
    });
    if (created === null) {
      throw conflict(`A prompt named "${input.name}" exists already`, { param: "name" });
    }
    return await this.get(organizationId, created.id);
  }

  /** A prompt of the organization by id (`prm_…`) or name; 404 otherwise. */
  async get(organizationId: string, ref: string): Promise<PromptRecord> {
    const prompt = ref.startsWith("prm_")
      ? await this.store.prompts.get(organizationId, ref)
      : await this.store.prompts.getByName(organizationId, ref);
    if (prompt === null) throw notFound(`No prompt ${ref}`, { param: "prompt" });
    return prompt;
  }

  async update(organizationId: string, ref: string, raw: PromptUpdateInput): Promise<PromptRecord> {
    const prompt = await this.get(organizationId, ref);
    const input = validate(promptUpdateBody, raw);
    const updated = await this.store.prompts.update(organizationId, prompt.id, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.tags === undefined ? {} : { tags: input.tags }),
    });
    if (updated === "conflict") {
      throw conflict(`A prompt named "${input.name}" exists already`, { param: "name" });
    }
    if (updated === null) throw notFound(`No prompt ${ref}`, { param: "prompt" });
    return updated;
  }

  /** Deletes the prompt with its versions and labels, unless an experiment variant uses it. */
  async delete(organizationId: string, ref: string): Promise<void> {
    const prompt = await this.get(organizationId, ref);
    if ((await this.inUse?.(organizationId, prompt.id)) === true) {
      throw conflict(`Prompt "${prompt.name}" is used by an experiment variant; remove the variant first`, {
        code: "prompt_in_use",
      });
    }
    await this.store.prompts.delete(organizationId, prompt.id);
  }

  // ---- resolve, compile, test ----

  async resolve(
    organizationId: string,
    ref: string,
    query: PromptResolveQuery | unknown = {},
  ): Promise<ResolvedPrompt> {
    const prompt = await this.get(organizationId, ref);
    const selection = validate(promptResolveQuery, query ?? {});
    const { version, label } = await this.select(prompt, selection);
    return {
      promptId: prompt.id,
      name: prompt.name,
      type: prompt.type,
      versionId: version.id,
      versionNumber: version.versionNumber,
      label,
      prompt: version.prompt,
      config: version.config,
      variables: version.variables,
    };
  }

  async compile(organizationId: string, ref: string, raw: PromptCompileInput = {}): Promise<CompiledPrompt> {
    const prompt = await this.get(organizationId, ref);
    const input = validate(promptCompileBody, raw ?? {});
    const { version } = await this.select(prompt, input);
    return {
      promptId: prompt.id,
      versionId: version.id,
      versionNumber: version.versionNumber,
      type: prompt.type,
      compiled: this.compileVersion(version, input.variables ?? {}),
    };
  }

  /** Compiles a version's template(s); `missing_variables` names every missing name over all messages. */
  compileVersion(version: PromptVersionRecord, variables: Readonly<Record<string, unknown>>): PromptContent {
    const parsed = this.parsed(version);
    const missing = missingTemplateVariables(parsed, variables);
    if (missing.length > 0) throw missingVariablesError(missing);
    if (typeof version.prompt === "string") return fill(parsed[0] as ParsedTemplate, variables);
    return version.prompt.map((message, index) => ({
      role: message.role,
      content: fill(parsed[index] as ParsedTemplate, variables),
    }));
  }

  /** Compiles, then makes one metered chat call through the gateway for the caller. */
  async test(
    principal: Principal,
    ref: string,
    raw: PromptTestInput,
    signal?: AbortSignal,
  ): Promise<PromptTestResult> {
    const prompt = await this.get(principal.organizationId, ref);
    const input = validate(promptTestBody, raw ?? {});
    const { version } = await this.select(prompt, input);
    const compiled = this.compileVersion(version, input.variables ?? {});
    const config: Record<string, unknown> = { ...version.config, ...(input.config ?? {}) };
    const model = input.model ?? config.model;
    if (typeof model !== "string" || model === "") {
      throw invalidRequest("Give a model, in the body or the version's config.model", {
        param: "model",
        code: "model_required",
      });
    }
    const messages = typeof compiled === "string" ? [{ role: "user" as const, content: compiled }] : compiled;
    const body = validate(chatRequestSchema, {
      model,
      messages,
      ...(typeof config.temperature === "number" ? { temperature: config.temperature } : {}),
      ...(typeof config.maxTokens === "number" ? { max_completion_tokens: config.maxTokens } : {}),
      ...(typeof config.topP === "number" ? { top_p: config.topP } : {}),
    });
    const started = performance.now();
    const completion = await this.gateway.chat(
      body,
      signal === undefined ? { principal } : { principal, signal },
    );
    const latencyMs = Math.round(performance.now() - started);
    const choice = completion.choices[0];
    const promptTokens = completion.usage?.prompt_tokens ?? 0;
    const completionTokens = completion.usage?.completion_tokens ?? 0;
    return {
      promptId: prompt.id,
      versionId: version.id,
      versionNumber: version.versionNumber,
      compiled,
      model,
      output: choice?.message.content ?? null,
      finishReason: choice?.finish_reason ?? null,
      usage: {
        promptTokens,
        completionTokens,
        totalTokens: completion.usage?.total_tokens ?? promptTokens + completionTokens,
      },
      latencyMs,
    };
  }

  // ---- versions ----

  async listVersions(
    organizationId: string,
    ref: string,
    page: PageRequest,
  ): Promise<{ items: PromptVersionView[]; total: number }> {
    const prompt = await this.get(organizationId, ref);
    const result = await this.store.prompts.listVersions(prompt.id, page);
    return {
      items: await Promise.all(result.items.map(async (version) => await this.view(prompt, version))),
      total: result.total,
    };
  }

  /** Commits a new version (it becomes `latest`) and points `labels` at it. */
  async createVersion(
    organizationId: string,
    ref: string,
    raw: PromptVersionInput,
  ): Promise<PromptVersionView> {
    const prompt = await this.get(organizationId, ref);
    const input = validate(promptVersionBody, raw);
    const content = checkedContent(prompt.type, input.prompt);
    if (input.labels !== undefined) checkLabelNames(input.labels);
    const version = await this.store.prompts.atomically(
      async () =>
        await this.commit(
          organizationId,
          prompt.id,
          content,
          input.config ?? {},
          input.changeDescription ?? null,
          input.labels ?? [],
        ),
    );
    return await this.view(prompt, version);
  }

  async latestVersion(organizationId: string, ref: string): Promise<PromptVersionView> {
    const prompt = await this.get(organizationId, ref);
    const version = await this.store.prompts.latestVersion(prompt.id);
    if (version === null) throw notFound(`Prompt "${prompt.name}" has no active version yet`);
    return this.view(prompt, version);
  }

  async getVersion(organizationId: string, ref: string, versionRef: string): Promise<PromptVersionView> {
    const prompt = await this.get(organizationId, ref);
    return await this.view(prompt, await this.version(prompt, versionRef));
  }

  /**
   * Labels a version `production` (creating the label when absent); a deactivated version is
   * first copied to the head (`copiedFromVersionId`) and the copy is labelled.
   */
  async activateVersion(organizationId: string, ref: string, versionRef: string): Promise<PromptVersionView> {
    const prompt = await this.get(organizationId, ref);
    const source = await this.version(prompt, versionRef);
    const target = await this.store.prompts.atomically(async () => {
      const active = source.active
        ? source
        : await this.store.prompts.commitVersion(prompt.id, {
            prompt: source.prompt,
            config: source.config,
            variables: source.variables,
            changeDescription: `Re-activated copy of version ${source.versionNumber}`,
            copiedFromVersionId: source.id,
          });
      await this.labels(organizationId).set(prompt.id, PRODUCTION_LABEL, active.id);
      return active;
    });
    return await this.view(prompt, target);
  }

  /** Soft delete; a second time is a no-op. */
  async deactivateVersion(organizationId: string, ref: string, versionRef: string): Promise<void> {
    const prompt = await this.get(organizationId, ref);
    const version = await this.version(prompt, versionRef);
    await this.store.prompts.deactivateVersion(prompt.id, version.id);
  }

  // ---- labels ----

  async listLabels(organizationId: string, ref: string): Promise<PromptLabelRecord[]> {
    return await this.store.prompts.listLabels((await this.get(organizationId, ref)).id);
  }

  async createLabel(organizationId: string, ref: string, raw: { name: string; promptVersionId: string }) {
    const prompt = await this.get(organizationId, ref);
    const input = validate(promptLabelCreateBody, raw);
    return this.labels(organizationId).create(prompt.id, input.name, input.promptVersionId);
  }

  async moveLabel(
    organizationId: string,
    ref: string,
    name: string,
    raw: { promptVersionId: string },
  ): Promise<PromptLabelRecord> {
    const prompt = await this.get(organizationId, ref);
    const input = validate(promptLabelUpdateBody, raw);
    return this.labels(organizationId).move(prompt.id, name, input.promptVersionId);
  }

  async deleteLabel(organizationId: string, ref: string, name: string): Promise<void> {
    await this.labels(organizationId).delete((await this.get(organizationId, ref)).id, name);
  }

  // ---- internals ----

  /** A version of the prompt by id or number (active or not); 404 otherwise. */
  private async version(prompt: PromptRecord, versionRef: string): Promise<PromptVersionRecord> {
    const version = await this.findVersion(prompt.id, versionRef);
    if (version === null) throw notFound(`Prompt "${prompt.name}" has no version ${versionRef}`);
    return version;
  }

  private async findVersion(promptId: string, versionRef: string): Promise<PromptVersionRecord | null> {
    return /^\d{1,9}$/.test(versionRef)
      ? await this.store.prompts.getVersionByNumber(promptId, Number(versionRef))
      : await this.store.prompts.getVersion(promptId, versionRef);
  }

  /**
   * The version a resolve, compile or test uses: the given number, or the given label, or
   * `production` when that label exists, else `latest`. Only active versions are served.
   */
  private async select(
    prompt: PromptRecord,
    selection: PromptSelection,
  ): Promise<{ version: PromptVersionRecord; label: string | null }> {
    if (selection.label !== undefined && selection.version !== undefined) {
      throw invalidRequest("Give label or version, not both", { param: "version" });
    }
    let version: PromptVersionRecord | null;
    let label: string | null = null;
    if (selection.version !== undefined) {
      version = await this.store.prompts.getVersionByNumber(prompt.id, selection.version);
      if (version === null) {
        throw notFound(`Prompt "${prompt.name}" has no version ${selection.version}`, { param: "version" });
      }
    } else {
      label =
        selection.label ??
        ((await this.store.prompts.getLabel(prompt.id, PRODUCTION_LABEL)) === null
          ? LATEST_LABEL
          : PRODUCTION_LABEL);
      const found = await this.store.prompts.getLabel(prompt.id, label);
      if (found === null) {
        throw notFound(`Prompt "${prompt.name}" has no label "${label}"`, { param: "label" });
      }
      version =
        found.promptVersionId === null ? null : await this.store.prompts.versionById(found.promptVersionId);
      if (version === null) {
        throw notFound(`Label "${label}" of prompt "${prompt.name}" points at no version yet`, {
          param: "label",
        });
      }
    }
    if (!version.active) {
      throw notFound(`Version ${version.versionNumber} of prompt "${prompt.name}" is deactivated`, {
        param: label === null ? "version" : "label",
      });
    }
    return { version, label };
  }

  /** Commits a version and points the given labels at it (inside the caller's transaction). */
  private async commit(
    organizationId: string,
    promptId: string,
    content: PromptContent,
    config: Record<string, unknown>,
    changeDescription: string | null,
    labelNames: readonly string[],
  ): Promise<PromptVersionRecord> {
    const version = await this.store.prompts.commitVersion(promptId, {
      prompt: content,
      config,
      variables: contentVariables(content),
      changeDescription,
    });
    const labels = this.labels(organizationId);
    for (const name of new Set(labelNames)) await labels.set(promptId, name, version.id);
    return version;
  }

  private async view(prompt: PromptRecord, version: PromptVersionRecord): Promise<PromptVersionView> {
    return { ...version, type: prompt.type, labels: await this.store.prompts.labelsOf(version.id) };
  }

  /** The version's templates parsed once (one per message of a chat prompt). */
  private parsed(version: PromptVersionRecord): ParsedTemplate[] {
    let parsed = this.templates.get(version.id);
    if (parsed === undefined) {
      parsed =
        typeof version.prompt === "string"
          ? [parseTemplate(version.prompt)]
          : version.prompt.map((message) => parseTemplate(message.content));
      if (this.templates.size >= this.templateCacheSize) {
        const oldest = this.templates.keys().next().value;
        if (oldest !== undefined) this.templates.delete(oldest);
      }
      this.templates.set(version.id, parsed);
    }
    return parsed;
  }

  /** The shared label rules over this organization's prompt versions. */
  private labels(organizationId: string): VersionLabels<PromptLabelRecord, PromptVersionRecord> {
    return new VersionLabels({
      noun: "Prompt",
      versionParam: "promptVersionId",
      storage: this.store.prompts,
      findVersion: async (promptId, versionRef) =>
        (await this.store.prompts.get(organizationId, promptId)) === null
          ? null
          : await this.findVersion(promptId, versionRef),
    });
  }
}

/** Fills a parsed template whose variables are all present. */
function fill(parts: ParsedTemplate, variables: Readonly<Record<string, unknown>>): string {
  let text = parts[0] as string;
  for (let index = 1; index < parts.length; index += 2) {
    text += templateValueText(variables[parts[index] as string]) + (parts[index + 1] as string);
  }
  return text;
}

/** Distinct variable names over the text or all messages, in order of first use. */
export function contentVariables(content: PromptContent): string[] {
  if (typeof content === "string") return templateVariables(content);
  const names = new Set<string>();
  for (const message of content) for (const name of templateVariables(message.content)) names.add(name);
  return [...names];
}

/** A version's `prompt` in the shape of the prompt's type, or the 400 naming `prompt`. */
function checkedContent(type: PromptType, value: unknown): PromptContent {
  if (type === "text") {
    if (typeof value !== "string") {
      throw invalidRequest("prompt: a text prompt's version is a string", { param: "prompt" });
    }
    return validate(z.object({ prompt: promptText }), { prompt: value }).prompt;
  }
  if (!Array.isArray(value)) {
    throw invalidRequest("prompt: a chat prompt's version is an array of {role, content} messages", {
      param: "prompt",
    });
  }
  return validate(z.object({ prompt: promptMessages }), { prompt: value }).prompt as PromptMessage[];
}

/** `latest` is the system label: it cannot be set by hand (409). */
function checkLabelNames(names: readonly string[]): void {
  if (names.includes(LATEST_LABEL)) {
    throw conflict(`"${LATEST_LABEL}" is the system label; it moves to each new version by itself`, {
      param: "labels",
    });
  }
}
