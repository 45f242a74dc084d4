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
  type Store,
} from "@groundwork/store-sqlite";
import { z } from "zod";
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
export type PromptInUseCheck = (organizationId: string, promptId: string) => boolean;

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
    private readonly store: Store,
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

  list(
    organizationId: string,
    query: PromptListQuery | unknown,
    page: PageRequest,
  ): { items: PromptRecord[]; total: number } {
    return this.store.prompts.list(organizationId, validate(promptListQuery, query ?? {}), page);
  }

  /** Creates a prompt; with `prompt`, version 1 too (and `labels` on it), all or nothing. */
  create(organizationId: string, raw: PromptCreateInput): PromptRecord {
    const input = validate(promptCreateBody, raw);
    const content = input.prompt === undefined ? undefined : checkedContent(input.type, input.prompt);
    if (input.labels !== undefined) checkLabelNames(input.labels);
    const created = this.store.prompts.transaction(() => {
      const prompt = this.store.prompts.create(organizationId, {
        name: input.name,
        type: input.type,
        description: input.description ?? null,
        tags: input.tags ?? [],
      });
      if (prompt === null) return null;
      if (content !== undefined) {
        this.commit(organizationId, prompt.id, content, input.config ?? {}, null, input.labels ?? []);
      }
      return prompt;
    });
    if (created === null) {
      throw conflict(`A prompt named "${input.name}" exists already`, { param: "name" });
    }
    return this.get(organizationId, created.id);
  }

  /** A prompt of the organization by id (`prm_…`) or name; 404 otherwise. */
  get(organizationId: string, ref: string): PromptRecord {
    const prompt = ref.startsWith("prm_")
      ? this.store.prompts.get(organizationId, ref)
      : this.store.prompts.getByName(organizationId, ref);
    if (prompt === null) throw notFound(`No prompt ${ref}`, { param: "prompt" });
    return prompt;
  }

  update(organizationId: string, ref: string, raw: PromptUpdateInput): PromptRecord {
    const prompt = this.get(organizationId, ref);
    const input = validate(promptUpdateBody, raw);
    const updated = this.store.prompts.update(organizationId, prompt.id, {
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
  delete(organizationId: string, ref: string): void {
    const prompt = this.get(organizationId, ref);
    if (this.inUse?.(organizationId, prompt.id) === true) {
      throw conflict(`Prompt "${prompt.name}" is used by an experiment variant; remove the variant first`, {
        code: "prompt_in_use",
      });
    }
    this.store.prompts.delete(organizationId, prompt.id);
  }

  // ---- resolve, compile, test ----

  resolve(organizationId: string, ref: string, query: PromptResolveQuery | unknown = {}): ResolvedPrompt {
    const prompt = this.get(organizationId, ref);
    const selection = validate(promptResolveQuery, query ?? {});
    const { version, label } = this.select(prompt, selection);
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

  compile(organizationId: string, ref: string, raw: PromptCompileInput = {}): CompiledPrompt {
    const prompt = this.get(organizationId, ref);
    const input = validate(promptCompileBody, raw ?? {});
    const { version } = this.select(prompt, input);
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
    const prompt = this.get(principal.organizationId, ref);
    const input = validate(promptTestBody, raw ?? {});
    const { version } = this.select(prompt, input);
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

  listVersions(
    organizationId: string,
    ref: string,
    page: PageRequest,
  ): { items: PromptVersionView[]; total: number } {
    const prompt = this.get(organizationId, ref);
    const result = this.store.prompts.listVersions(prompt.id, page);
    return { items: result.items.map((version) => this.view(prompt, version)), total: result.total };
  }

  /** Commits a new version (it becomes `latest`) and points `labels` at it. */
  createVersion(organizationId: string, ref: string, raw: PromptVersionInput): PromptVersionView {
    const prompt = this.get(organizationId, ref);
    const input = validate(promptVersionBody, raw);
    const content = checkedContent(prompt.type, input.prompt);
    if (input.labels !== undefined) checkLabelNames(input.labels);
    const version = this.store.prompts.transaction(() =>
      this.commit(
        organizationId,
        prompt.id,
        content,
        input.config ?? {},
        input.changeDescription ?? null,
        input.labels ?? [],
      ),
    );
    return this.view(prompt, version);
  }

  latestVersion(organizationId: string, ref: string): PromptVersionView {
    const prompt = this.get(organizationId, ref);
    const version = this.store.prompts.latestVersion(prompt.id);
    if (version === null) throw notFound(`Prompt "${prompt.name}" has no active version yet`);
    return this.view(prompt, version);
  }

  getVersion(organizationId: string, ref: string, versionRef: string): PromptVersionView {
    const prompt = this.get(organizationId, ref);
    return this.view(prompt, this.version(prompt, versionRef));
  }

  /**
   * Labels a version `production` (creating the label when absent); a deactivated version is
   * first copied to the head (`copiedFromVersionId`) and the copy is labelled.
   */
  activateVersion(organizationId: string, ref: string, versionRef: string): PromptVersionView {
    const prompt = this.get(organizationId, ref);
    const source = this.version(prompt, versionRef);
    const target = this.store.prompts.transaction(() => {
      const active = source.active
        ? source
        : this.store.prompts.commitVersion(prompt.id, {
            prompt: source.prompt,
            config: source.config,
            variables: source.variables,
            changeDescription: `Re-activated copy of version ${source.versionNumber}`,
            copiedFromVersionId: source.id,
          });
      this.labels(organizationId).set(prompt.id, PRODUCTION_LABEL, active.id);
      return active;
    });
    return this.view(prompt, target);
  }

  /** Soft delete; a second time is a no-op. */
  deactivateVersion(organizationId: string, ref: string, versionRef: string): void {
    const prompt = this.get(organizationId, ref);
    const version = this.version(prompt, versionRef);
    this.store.prompts.deactivateVersion(prompt.id, version.id);
  }

  // ---- labels ----

  listLabels(organizationId: string, ref: string): PromptLabelRecord[] {
    return this.store.prompts.listLabels(this.get(organizationId, ref).id);
  }

  createLabel(organizationId: string, ref: string, raw: { name: string; promptVersionId: string }) {
    const prompt = this.get(organizationId, ref);
    const input = validate(promptLabelCreateBody, raw);
    return this.labels(organizationId).create(prompt.id, input.name, input.promptVersionId);
  }

  moveLabel(
    organizationId: string,
    ref: string,
    name: string,
    raw: { promptVersionId: string },
  ): PromptLabelRecord {
    const prompt = this.get(organizationId, ref);
    const input = validate(promptLabelUpdateBody, raw);
    return this.labels(organizationId).move(prompt.id, name, input.promptVersionId);
  }

  deleteLabel(organizationId: string, ref: string, name: string): void {
    this.labels(organizationId).delete(this.get(organizationId, ref).id, name);
  }

  // ---- internals ----

  /** A version of the prompt by id or number (active or not); 404 otherwise. */
  private version(prompt: PromptRecord, versionRef: string): PromptVersionRecord {
    const version = this.findVersion(prompt.id, versionRef);
    if (version === null) throw notFound(`Prompt "${prompt.name}" has no version ${versionRef}`);
    return version;
  }

  private findVersion(promptId: string, versionRef: string): PromptVersionRecord | null {
    return /^\d{1,9}$/.test(versionRef)
      ? this.store.prompts.getVersionByNumber(promptId, Number(versionRef))
      : this.store.prompts.getVersion(promptId, versionRef);
  }

  /**
   * The version a resolve, compile or test uses: the given number, or the given label, or
   * `production` when that label exists, else `latest`. Only active versions are served.
   */
  private select(
    prompt: PromptRecord,
    selection: PromptSelection,
  ): { version: PromptVersionRecord; label: string | null } {
    if (selection.label !== undefined && selection.version !== undefined) {
      throw invalidRequest("Give label or version, not both", { param: "version" });
    }
    let version: PromptVersionRecord | null;
    let label: string | null = null;
    if (selection.version !== undefined) {
      version = this.store.prompts.getVersionByNumber(prompt.id, selection.version);
      if (version === null) {
        throw notFound(`Prompt "${prompt.name}" has no version ${selection.version}`, { param: "version" });
      }
    } else {
      label =
        selection.label ??
        (this.store.prompts.getLabel(prompt.id, PRODUCTION_LABEL) === null ? LATEST_LABEL : PRODUCTION_LABEL);
      const found = this.store.prompts.getLabel(prompt.id, label);
      if (found === null) {
        throw notFound(`Prompt "${prompt.name}" has no label "${label}"`, { param: "label" });
      }
      version = found.promptVersionId === null ? null : this.store.prompts.versionById(found.promptVersionId);
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
  private commit(
    organizationId: string,
    promptId: string,
    content: PromptContent,
    config: Record<string, unknown>,
    changeDescription: string | null,
    labelNames: readonly string[],
  ): PromptVersionRecord {
    const version = this.store.prompts.commitVersion(promptId, {
      prompt: content,
      config,
      variables: contentVariables(content),
      changeDescription,
    });
    const labels = this.labels(organizationId);
    for (const name of new Set(labelNames)) labels.set(promptId, name, version.id);
    return version;
  }

  private view(prompt: PromptRecord, version: PromptVersionRecord): PromptVersionView {
    return { ...version, type: prompt.type, labels: this.store.prompts.labelsOf(version.id) };
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
      findVersion: (promptId, versionRef) =>
        this.store.prompts.get(organizationId, promptId) === null
          ? null
          : this.findVersion(promptId, versionRef),
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
