/**
 * Wires the conversion engine to a store: one DocumentConverter per service (its
 * parse workers and OCR recognisers are pooled), the async task handler on the
 * durable job queue, and the http-source fetcher.
 */

import { markFailed, tracedSpan } from "@groundwork/agents";
import {
  type ConversionInput,
  type ConversionOptions,
  type ConversionResult,
  DocumentConverter,
  type VisionModel,
} from "@groundwork/convert";
import type { Allowance, Job, JobContext, JobWorker } from "@groundwork/core";
import { GLOBAL_TRACE_HOOKS, type TraceHooks } from "@groundwork/observability";
import type { ConversionTask, ConversionTaskInput, FinishTask } from "@groundwork/store-sqlite";
import { BackgroundWorker } from "../jobs/background-worker.js";
import type { PlatformStore } from "../store-port.js";
import { fetchSource } from "./fetch-source.js";
import { tracedVision } from "./traced-vision.js";

export const CONVERT_JOB_KIND = "convert";
/** An async task's id on its `convert` span (not a GenAI attribute). */
export const CONVERSION_TASK_ID_ATTRIBUTE = "groundwork.conversion_task_id";

export interface ConversionServiceOptions {
  /** The vision model of the `vlm` pipeline; null refuses that pipeline with `vlmUnavailableMessage`. */
  vision: VisionModel | null;
  vlmUnavailableMessage: string;
  /** Extra OCR traineddata folder (see GroundworkConfig.conversion.tessdataDir). */
  tessdataDir: string | null;
  allowPrivateNetwork: boolean;
  /** How a refused private address tells the caller what to change. */
  allowPrivateNetworkSetting: string;
  /** Per http source. */
  fetchTimeoutMs: number;
  maxFetchBytes: number;
  /** Lease of a running conversion job; a process that died mid-task loses it after this long. */
  leaseMs: number;
  pollMs: number;
  /** Traces each conversion as `convert` (PLATFORM.md §13); by default the global provider's. */
  traceHooks?: TraceHooks;
  /** Asked before converting (`402 pages_exhausted`, PLATFORM.md §15); none: not limited. */
  allowance?: Allowance;
  /**
   * Adds the pages of a finished conversion to the organization's month (a document without pages
   * counts 1). For an async task it runs inside a unit of work of this service's store (see
   * `finishBilled`): it must write through that store.
   */
  recordPages?: (organizationId: string, pages: number) => void | Promise<void>;
}

/** The stored request of an async task (no document bytes: those are task inputs). */
export interface StoredTaskRequest {
  options: ConversionOptions;
  /** File names of the inputs, for error entries of sources that never loaded. */
  names: string[];
}

export class ConversionService {
  private readonly worker: BackgroundWorker;
  /** One converter per service: its parse workers and OCR recognisers are pooled. */
  private readonly converter: DocumentConverter;

