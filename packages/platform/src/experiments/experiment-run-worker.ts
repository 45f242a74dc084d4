/**
 * Executes experiment runs on the durable job queue (kind `experiment-run`, PLATFORM.md §11):
 * the variant on each item of the dataset version, 4 items at a time in dataset order, each
 * item's evaluators, and the result with its `EVAL` scores (`subjectType: run_result`) in one
 * transaction. A run killed at any point is claimed again once its lease lapses and resumes
 * with the items it has no result for; the store refuses a second result for an item, so
 * nothing is lost or recorded twice. Cancelling ends the run `cancelled` and aborts the items
 * in flight (their results are not recorded).
 */
import { setMaxListeners } from "node:events";
import { tracedSpan } from "@groundwork/agents";
import type { Job, JobContext, JobWorker, Principal, Role } from "@groundwork/core";
import { addToTotals, type EvaluationCase, type JudgeOutcome } from "@groundwork/evaluation";
import { GLOBAL_TRACE_HOOKS, type TraceHooks } from "@groundwork/observability";
import type { DatasetItemRecord, ExperimentRunRecord, RunScore } from "@groundwork/store-sqlite";
import type { EvaluatorService, PreparedEvaluator } from "../evaluators/evaluator-service.js";
import { BackgroundWorker } from "../jobs/background-worker.js";
import type { ScoreService } from "../scores/score-service.js";
import type { PlatformStore } from "../store-port.js";
import { EXPERIMENT_ITEM_CONCURRENCY } from "./experiment-bodies.js";
import {
  type ExecutorDeps,
  type ItemRun,
  messageOf,
  planVariant,
  runItem,
  type VariantPlan,
} from "./variant-executors.js";

export const EXPERIMENT_RUN_JOB_KIND = "experiment-run";

/** Dataset items read per page while a run walks its version. */
const ITEM_PAGE = 500;
const COMMENT_MAX = 2000;

interface JobPayload {
  runId: string;
}

export interface ExperimentRunWorkerOptions {
  leaseMs?: number | undefined;
  pollMs?: number | undefined;
  /** Items in flight per run (default 4, PLATFORM.md §11). */
  concurrency?: number;
  /** Traces each item as `experiment_item {experiment name}` (PLATFORM.md §13); by default the global provider's. */
  traceHooks?: TraceHooks;
}

export class ExperimentRunWorker {
  private readonly worker: BackgroundWorker;
  /** Runs executing in this process, so a cancel aborts their items in flight. */
  private readonly active = new Map<string, AbortController>();
  private readonly concurrency: number;
  private readonly traceHooks: TraceHooks;

  constructor(
    private readonly store: PlatformStore,
    private readonly executors: ExecutorDeps,
    private readonly evaluators: EvaluatorService,
    private readonly scores: ScoreService,
    options: ExperimentRunWorkerOptions = {},
  ) {
    this.concurrency = Math.max(1, options.concurrency ?? EXPERIMENT_ITEM_CONCURRENCY);
    this.traceHooks = options.traceHooks ?? GLOBAL_TRACE_HOOKS;
    this.worker = new BackgroundWorker(
      store.jobs,
      { [EXPERIMENT_RUN_JOB_KIND]: this.handle },
      { leaseMs: options.leaseMs, pollMs: options.pollMs },
    );
  }

  /** Queues the run's job and wakes the worker. */
  async enqueue(run: ExperimentRunRecord): Promise<void> {
    const payload: JobPayload = { runId: run.id };
    const job = await this.store.jobs.enqueue(EXPERIMENT_RUN_JOB_KIND, payload, {
      organizationId: run.organizationId,
      // Each crash of a process mid-run costs an attempt; the run resumes where it stopped.
      maxAttempts: 20,
    });
    await this.store.experiments.attachJob(run.id, job.id);
    this.worker.poke();
  }

  /** Aborts the items in flight of a run this process executes (after it was cancelled or deleted). */
  abort(runId: string): void {
    this.active.get(runId)?.abort();
  }

