/**
 * What a variant does with one dataset item (PLATFORM.md §11 "Inputs"): a `model` variant sends
 * the input as chat messages, a `prompt` variant compiles its resolved prompt version with the
 * input as variables, an `agent` variant runs the agent (a pause fails the item `agent_paused`),
 * an `extraction` variant extracts with its resolved schema version (the output is the extracted
 * JSON). Plans — what a run resolved once (a prompt version, a schema version, a model) — are
 * made when a run first starts and reused when it resumes, so a label moved mid-run changes
 * nothing.
 */
import { PAUSED_STATUSES } from "@groundwork/agents";
import { conflict, invalidRequest, isGroundworkError, type Principal } from "@groundwork/core";
import type { ExtractionGrounding } from "@groundwork/evaluation";
import { type ChatRequestBody, chatRequestSchema, type Gateway, type TokenPrice } from "@groundwork/gateway";
import type { RunUsage, VariantRecord } from "@groundwork/store-sqlite";
import type { AgentRunner } from "../agents/agent-runner.js";
import { type ExtractionService, extractionResult } from "../extraction/extraction-service.js";
import { builtinCostEur } from "../gateway/builtin-cost.js";
import type { PromptService } from "../prompts/prompt-service.js";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";

export interface VariantParams {
  temperature?: number;
  maxTokens?: number;
  topP?: number;
}

/** What a run resolved for its variant when it first started. */
export type VariantPlan =
  | { kind: "model"; model: string }
  | { kind: "prompt"; promptId: string; promptVersionId: string; versionNumber: number; model: string }
  | { kind: "agent"; agent: string }
  | {
      kind: "extraction";
      schemaId: string;
      schemaVersionId: string;
      versionNumber: number;
      model: string;
      strategy: "SINGLE_SHOT" | "CHUNKED" | null;
    };

/** One item's outcome before evaluation. */
export interface ItemRun {
  status: "completed" | "failed";
  output: string | null;
  error: string | null;
  latencyMs: number;
  usage: RunUsage;
  /** An extraction's grounding report, for the `grounding` evaluator. */
  grounding: ExtractionGrounding | null;
}

export interface ExecutorDeps {
  store: PlatformStore;
  gateway: Gateway;
  prompts: PromptService;
  agents: AgentRunner | null;
  extraction: ExtractionService | null;
  chatPrices: Readonly<Record<string, TokenPrice>>;
}

const NO_USAGE: RunUsage = { inputTokens: 0, outputTokens: 0, costEur: 0 };

/** The item failed before or in the call: no output, the reason as error. */
class ItemFailure extends Error {}

/**
 * Resolves the variant's references once per run. Throws a GroundworkError when a reference
 * no longer resolves (the run then fails with it: PLATFORM.md "plan errors").
 */
export async function planVariant(
  deps: ExecutorDeps,
  organizationId: string,
  variant: VariantRecord,
): Promise<VariantPlan> {
  const config = variant.config;
  switch (variant.kind) {
    case "model":
      return { kind: "model", model: String(config.model) };
    case "agent":
      return { kind: "agent", agent: String(config.agent) };
    case "prompt": {
      const ref = config.promptRef;
      const query =
        ref === undefined || ref === null
          ? {}
          : typeof ref === "number" || /^\d{1,9}$/.test(String(ref))
            ? { version: String(ref) }
            : { label: String(ref) };
      const resolved = await deps.prompts.resolve(organizationId, String(config.promptId), query);
      const model =
        typeof config.model === "string" && config.model !== ""
          ? config.model
          : typeof resolved.config.model === "string"
            ? resolved.config.model
            : null;
      if (model === null || model === "") {
        throw invalidRequest(
          `Variant "${variant.name}": give a model, on the variant or in the prompt version's config.model`,
          { param: "model", code: "model_required" },
        );
      }
      return {
        kind: "prompt",
        promptId: resolved.promptId,
        promptVersionId: resolved.versionId,
        versionNumber: resolved.versionNumber,
        model,
      };
    }
    case "extraction": {
      const extraction = deps.extraction;
      if (extraction === null) throw conflict("Extraction variants need the extraction service");
      const schemaId = String(config.schemaId);
      const ref = config.schemaRef;
      const version = await resolveSchemaVersion(deps.store, organizationId, schemaId, ref);
      const model =
        typeof config.model === "string" && config.model !== ""
          ? config.model
          : defaultExtractionModel(version.extractionConfig);
      if (model === null) {
        throw invalidRequest(`Variant "${variant.name}": give a model for the extraction`, {
          param: "model",
          code: "model_required",
        });
      }
      const strategy =
        config.strategy === "SINGLE_SHOT" || config.strategy === "CHUNKED" ? config.strategy : null;
      return {
        kind: "extraction",
        schemaId,
        schemaVersionId: version.id,
        versionNumber: version.versionNumber,
        model,
        strategy,
      };
    }
  }
}