  constructor(
    readonly store: PlatformStore,
    readonly config: ConversionServiceOptions,
  ) {
    this.worker = new BackgroundWorker(
      store.jobs,
      { [CONVERT_JOB_KIND]: this.handle },
      { leaseMs: config.leaseMs, pollMs: config.pollMs },
    );
    this.converter = new DocumentConverter({
      vlmUnavailableMessage: config.vlmUnavailableMessage,
      ...(config.tessdataDir === null ? {} : { ocrOptions: { tessdataDir: config.tessdataDir } }),
    });
  }

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
                  allowPrivateNetworkSetting: this.config.allowPrivateNetworkSetting,
                  maxBytes: this.config.maxFetchBytes,
                  timeoutMs: this.config.fetchTimeoutMs,
                },
                signal,
              ),
          },
    );
  }

  /**
   * Converts in the request. Given the organization it is traced as a `convert` span (the
   * trace is that organization's); without one nothing is traced.
   */
  convert(
    inputs: ConversionTaskInput[],
    options: ConversionOptions,
    signal?: AbortSignal,
    organizationId?: string,
  ): Promise<ConversionResult> {
    const run = () =>
      this.converter.convert(this.toInputs(inputs), options, {
        ...(signal === undefined ? {} : { signal }),
        vision: organizationId === undefined ? this.config.vision : this.visionFor(organizationId),
      });
    return organizationId === undefined ? run() : this.traced(organizationId, null, run);
  }

  /** The vision model with its page reads traced as children of the organization's `convert` span. */
  private visionFor(organizationId: string): VisionModel | null {
    return tracedVision(this.config.vision, this.config.traceHooks ?? GLOBAL_TRACE_HOOKS, organizationId);
  }

  /** A `convert` span (kind `conversion`); a batch that converted nothing is an error with its first error's code. */
  private traced(
    organizationId: string,
    taskId: string | null,
    run: () => Promise<ConversionResult>,
  ): Promise<ConversionResult> {
    const hooks = this.config.traceHooks ?? GLOBAL_TRACE_HOOKS;
    return tracedSpan(hooks, "convert", { organizationId, kind: "conversion" }, async (span) => {
      if (taskId !== null && span.isRecording()) span.setAttribute(CONVERSION_TASK_ID_ATTRIBUTE, taskId);
      const result = await run();
      if (result.status === "FAILURE" && span.isRecording()) {
        // The entries' messages may name documents; the span says only what failed.
        markFailed(span, result.errors[0]?.code ?? "conversion_failed", "The conversion failed");
      }
      return result;
    });
  }

  /**
   * `POST /v1/convert/source|file` for an organization: refused with `402 pages_exhausted`
   * when its month's pages are used up, traced as a `convert` span, and the converted pages
   * counted afterwards.
   */
  async convertFor(
    organizationId: string,
    inputs: ConversionTaskInput[],
    options: ConversionOptions,
    signal?: AbortSignal,
  ): Promise<ConversionResult> {
    // The page count is known only after parsing: a conversion starts while one page is left.
    await this.config.allowance?.checkPages?.(organizationId, 1);
    let pages = 0;
    const result = await this.traced(organizationId, null, () =>
      this.converter.convert(this.toInputs(inputs), options, {
        ...(signal === undefined ? {} : { signal }),
        vision: this.visionFor(organizationId),
        onDocument: (pageCount) => {
          pages += pageCount ?? 1;
        },
      }),
    );
    await this.config.recordPages?.(organizationId, pages);
    return result;
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
    await this.config.allowance?.checkPages?.(organizationId, 1);
    const task = await this.store.conversionTasks.create({ organizationId, request, inputs });
    const job = await this.store.jobs.enqueue(
      CONVERT_JOB_KIND,
      { taskId: task.id },
      { organizationId, maxAttempts: 3 },
    );
    await this.store.conversionTasks.attachJob(task.id, job.id);
    this.worker.poke();
    return (await this.store.conversionTasks.get(task.id)) as ConversionTask;
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
    await this.store.conversionTasks.finish(task.id, {
      status: "failure",
      result: taskFailureResult(task, "task_failed", message),
      numSucceeded: 0,
      numFailed: task.numDocs,
      error: message,
    });
    return (await this.store.conversionTasks.get(task.id)) ?? task;
  }

  /** The job handler: runs (or re-runs, after a restart) one task. */
  readonly handle = async (job: Job, context: JobContext): Promise<unknown> => {
    const { taskId } = job.payload as { taskId: string };
    const tasks = this.store.conversionTasks;
    const task = await tasks.get(taskId);
    if (task === null || !(await tasks.start(taskId))) return { skipped: true };
    const request = task.request as StoredTaskRequest;
    // A DELETE finishes the task in the database; notice it and stop working.
    const cancel = new AbortController();
    const watch = setInterval(() => {
      Promise.resolve(tasks.get(taskId)).then(
        (current) => {
          if (current === null || (current.status !== "processing" && current.status !== "pending"))
            cancel.abort();
        },
        // A failed read is asked again at the next tick.
        () => undefined,
      );
    }, 250);
    let pages = 0;
    try {
      // An async task is its own trace: the request that submitted it has ended.
      const result = await this.traced(task.organizationId, taskId, async () =>
        this.converter.convert(this.toInputs(await tasks.inputs(taskId)), request.options, {
          signal: AbortSignal.any([context.signal, cancel.signal]),
          vision: this.visionFor(task.organizationId),
          onProgress: async (processed) => await tasks.progress(taskId, processed),
          onDocument: (pageCount) => {
            pages += pageCount ?? 1;
          },
        }),
      );
      await this.finishBilled(task.organizationId, taskId, pages, {
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
      await tasks.finish(taskId, {
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

  /**
   * Stores a task's result and bills its pages in one unit of work, the pages only when this
   * call is the one that finished the task. A worker killed before the unit commits bills
   * nothing (its retry bills once), and of two workers that both ran the task (one lost its
   * lease mid-task) only the first to finish bills: exactly once per task. `recordPages` writes
   * through this store (the composition's billing service), so it joins the unit.
   */
  private async finishBilled(
    organizationId: string,
    taskId: string,
    pages: number,
    outcome: FinishTask,
  ): Promise<boolean> {
    return await this.store.billing.atomically(async () => {
      const finished = await this.store.conversionTasks.finish(taskId, outcome);
      if (finished) await this.config.recordPages?.(organizationId, pages);
      return finished;
    });
  }

  /** Cancels a pending or running task: it ends as `failure` with a `canceled` error. */
  async cancel(task: ConversionTask): Promise<boolean> {
    return await this.store.conversionTasks.finish(task.id, {
      status: "failure",
      result: taskFailureResult(task, "canceled", "The task was canceled by the client"),
      numSucceeded: 0,
      numFailed: task.numDocs,
      error: "canceled",
    });
  }

  startWorker(): JobWorker {
    return this.worker.start();
  }

  async stopWorker(): Promise<void> {
    await this.worker.stop();
  }

  /** Stops the worker and ends the converter's parse workers and OCR recognisers. */
  async close(): Promise<void> {
    await this.stopWorker();
    await this.converter.close();
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