  start(): JobWorker {
    return this.worker.start();
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }

  /** Runs every queued run now (scripts and tests). */
  drain(): Promise<number> {
    return this.worker.drain();
  }

  /** The job handler: runs (or resumes) one run. */
  readonly handle = async (job: Job, context: JobContext): Promise<unknown> => {
    const { runId } = job.payload as JobPayload;
    const experiments = this.store.experiments;
    if (!(await experiments.markRunning(runId))) return { skipped: true };
    const run = await experiments.runById(runId);
    const organization = run === null ? null : await this.store.organizations.get(run.organizationId);
    if (run === null || organization === null) return { skipped: true };
    const principal: Principal = {
      organizationId: organization.id,
      organizationName: organization.name,
      plan: organization.plan,
      role: run.role as Role,
      apiKeyId: run.createdByKeyId ?? "",
    };
    const controller = new AbortController();
    this.active.set(run.id, controller);
    const signal = AbortSignal.any([context.signal, controller.signal]);
    // Every item in flight (its call and each evaluator's) listens on the run's signal.
    setMaxListeners(0, signal);
    try {
      await this.execute(run, principal, signal);
    } catch (error) {
      // Worker stopping or lease lost: the run stays `running` and the next claim resumes it.
      if (context.signal.aborted) throw error;
      if (!controller.signal.aborted) await experiments.finishRun(run.id, "failed", messageOf(error));
    } finally {
      this.active.delete(run.id);
    }
    return { status: (await experiments.runById(run.id))?.status ?? "deleted" };
  };

  private async execute(run: ExperimentRunRecord, principal: Principal, signal: AbortSignal): Promise<void> {
    const experiments = this.store.experiments;
    const version = await this.store.datasets.getVersionById(run.datasetId, run.datasetVersionId);
    if (version === null) {
      await experiments.finishRun(
        run.id,
        "failed",
        `Dataset version ${run.datasetVersionId} no longer exists`,
      );
      return;
    }
    // Plan errors (a label that no longer resolves, a deleted judge template) fail the run.
    let plan: VariantPlan;
    let prepared: PreparedEvaluator[];
    try {
      plan =
        (run.plan as VariantPlan | null) ??
        (await planVariant(this.executors, run.organizationId, run.variant));
      prepared = await Promise.all(
        run.evaluators.map(
          async (evaluator, index) =>
            await this.evaluators.prepare(
              run.organizationId,
              { type: evaluator.type, params: evaluator.params },
              `evaluators[${index}].params`,
            ),
        ),
      );
    } catch (error) {
      await experiments.finishRun(run.id, "failed", messageOf(error));
      return;
    }
    if (run.plan === null) await experiments.setPlan(run.id, plan as unknown as Record<string, unknown>);
    const spanName = `experiment_item ${(await experiments.get(run.organizationId, run.experimentId))?.name ?? run.experimentId}`;
    const done = await experiments.resultItemIds(run.id);
    for (let page = 0, position = 0; !signal.aborted; page++) {
      const { items } = await this.store.datasets.listItems(run.datasetId, version, {
        page,
        size: ITEM_PAGE,
      });
      const todo = items
        .map((item, index) => ({ item, position: position + index }))
        .filter(({ item }) => !done.has(item.id));
      position += items.length;
      await this.pool(todo, signal, ({ item, position: at }) =>
        this.runOne(run, principal, plan, prepared, item, at, spanName, signal),
      );
      if (items.length < ITEM_PAGE) break;
    }
    signal.throwIfAborted();
    const finished = await experiments.runById(run.id);
    if (finished === null || finished.status !== "running") return;
    if (finished.completed === 0 && finished.failed > 0) {
      const first = (await experiments.listResults(run.id, { status: "failed" }, { page: 0, size: 1 }))
        .items[0];
      await experiments.finishRun(
        run.id,
        "failed",
        `Every item failed; the first error: ${first?.error ?? "unknown"}`,
      );
      return;
    }
    await experiments.finishRun(run.id, "completed");
  }

