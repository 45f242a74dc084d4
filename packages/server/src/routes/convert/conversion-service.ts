/**
 * Wires the conversion engine to a store: one shared DocumentConverter for the
 * process (its parse workers and OCR recognisers are pooled), the async task
 * handler on the durable job queue, and the http-source fetcher.
 */
import {
  type ConversionInput,
  type ConversionOptions,
  type ConversionResult,
  DEFAULT_LIMITS,
  DocumentConverter,
  type VisionModel,
} from "@groundwork/convert";
import { type Job, type JobContext, JobWorker } from "@groundwork/core";
import type { ConversionTask, ConversionTaskInput, Store } from "@groundwork/store-sqlite";
import { fetchSource } from "./fetch-source.js";
import { OpenAICompatibleChatModel } from "./vision-model.js";

export const CONVERT_JOB_KIND = "convert";

export interface ConversionConfig {
  vision: VisionModel | null;
  allowPrivateNetwork: boolean;
  /** Per http source. */
  fetchTimeoutMs: number;
  maxFetchBytes: number;
  /** Lease of a running conversion job; a server that died mid-task loses it after this long. */
  leaseMs: number;
  pollMs: number;
}

export const VLM_UNAVAILABLE =
  "The vlm pipeline needs a vision model: start the server with GROUNDWORK_VLM_MODEL set, together with GROUNDWORK_BUILTIN_BASE_URL and GROUNDWORK_BUILTIN_API_KEY";

/** Reads the conversion settings from the environment (DESIGN.md contracts). */
export function conversionConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ConversionConfig {
  const model = env.GROUNDWORK_VLM_MODEL;
  const baseUrl = env.GROUNDWORK_BUILTIN_BASE_URL;
  const vision =
    model && baseUrl
      ? { model, chatModel: new OpenAICompatibleChatModel(baseUrl, env.GROUNDWORK_BUILTIN_API_KEY ?? "") }
      : null;
  return {
    vision,
    allowPrivateNetwork: env.GROUNDWORK_ALLOW_PRIVATE_NETWORK === "1",
    fetchTimeoutMs: 60_000,
    maxFetchBytes: DEFAULT_LIMITS.maxDocumentBytes,
    leaseMs: 30_000,
    pollMs: 500,
  };
}

let sharedConverter: DocumentConverter | null = null;

function converter(): DocumentConverter {
  sharedConverter ??= new DocumentConverter({ vlmUnavailableMessage: VLM_UNAVAILABLE });
  return sharedConverter;
}

/** The stored request of an async task (no document bytes: those are task inputs). */
export interface StoredTaskRequest {
  options: ConversionOptions;
  /** File names of the inputs, for error entries of sources that never loaded. */
  names: string[];
}

export class ConversionService {
  private worker: JobWorker | null = null;

  constructor(
    readonly store: Store,
    readonly config: ConversionConfig,
  ) {}

  /** Turns stored or request inputs into engine inputs; http sources load under the document's timeout. */
  toInputs(inputs: ConversionTaskInput[]): ConversionInput[] {
    return inputs.map((input, index) =>
      input.kind === "bytes"
        ? {
            bytes: input.content,
            filename: input.filename ?? `document-${index + 1}`,
            ...(input.mimeType === null ? {} : { mimeType: input.mimeType }),
          }
        : {
            filename: input.url,
            load: (signal: AbortSignal) =>
              fetchSource(
                input.url,
                input.headers,
                {
                  allowPrivateNetwork: this.config.allowPrivateNetwork,
                  maxBytes: this.config.maxFetchBytes,
                  timeoutMs: this.config.fetchTimeoutMs,
                },
                signal,
              ),
          },
    );
  }

  convert(
    inputs: ConversionTaskInput[],
    options: ConversionOptions,
    signal?: AbortSignal,
  ): Promise<ConversionResult> {
    return converter().convert(this.toInputs(inputs), options, {
      ...(signal === undefined ? {} : { signal }),
      vision: this.config.vision,
    });
  }

  /** Stores an async task with its inputs and queues its job. */
  async submit(
    organizationId: string,
    inputs: ConversionTaskInput[],
    options: ConversionOptions,
  ): Promise<ConversionTask> {
    const request: StoredTaskRequest = {
      options,
      names: inputs.map((input, index) =>
        input.kind === "http" ? input.url : (input.filename ?? `document-${index + 1}`),
      ),
    };
    const task = this.store.conversionTasks.create({ organizationId, request, inputs });
    const job = await this.store.jobs.enqueue(
      CONVERT_JOB_KIND,
      { taskId: task.id },
      { organizationId, maxAttempts: 3 },
    );
    this.store.conversionTasks.attachJob(task.id, job.id);
    this.worker?.poke();
    return this.store.conversionTasks.get(task.id) as ConversionTask;
  }