/** A schema version by label (default `latest`), version number or version id — as schema resolve reads it. */
async function resolveSchemaVersion(
  store: PlatformStore,
  organizationId: string,
  schemaId: string,
  ref: unknown,
) {
  const schema = await store.schemas.get(organizationId, schemaId);
  if (schema === null) throw invalidRequest(`No schema ${schemaId}`, { param: "schemaId" });
  let version = null;
  if (typeof ref === "number" || (typeof ref === "string" && /^\d{1,9}$/.test(ref))) {
    version = await store.schemas.getVersionByNumber(schema.id, Number(ref));
  } else if (typeof ref === "string" && ref.includes("_")) {
    version = await store.schemas.getVersion(organizationId, schema.id, ref);
  } else {
    const label = await store.schemas.getLabel(schema.id, typeof ref === "string" ? ref : "latest");
    version = label?.schemaVersionId == null ? null : await store.schemas.versionById(label.schemaVersionId);
  }
  if (version === null || !version.active) {
    throw invalidRequest(`Schema ${schemaId} has no active version ${String(ref ?? "latest")}`, {
      param: "schemaRef",
    });
  }
  return version;
}

function defaultExtractionModel(config: unknown): string | null {
  if (config !== null && typeof config === "object" && "model" in config) {
    const model = (config as { model?: unknown }).model;
    if (typeof model === "string" && model !== "") return model;
  }
  return null;
}

/** PLATFORM.md §11: a string is one user message, `{messages}` those messages, anything else its JSON. */
export function inputMessages(input: unknown): unknown[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  if (input !== null && typeof input === "object" && !Array.isArray(input) && "messages" in input) {
    const messages = (input as { messages: unknown }).messages;
    if (Array.isArray(messages)) return messages;
  }
  return [{ role: "user", content: JSON.stringify(input) }];
}

/** A prompt's variables: the input when it is an object, otherwise `{input}`. */
export function inputVariables(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === "object" && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : { input };
}

function paramsOf(variant: VariantRecord): VariantParams {
  return (variant.config.params ?? {}) as VariantParams;
}

function chatBody(model: string, messages: unknown[], params: VariantParams): ChatRequestBody {
  try {
    return validate(chatRequestSchema, {
      model,
      messages,
      ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
      ...(params.maxTokens === undefined ? {} : { max_completion_tokens: params.maxTokens }),
      ...(params.topP === undefined ? {} : { top_p: params.topP }),
    });
  } catch (error) {
    throw new ItemFailure(`The input is not a valid chat request: ${messageOf(error)}`);
  }
}

/** Runs the variant on one item's input; never throws except when `signal` aborted. */
export async function runItem(
  deps: ExecutorDeps,
  principal: Principal,
  variant: VariantRecord,
  plan: VariantPlan,
  input: unknown,
  signal: AbortSignal,
): Promise<ItemRun> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const { output, usage, grounding } = await execute(deps, principal, variant, plan, input, signal);
    return { status: "completed", output, error: null, latencyMs: elapsed(), usage, grounding };
  } catch (error) {
    if (signal.aborted) throw error;
    const usage = error instanceof UsageError ? error.usage : NO_USAGE;
    return {
      status: "failed",
      output: null,
      error: messageOf(error),
      latencyMs: elapsed(),
      usage,
      grounding: null,
    };
  }
}

/** A failure that still used tokens (an agent that paused after a model call). */
class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: RunUsage,
  ) {
    super(message);
  }
}

async function execute(
  deps: ExecutorDeps,
  principal: Principal,
  variant: VariantRecord,
  plan: VariantPlan,
  input: unknown,
  signal: AbortSignal,
): Promise<{ output: string | null; usage: RunUsage; grounding: ExtractionGrounding | null }> {
  switch (plan.kind) {
    case "model":
      return {
        ...(await chat(
          deps,
          principal,
          chatBody(plan.model, inputMessages(input), paramsOf(variant)),
          signal,
        )),
        grounding: null,
      };
    case "prompt": {
      const version = await deps.store.prompts.versionById(plan.promptVersionId);
      if (version === null) throw new ItemFailure(`Prompt version ${plan.promptVersionId} no longer exists`);
      const compiled = deps.prompts.compileVersion(version, inputVariables(input));
      const messages = typeof compiled === "string" ? [{ role: "user", content: compiled }] : compiled;
      const params = { ...promptConfigParams(version.config), ...paramsOf(variant) };
      return {
        ...(await chat(deps, principal, chatBody(plan.model, messages, params), signal)),
        grounding: null,
      };
    }
    case "agent":
      return { ...(await runAgent(deps, principal, plan.agent, input, signal)), grounding: null };
    case "extraction":
      return extract(deps, principal, plan, input, signal);
  }
}

