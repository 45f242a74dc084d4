/**
 * Wires the extraction engine to the store and the gateway: synchronous runs inside the request,
 * background runs (large inputs and `/async`) as `extraction` jobs on the durable queue, and the
 * records either way.
 */

import { tracedSpan } from "@groundwork/agents";
import {
  type ChatUsage,
  conflict,
  invalidRequest,
  isGroundworkError,
  type Job,
  type JobContext,
  type JobWorker,
  notFound,
  type Principal,
} from "@groundwork/core";
import {
  checkExtractionInput,
  type ExtractionEngine as Engine,
  ExtractionEngine,
  type ExtractionResult,
  ExtractionRunError,
  type ExtractionSettings,
  type ExtractionStrategy,
  type InputImage,
} from "@groundwork/extract";
import { type Gateway, parseModelString, type TokenPrice } from "@groundwork/gateway";
import { extractionQuality, GLOBAL_TRACE_HOOKS, type TraceHooks } from "@groundwork/observability";
import type { ExtractionConfig } from "@groundwork/scoring";
import type {
  ExtractionRecord,
  SchemaRecord,
  SchemaVersionRecord,
  SourcePlacement,
} from "@groundwork/store-sqlite";
import { builtinCostEur } from "../gateway/builtin-cost.js";
import { BackgroundWorker } from "../jobs/background-worker.js";
import type { PlatformStore } from "../store-port.js";
import { describeExtraction, extractionFailed, extractionSucceeded } from "./extraction-span.js";
import { gatewayChatModel } from "./gateway-chat-model.js";
import { placeResultSpans } from "./span-placement.js";

export const EXTRACTION_JOB_KIND = "extraction";

export interface ExtractionServiceOptions {
  /** Engine settings (thresholds, chunk sizes); the spec's values by default. */
  settings?: Partial<ExtractionSettings>;
  /** Built-in chat prices, as given to the gateway; BYOK calls are never charged. */
  chatPrices?: Readonly<Record<string, TokenPrice>>;
  leaseMs?: number;
  pollMs?: number;
  /** Traces each extraction as `extract {schema name}` (PLATFORM.md §13); by default the global provider's. */
  traceHooks?: TraceHooks;
  /**
   * Converts an uploaded file (`fileId`) to the Markdown an extraction reads, with where each block
   * lies in it (pages, PDF boxes); without it, `fileId` is refused.
   */
  convertFile?: (organizationId: string, fileId: string, signal?: AbortSignal) => Promise<ConvertedInput>;
}

/** A converted file as an extraction's input: its Markdown and where each block lies in it. */
export interface ConvertedInput {
  markdown: string;
  placements: SourcePlacement[];
}

/** What one extraction is asked to do (the body of `POST /v1/extractions`). */
export interface ExtractionRequest {
  schemaId: string;
  /** A pinned version; by default the schema's latest active version. */
  schemaVersionId?: string | undefined;
  /** `<prefix>/<model>` of a provider of the organization, or a built-in model name. */
  model: string;
  inputText?: string | null | undefined;
  inputImages?: ReadonlyArray<{ data?: unknown; mimeType?: unknown }> | null | undefined;
  /** An uploaded file (`POST /v1/files`) whose conversion to Markdown is the input text (not with inputText). */
  fileId?: string | null | undefined;
  /** Run in the background even when the input is small (`/v1/extractions/async`). */
  background?: boolean;
  /** Cancels a synchronous run (the caller went away). */
  signal?: AbortSignal;
}

export interface ExtractionPlan {
  schema: SchemaRecord;
  version: SchemaVersionRecord;
  model: string;
  inputText: string | null;
  images: InputImage[];
  rerunOf?: string;
  /** Where each block of a converted input lies in `inputText` (spans get their pages and boxes). */
  placements?: SourcePlacement[] | null;
}

interface JobPayload {
  extractionId: string;
  /** The role of the key that submitted it, for the gateway's checks when it runs. */
  role: Principal["role"];
}

export class ExtractionService {
  private readonly worker: BackgroundWorker;
  private readonly traceHooks: TraceHooks;

  constructor(
    readonly store: PlatformStore,
    readonly gateway: Gateway,
    readonly options: ExtractionServiceOptions = {},
  ) {
    this.traceHooks = options.traceHooks ?? GLOBAL_TRACE_HOOKS;
    this.worker = new BackgroundWorker(
      store.jobs,
      { [EXTRACTION_JOB_KIND]: this.handle },
      { leaseMs: options.leaseMs, pollMs: options.pollMs },
    );
  }