  /**
   * A task whose job the queue gave up on (its worker died on every attempt) is
   * failed here, so no task stays `processing` forever.
   */
  async reconcile(task: ConversionTask): Promise<ConversionTask> {
    if ((task.status !== "pending" && task.status !== "processing") || task.jobId === null) return task;
    const job = await this.store.jobs.get(task.jobId);
    if (job === null) return task;
    // The queue reads a job abandoned on its last attempt as failed.
    if (job.status !== "failed") return task;
    const message = `The conversion task failed: ${job.lastError ?? "its worker stopped"}`;
    this.store.conversionTasks.finish(task.id, {
      status: "failure",
      result: taskFailureResult(task, "task_failed", message),
      numSucceeded: 0,
      numFailed: task.numDocs,
      error: message,
    });
    return this.store.conversionTasks.get(task.id) ?? task;
  }

  /** The job handler: runs (or re-runs, after a restart) one task. */
  readonly handle = async (job: Job, context: JobContext): Promise<unknown> => {
    const { taskId } = job.payload as { taskId: string };
    const tasks = this.store.conversionTasks;
    const task = tasks.get(taskId);
    if (task === null || !tasks.start(taskId)) return { skipped: true };
    const request = task.request as StoredTaskRequest;
    // A DELETE finishes the task in the database; notice it and stop working.
    const cancel = new AbortController();
    const watch = setInterval(() => {
      const current = tasks.get(taskId);
      if (current === null || (current.status !== "processing" && current.status !== "pending"))
        cancel.abort();
    }, 250);
    try {
      const result = await converter().convert(this.toInputs(tasks.inputs(taskId)), request.options, {
        signal: AbortSignal.any([context.signal, cancel.signal]),
        vision: this.config.vision,
        onProgress: (processed) => tasks.progress(taskId, processed),
      });
      tasks.finish(taskId, {
        status: "success",
        result,
        numSucceeded: result.documents.length,
        numFailed: result.errors.length,
      });
      return { status: result.status };
    } catch (error) {
      if (cancel.signal.aborted) return { canceled: true };
      // Worker stopping or lease lost: leave the task to the next attempt.
      if (context.signal.aborted) throw error;
      const message = `The conversion task failed: ${error instanceof Error ? error.message : String(error)}`;
      tasks.finish(taskId, {
        status: "failure",
        result: taskFailureResult(task, "task_failed", message),
        numSucceeded: 0,
        numFailed: task.numDocs,
        error: message,
      });
      return { failed: true };
    } finally {
      clearInterval(watch);
    }
  };

  /** Cancels a pending or running task: it ends as `failure` with a `canceled` error. */
  cancel(task: ConversionTask): boolean {
    return this.store.conversionTasks.finish(task.id, {
      status: "failure",
      result: taskFailureResult(task, "canceled", "The task was canceled by the client"),
      numSucceeded: 0,
      numFailed: task.numDocs,
      error: "canceled",
    });
  }

  startWorker(): JobWorker {
    this.worker ??= new JobWorker(
      this.store.jobs,
      { [CONVERT_JOB_KIND]: this.handle },
      { leaseMs: this.config.leaseMs, pollMs: this.config.pollMs },
    );
    this.worker.start();
    return this.worker;
  }

  async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.stop();
  }
}

function taskFailureResult(
  task: ConversionTask,
  code: "canceled" | "task_failed",
  message: string,
): ConversionResult {
  const names = (task.request as StoredTaskRequest | null)?.names ?? [];
  const pipeline = (task.request as StoredTaskRequest | null)?.options?.pipeline ?? "fast";
  return {
    documents: [],
    errors: (names.length > 0 ? names : ["*"]).map((filename) => ({
      filename,
      code,
      message,
      pipeline,
      format: null,
    })),
    status: "FAILURE",
    processingTime: task.startedAt === null ? 0 : Math.max(0, (Date.now() - task.startedAt) / 1000),
  };
}

const services = new WeakMap<Store, ConversionService>();

/** The store's conversion service, created from the environment on first use. */
export function conversionServiceFor(store: Store): ConversionService {
  let service = services.get(store);
  if (service === undefined) {
    service = new ConversionService(store, conversionConfigFromEnv());
    services.set(store, service);
  }
  return service;
}

/** Replaces the store's conversion settings (tests, embedding hosts); call before serving requests. */
export function configureConversion(store: Store, config: Partial<ConversionConfig>): ConversionService {
  const service = new ConversionService(store, { ...conversionConfigFromEnv(), ...config });
  services.set(store, service);
  return service;
}

/** Starts the conversion job worker (serve.ts calls this after listen); `stop` before the store closes. */
export function startConversionWorker(store: Store): { stop(): Promise<void> } {
  const service = conversionServiceFor(store);
  service.startWorker();
  return { stop: () => service.stopWorker() };
}