function promptConfigParams(config: Record<string, unknown>): VariantParams {
  return {
    ...(typeof config.temperature === "number" ? { temperature: config.temperature } : {}),
    ...(typeof config.maxTokens === "number" ? { maxTokens: config.maxTokens } : {}),
    ...(typeof config.topP === "number" ? { topP: config.topP } : {}),
  };
}

async function chat(
  deps: ExecutorDeps,
  principal: Principal,
  body: ChatRequestBody,
  signal: AbortSignal,
): Promise<{ output: string | null; usage: RunUsage }> {
  const completion = await deps.gateway.chat(body, { principal, signal });
  const promptTokens = completion.usage?.prompt_tokens ?? 0;
  const completionTokens = completion.usage?.completion_tokens ?? 0;
  return {
    output: completion.choices[0]?.message.content ?? null,
    usage: {
      inputTokens: promptTokens,
      outputTokens: completionTokens,
      costEur: builtinCostEur(deps.chatPrices, body.model, {
        promptTokens,
        completionTokens,
        cachedTokens: completion.usage?.prompt_tokens_details?.cached_tokens ?? null,
      }),
    },
  };
}

async function runAgent(
  deps: ExecutorDeps,
  principal: Principal,
  agent: string,
  input: unknown,
  signal: AbortSignal,
): Promise<{ output: string | null; usage: RunUsage }> {
  const runner = deps.agents;
  if (runner === null) throw new ItemFailure("Agent variants need the agent runner");
  const messages = inputMessages(input).map((message) =>
    message !== null && typeof message === "object" ? { type: "message", ...message } : message,
  );
  const body = runner.parseBody({
    model: agent,
    input: typeof input === "string" ? input : messages,
    // A pause cannot be answered inside an experiment: never wait for a human.
    mode: "auto",
  });
  const state = await runner.respond(principal, body, { signal });
  const usage: RunUsage = {
    inputTokens: state.usage.inputTokens,
    outputTokens: state.usage.outputTokens,
    costEur: builtinCostEur(deps.chatPrices, state.model, {
      promptTokens: state.usage.inputTokens,
      completionTokens: state.usage.outputTokens,
      cachedTokens: null,
    }),
  };
  const paused =
    PAUSED_STATUSES.includes(state.status) ||
    (state.pendingConnections?.length ?? 0) > 0 ||
    (state.pendingInputs?.length ?? 0) > 0;
  if (paused) throw new UsageError("agent_paused", usage);
  if (state.status !== "completed") {
    throw new UsageError(state.error ?? `The agent run ended ${state.status}`, usage);
  }
  return { output: state.text, usage };
}

async function extract(
  deps: ExecutorDeps,
  principal: Principal,
  plan: Extract<VariantPlan, { kind: "extraction" }>,
  input: unknown,
  signal: AbortSignal,
): Promise<{ output: string | null; usage: RunUsage; grounding: ExtractionGrounding | null }> {
  const service = deps.extraction;
  if (service === null) throw new ItemFailure("Extraction variants need the extraction service");
  const text = extractionText(input);
  const schema = await deps.store.schemas.get(principal.organizationId, plan.schemaId);
  const version = await deps.store.schemas.versionById(plan.schemaVersionId);
  if (schema === null || version === null)
    throw new ItemFailure(`Schema version ${plan.schemaVersionId} no longer exists`);
  const estimate = service.strategyFor(principal, text);
  // Experiments run extractions in the run's own job: a large input runs CHUNKED, never ASYNC.
  const strategy = plan.strategy ?? (estimate.strategy === "ASYNC" ? "CHUNKED" : estimate.strategy);
  const record = await service.runNow(
    principal,
    { schema, version, model: plan.model, inputText: text, images: [] },
    strategy,
    estimate.inputTokens,
    signal,
  );
  const result = extractionResult(record);
  const usage: RunUsage = {
    inputTokens: result?.metadata.inputTokens ?? 0,
    outputTokens: result?.metadata.outputTokens ?? 0,
    costEur: result?.metadata.cost ?? 0,
  };
  if (result === null) {
    throw new UsageError(record.errorMessage ?? `The extraction ended ${record.status}`, usage);
  }
  return {
    output: JSON.stringify(result.structuredOutput),
    usage,
    grounding: result.resultMetadata.scoring,
  };
}

/** The text an extraction reads: a string input, `{text}` / `{inputText}`, or the input's JSON. */
function extractionText(input: unknown): string {
  if (typeof input === "string") return input;
  if (input !== null && typeof input === "object" && !Array.isArray(input)) {
    const record = input as Record<string, unknown>;
    if (typeof record.text === "string") return record.text;
    if (typeof record.inputText === "string") return record.inputText;
  }
  return JSON.stringify(input);
}

export function messageOf(error: unknown): string {
  if (isGroundworkError(error) || error instanceof ItemFailure || error instanceof UsageError)
    return error.message;
  return error instanceof Error ? error.message : String(error);
}