  engineFor(principal: Principal): Engine {
    return new ExtractionEngine({
      model: gatewayChatModel(this.gateway, principal),
      ...(this.options.settings === undefined ? {} : { settings: this.options.settings }),
      costOf: (model, usage) => this.costOf(model, usage),
    });
  }

  /** What the gateway charged for one call: built-in calls at the configured price, BYOK never. */
  private costOf(model: string, usage: ChatUsage): number {
    return builtinCostEur(this.options.chatPrices, model, {
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? null,
    });
  }

  /** The version an extraction uses: the pinned one (404 unknown, 409 deactivated) or the latest active one. */
  async resolveVersion(
    organizationId: string,
    schemaId: string,
    schemaVersionId: string | undefined,
  ): Promise<{ schema: SchemaRecord; version: SchemaVersionRecord }> {
    const schema = await this.store.schemas.get(organizationId, schemaId);
    if (schema === null) throw notFound(`No schema ${schemaId}`, { param: "schemaId" });
    if (schemaVersionId !== undefined) {
      const version = await this.store.schemas.getVersion(organizationId, schemaId, schemaVersionId);
      if (version === null) {
        throw notFound(`Schema ${schemaId} has no version ${schemaVersionId}`, { param: "schemaVersionId" });
      }
      if (!version.active) {
        throw conflict(`Schema version ${schemaVersionId} is deactivated`, { param: "schemaVersionId" });
      }
      return { schema, version };
    }
    const version = await this.store.schemas.latestVersion(schemaId);
    if (version === null) {
      throw notFound(`Schema ${schemaId} has no active version; commit one first`, { param: "schemaId" });
    }
    return { schema, version };
  }

  /**
   * Runs an extraction: synchronously (recorded COMPLETED or FAILED) when the input is
   * small enough, otherwise — or when `background` is set — as a PENDING record whose
   * job the worker runs. The record says which.
   */
  async extract(principal: Principal, request: ExtractionRequest): Promise<ExtractionRecord> {
    const converted = await this.convertedInput(principal, request);
    const images = checkExtractionInput(
      converted === null ? request : { ...request, inputText: converted.markdown },
    );
    parseModelString(request.model);
    const { schema, version } = await this.resolveVersion(
      principal.organizationId,
      request.schemaId,
      request.schemaVersionId,
    );
    const text = converted?.markdown ?? request.inputText;
    const inputText = typeof text === "string" && text.trim() !== "" ? text : null;
    return this.start(
      principal,
      { schema, version, model: request.model, inputText, images, placements: converted?.placements ?? null },
      request.background ?? false,
      request.signal,
    );
  }

  /** The Markdown of the request's `fileId` with its block placements; null without a file. */
  private async convertedInput(
    principal: Principal,
    request: ExtractionRequest,
  ): Promise<ConvertedInput | null> {
    if (request.fileId === undefined || request.fileId === null) return null;
    if (typeof request.inputText === "string" && request.inputText !== "") {
      throw invalidRequest("Give either fileId or inputText, not both", { param: "fileId" });
    }
    if (this.options.convertFile === undefined) {
      throw invalidRequest("Extraction from a file is not available here", { param: "fileId" });
    }
    const converted = await this.options.convertFile(
      principal.organizationId,
      request.fileId,
      request.signal,
    );
    if (converted.markdown.trim() === "") {
      throw invalidRequest(`The file ${request.fileId} holds no text to extract from`, { param: "fileId" });
    }
    return converted;
  }

  /** Runs a finished extraction again on its stored input, the way the original ran; a new record. */
  async rerun(principal: Principal, extractionId: string, signal?: AbortSignal): Promise<ExtractionRecord> {
    const original = await this.find(principal.organizationId, extractionId);
    if (original.status === "PENDING" || original.status === "PROCESSING") {
      throw conflict(`Extraction ${original.id} is ${original.status}; rerun it once it has finished`);
    }
    if (original.inputText === null) {
      throw conflict(
        `Extraction ${original.id} was image-only and images are not stored, so it cannot be rerun`,
      );
    }
    const schemas = this.store.schemas;
    const version = await schemas.getVersion(
      principal.organizationId,
      original.schemaId,
      original.schemaVersionId,
    );
    const schema = await schemas.get(principal.organizationId, original.schemaId);
    if (version === null || schema === null || !version.active) {
      throw conflict(`The schema version of extraction ${original.id} has since been deleted`);
    }
    const plan: ExtractionPlan = {
      schema,
      version,
      model: original.model,
      inputText: original.inputText,
      images: [],
      rerunOf: original.id,
      placements: original.sourcePlacements,
    };
    // "Runs the way the original ran": a background original reruns in the background.
    return this.start(principal, plan, original.strategy === "ASYNC", signal);
  }