  /** Runs `work` over the entries, `concurrency` at a time, starting them in order. */
  private async pool<T>(entries: readonly T[], signal: AbortSignal, work: (entry: T) => Promise<void>) {
    let next = 0;
    const lane = async () => {
      while (next < entries.length && !signal.aborted) {
        const entry = entries[next++] as T;
        await work(entry);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, entries.length) }, lane));
  }

  /** One item as its own trace (`experiment_item`), the variant's model calls its children. */
  private runOne(
    run: ExperimentRunRecord,
    principal: Principal,
    plan: VariantPlan,
    prepared: readonly PreparedEvaluator[],
    item: DatasetItemRecord,
    position: number,
    spanName: string,
    signal: AbortSignal,
  ): Promise<void> {
    const start = { organizationId: run.organizationId, kind: "experiment" as const };
    return tracedSpan(this.traceHooks, spanName, start, async (span) => {
      let outcome: ItemRun;
      let scores: RunScore[] = [];
      try {
        outcome = await runItem(this.executors, principal, run.variant, plan, item.input, signal);
        if (outcome.status === "completed") {
          scores = await this.evaluate(run, principal, prepared, item, outcome, signal);
        }
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      }
      if (signal.aborted) return;
      const otelTraceId = span.isRecording() ? span.spanContext().traceId : null;
      await this.record(run, item, position, outcome, scores, otelTraceId);
    });
  }

  private async evaluate(
    run: ExperimentRunRecord,
    principal: Principal,
    prepared: readonly PreparedEvaluator[],
    item: DatasetItemRecord,
    outcome: ItemRun,
    signal: AbortSignal,
  ): Promise<RunScore[]> {
    const testCase: EvaluationCase = {
      input: item.input,
      output: outcome.output ?? "",
      expectedOutput: item.expectedOutput,
      metadata: item.metadata,
      ...(outcome.grounding === null ? {} : { grounding: outcome.grounding }),
    };
    return Promise.all(
      prepared.map(async (evaluator, index) => {
        const name = run.evaluators[index]?.name ?? evaluator.type;
        const { results } = await this.evaluators.run(principal, evaluator, [testCase], { signal });
        return toRunScore(name, results[0]);
      }),
    );
  }

  /** The result and its `EVAL` scores in one transaction (nothing when the run ended meanwhile). */
  private async record(
    run: ExperimentRunRecord,
    item: DatasetItemRecord,
    position: number,
    outcome: ItemRun,
    scores: RunScore[],
    otelTraceId: string | null,
  ): Promise<void> {
    const experiments = this.store.experiments;
    await experiments.atomically(async () => {
      const result = await experiments.addResult(
        {
          organizationId: run.organizationId,
          runId: run.id,
          datasetItemId: item.id,
          position,
          status: outcome.status,
          input: item.input,
          expectedOutput: item.expectedOutput,
          output: outcome.output,
          error: outcome.error,
          latencyMs: outcome.latencyMs,
          usage: outcome.usage,
          otelTraceId,
          scores,
        },
        addToTotals,
      );
      if (result === null) return;
      const scored = scores.filter((score) => score.value !== null);
      await this.scores.recordEvaluations(
        run.organizationId,
        scored.map((score) => ({
          subjectType: "run_result" as const,
          subjectId: result.id,
          name: score.name,
          dataType: "NUMERIC" as const,
          value: score.value as number,
          comment: score.comment === null ? null : score.comment.slice(0, COMMENT_MAX),
        })),
      );
    });
  }
}

function toRunScore(name: string, outcome: JudgeOutcome | undefined): RunScore {
  if (outcome === undefined)
    return { name, value: null, passed: null, comment: null, error: "not evaluated" };
  if ("score" in outcome) {
    return { name, value: outcome.score, passed: outcome.passed, comment: outcome.comment, error: null };
  }
  if ("skipped" in outcome)
    return { name, value: null, passed: null, comment: `skipped: ${outcome.reason}`, error: null };
  return { name, value: null, passed: null, comment: null, error: outcome.error };
}