  /** An extraction of the organization (404 otherwise), reconciled with its job. */
  async find(organizationId: string, extractionId: string): Promise<ExtractionRecord> {
    const record = await this.store.extractions.get(organizationId, extractionId);
    if (record === null) throw notFound(`No extraction ${extractionId}`);
    return this.reconcile(record);
  }

  private async start(
    principal: Principal,
    plan: ExtractionPlan,
    background: boolean,
    signal: AbortSignal | undefined,
  ): Promise<ExtractionRecord> {
    const { strategy, inputTokens } = this.strategyFor(principal, plan.inputText);
    if (background || strategy === "ASYNC") return this.submit(principal, plan, inputTokens);
    return this.runNow(principal, plan, strategy, inputTokens, signal);
  }

  /** Which way a request runs: synchronously (SINGLE_SHOT, CHUNKED) or in the background (ASYNC). */
  strategyFor(
    principal: Principal,
    inputText: string | null,
  ): { strategy: ExtractionStrategy; inputTokens: number } {
    const estimate = this.engineFor(principal).estimate(inputText ?? "");
    return { strategy: estimate.strategy, inputTokens: estimate.inputTokens };
  }

  /** Runs inside the request and records the outcome (COMPLETED or FAILED). */
  async runNow(
    principal: Principal,
    plan: ExtractionPlan,
    strategy: Exclude<ExtractionStrategy, "ASYNC">,
    inputTokens: number,
    signal?: AbortSignal,
  ): Promise<ExtractionRecord> {
    const org = principal.organizationId;
    const hooks = this.traceHooks;
    return tracedSpan(
      hooks,
      `extract ${plan.schema.name}`,
      { organizationId: org, kind: "extraction" },
      async (span) => {
        describeExtraction(span, hooks, {
          organizationId: org,
          model: plan.model,
          inputText: plan.inputText,
        });
        const started = Date.now();
        const common = this.insertFields(principal, plan, strategy, inputTokens);
        try {
          const result = await this.engineFor(principal).run(this.engineInput(plan), {
            strategy,
            ...(signal === undefined ? {} : { signal }),
          });
          const stored = toStoredResult(result);
          placeResultSpans(stored, plan.placements ?? null);
          const record = await this.store.extractions.create({
            ...common,
            status: "COMPLETED",
            result: stored,
            quality: extractionQuality(stored),
            startedAt: started,
            completedAt: Date.now(),
          });
          extractionSucceeded(span, hooks, org, record.id, result);
          return record;
        } catch (error) {
          const errorMessage = failureMessage(error, signal);
          const record = await this.store.extractions.create({
            ...common,
            status: "FAILED",
            errorMessage,
            startedAt: started,
            completedAt: Date.now(),
          });
          extractionFailed(span, record.id, error, errorMessage, signal);
          return record;
        }
      },
    );
  }

  /** Stores a PENDING record (with its images until it runs) and queues its job. */
  async submit(principal: Principal, plan: ExtractionPlan, inputTokens: number): Promise<ExtractionRecord> {
    const record = await this.store.extractions.create(
      { ...this.insertFields(principal, plan, "ASYNC", inputTokens), status: "PENDING" },
      plan.images,
    );
    const payload: JobPayload = { extractionId: record.id, role: principal.role };
    const job = await this.store.jobs.enqueue(EXTRACTION_JOB_KIND, payload, {
      organizationId: principal.organizationId,
      maxAttempts: 3,
    });
    await this.store.extractions.attachJob(record.id, job.id);
    this.worker.poke();
    // The record as queued, not read again: a worker (of any process, woken by the queue) may
    // already run or have finished it, and the caller asked for a background run.
    return { ...record, jobId: job.id };
  }

  private insertFields(
    principal: Principal,
    plan: ExtractionPlan,
    strategy: ExtractionStrategy,
    inputTokens: number,
  ) {
    return {
      organizationId: principal.organizationId,
      schemaId: plan.schema.id,
      schemaVersionId: plan.version.id,
      strategy,
      model: plan.model,
      inputText: plan.inputText,
      sourcePlacements: plan.placements ?? null,
      imageCount: plan.images.length,
      inputTokens,
      apiKeyId: principal.apiKeyId,
      ...(plan.rerunOf === undefined ? {} : { rerunOf: plan.rerunOf }),
    };
  }

  private engineInput(plan: Pick<ExtractionPlan, "version" | "schema" | "model" | "inputText" | "images">) {
    return {
      jsonSchema: plan.version.jsonSchema,
      schemaName: plan.schema.name,
      extractionConfig: plan.version.extractionConfig as ExtractionConfig | null,
      inputText: plan.inputText,
      inputImages: plan.images,
      model: plan.model,
    };
  }

  /** The job handler: runs (or, after a crash, re-runs) one background extraction. */
  readonly handle = async (job: Job, context: JobContext): Promise<unknown> => {
    const { extractionId, role } = job.payload as JobPayload;
    const extractions = this.store.extractions;
    const record = await extractions.getById(extractionId);
    if (record === null || !(await extractions.markProcessing(extractionId))) return { skipped: true };
    const version = await this.store.schemas.versionById(record.schemaVersionId);
    const organization = await this.store.organizations.get(record.organizationId);
    if (version === null || organization === null) {
      await extractions.finish(extractionId, {
        status: "FAILED",
        errorMessage: "The schema version was deleted before the extraction ran",
      });
      return { failed: true };
    }
    const principal: Principal = {
      organizationId: organization.id,
      organizationName: organization.name,
      plan: organization.plan,
      role,
      apiKeyId: record.apiKeyId ?? "",
    };
    const hooks = this.traceHooks;
    const org = organization.id;
    // A background extraction is its own trace: the request that queued it has ended.
    return tracedSpan(
      hooks,
      `extract ${version.schemaName}`,
      { organizationId: org, kind: "extraction" },
      async (span) => {
        describeExtraction(span, hooks, {
          organizationId: org,
          model: record.model,
          inputText: record.inputText,
          extractionId,
        });
        try {
          const result = await this.engineFor(principal).run(
            {
              jsonSchema: version.jsonSchema,
              schemaName: version.schemaName,
              extractionConfig: version.extractionConfig as ExtractionConfig | null,
              inputText: record.inputText,
              inputImages: await extractions.images(extractionId),
              model: record.model,
            },
            { strategy: "ASYNC", signal: context.signal },
          );
          const stored = toStoredResult(result);
          placeResultSpans(stored, record.sourcePlacements);
          await extractions.finish(extractionId, {
            status: "COMPLETED",
            result: stored,
            quality: extractionQuality(stored),
          });
          extractionSucceeded(span, hooks, org, extractionId, result);
          return { status: "COMPLETED" };
        } catch (error) {
          // Worker stopping or lease lost: leave the extraction to the next attempt.
          if (context.signal.aborted) throw error;
          const errorMessage = failureMessage(error);
          await extractions.finish(extractionId, { status: "FAILED", errorMessage });
          extractionFailed(span, extractionId, error, errorMessage);
          return { status: "FAILED" };
        }
      },
    );
  };

  /** A background extraction whose job the queue gave up on is failed here, so none stays PENDING forever. */
  async reconcile(record: ExtractionRecord): Promise<ExtractionRecord> {
    if ((record.status !== "PENDING" && record.status !== "PROCESSING") || record.jobId === null)
      return record;
    const job = await this.store.jobs.get(record.jobId);
    if (job === null) return record;
    // The queue reads a job abandoned on its last attempt as failed.
    if (job.status !== "failed") return record;
    await this.store.extractions.finish(record.id, {
      status: "FAILED",
      errorMessage: `The background extraction stopped: ${job.lastError ?? "its worker stopped"}`,
    });
    return (await this.store.extractions.get(record.organizationId, record.id)) ?? record;
  }

  startWorker(): JobWorker {
    return this.worker.start();
  }

  async stopWorker(): Promise<void> {
    await this.worker.stop();
  }
}

/** The result of a COMPLETED extraction record, typed (null for any other status). */
export function extractionResult(record: ExtractionRecord): ExtractionResult | null {
  return record.status === "COMPLETED" && record.result !== null
    ? (record.result as unknown as ExtractionResult)
    : null;
}

function toStoredResult(result: ExtractionResult): Record<string, unknown> {
  return {
    structuredOutput: result.structuredOutput,
    metadata: result.metadata,
    resultMetadata: result.resultMetadata,
  };
}

export function failureMessage(error: unknown, signal?: AbortSignal): string {
  if (signal?.aborted === true) return "The extraction was cancelled: the client closed the request";
  if (error instanceof ExtractionRunError) {
    const cause = error.cause;
    // Gateway errors carry messages meant for API callers; anything else is reported without internals.
    if (cause === undefined || isGroundworkError(cause) || error.message.startsWith("The model "))
      return error.message;
    return "The extraction failed: an unexpected error occurred while calling the model";
  }
  return isGroundworkError(error) ? error.message : "The extraction failed unexpectedly";
}
