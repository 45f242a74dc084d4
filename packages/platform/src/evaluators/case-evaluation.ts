/**
 * Scoring cases with one evaluator, outside an experiment: either cases given inline, or
 * the outputs an app produced for the items of a dataset (current items or a frozen version),
 * scored against each item's expected output and recorded as `EVAL` scores on the items
 * (`subjectType: dataset_item`). PLATFORM.md §9 lists no such endpoint — experiments (§11) run
 * evaluators over datasets with their own variants — so this is the smaller path for an app
 * that runs its own model calls or extractions (decision EV15).
 */
import { invalidRequest, type Principal } from "@groundwork/core";
import type { EvaluationCase, JudgeOutcome } from "@groundwork/evaluation";
import type { DatasetItemRecord } from "@groundwork/store-sqlite";
import { z } from "zod";
import type { DatasetService } from "../datasets/dataset-service.js";
import { type ScoreService, scoreName } from "../scores/score-service.js";
import { validate } from "../validate.js";
import { evaluatorSpec } from "./evaluator-commands.js";
import type { EvaluatorService } from "./evaluator-service.js";

/** Cases per call: a batch's worth, as dataset batch adds. */
export const MAX_EVALUATION_CASES = 1000;

/** Outputs are text; anything else is evaluated as its JSON text. */
const outputText = z.unknown().transform((value, ctx) => {
  if (typeof value === "string") return value;
  if (value === undefined) {
    ctx.addIssue({ code: "custom", message: "is required (the output to evaluate, text or JSON)" });
    return z.NEVER;
  }
  return JSON.stringify(value);
});

export const evaluationBody = z
  .object({
    evaluator: evaluatorSpec,
    cases: z
      .array(
        z.object({
          input: z.unknown().optional(),
          output: outputText,
          expectedOutput: z.unknown().optional(),
          metadata: z.unknown().optional(),
        }),
      )
      .min(1)
      .max(MAX_EVALUATION_CASES)
      .optional(),
    datasetId: z.string().min(1).optional(),
    version: z.union([z.string().min(1), z.number().int().min(1)]).optional(),
    outputs: z
      .array(z.object({ itemId: z.string().min(1), output: outputText }))
      .min(1)
      .max(MAX_EVALUATION_CASES)
      .optional(),
    scoreName: scoreName.optional(),
    record: z.boolean().default(true),
  })
  .superRefine((body, ctx) => {
    if ((body.cases === undefined) === (body.datasetId === undefined)) {
      ctx.addIssue({ code: "custom", path: ["cases"], message: "give exactly one of cases or datasetId" });
    }
    if (body.datasetId !== undefined && body.outputs === undefined) {
      ctx.addIssue({ code: "custom", path: ["outputs"], message: "is required with datasetId" });
    }
    if (body.datasetId === undefined && (body.outputs !== undefined || body.version !== undefined)) {
      ctx.addIssue({ code: "custom", path: ["datasetId"], message: "is required with outputs or version" });
    }
  });
export type EvaluationBody = z.input<typeof evaluationBody>;

export interface EvaluatedCase {
  /** The dataset item, when the cases came from a dataset. */
  itemId: string | null;
  score: number | null;
  passed: boolean | null;
  comment: string | null;
  skipped: boolean;
  /** Why a case was skipped or failed; null when it was scored. */
  reason: string | null;
  error: string | null;
  /** The recorded `EVAL` score; null when nothing was recorded. */
  scoreId: string | null;
}

export interface EvaluationReport {
  evaluator: { type: string; templateId: string | null; templateVersion: number | null };
  scoreName: string;
  datasetId: string | null;
  datasetVersionId: string | null;
  results: EvaluatedCase[];
  summary: {
    cases: number;
    scored: number;
    skipped: number;
    failed: number;
    /** Mean of the scored cases; null when none was scored. */
    meanScore: number | null;
    /** Share of the scored cases that passed; null when none was scored. */
    passRate: number | null;
  };
}

export class CaseEvaluations {
  constructor(
    private readonly evaluators: EvaluatorService,
    private readonly datasets: DatasetService,
    private readonly scores: ScoreService,
  ) {}

  /**
   * Scores the cases (or a dataset's items with the outputs given for them) with one evaluator.
   * Every reference is checked before anything runs; with a dataset and `record` (the default)
   * each score is recorded in one transaction after all cases ran.
   */
  async evaluate(
    principal: Principal,
    raw: EvaluationBody | unknown,
    options: { signal?: AbortSignal } = {},
  ): Promise<EvaluationReport> {
    const body = validate(evaluationBody, raw);
    const prepared = await this.evaluators.prepare(
      principal.organizationId,
      body.evaluator,
      "evaluator.params",
    );
    const name =
      body.scoreName ?? (prepared.template === null ? prepared.type : `llm_judge:${prepared.template.id}`);
    let cases: EvaluationCase[];
    let itemIds: Array<string | null>;
    let datasetId: string | null = null;
    let datasetVersionId: string | null = null;
    if (body.datasetId !== undefined) {
      const found = await this.datasetCases(principal, body.datasetId, body.version, body.outputs ?? []);
      cases = found.cases;
      itemIds = found.itemIds;
      datasetId = found.datasetId;
      datasetVersionId = found.versionId;
    } else {
      cases = (body.cases ?? []).map((testCase) => ({ ...testCase }));
      itemIds = cases.map(() => null);
    }
    const run = await this.evaluators.run(principal, prepared, cases, options);
    const results = run.results.map((outcome, index) => evaluatedCase(outcome, itemIds[index] ?? null));
    if (datasetId !== null && body.record) await this.record(principal, name, results);
    const scored = results.filter((result) => result.score !== null);
    return {
      evaluator: { type: run.type, templateId: run.templateId, templateVersion: run.templateVersion },
      scoreName: name,
      datasetId,
      datasetVersionId,
      results,
      summary: {
        cases: results.length,
        scored: scored.length,
        skipped: results.filter((result) => result.skipped).length,
        failed: results.filter((result) => result.error !== null).length,
        meanScore:
          scored.length === 0 ? null : scored.reduce((sum, r) => sum + (r.score ?? 0), 0) / scored.length,
        passRate: scored.length === 0 ? null : scored.filter((r) => r.passed === true).length / scored.length,
      },
    };
  }

  /** Each output's item, from the current items or the frozen version; an unknown item is a 400 naming it. */
  private async datasetCases(
    principal: Principal,
    datasetIdOrName: string,
    version: string | number | undefined,
    outputs: ReadonlyArray<{ itemId: string; output: string }>,
  ): Promise<{ cases: EvaluationCase[]; itemIds: string[]; datasetId: string; versionId: string | null }> {
    const dataset = await this.datasets.get(principal, datasetIdOrName);
    const frozen =
      version === undefined ? null : await this.datasets.getVersion(principal, dataset.id, String(version));
    const wanted = new Set(outputs.map((output) => output.itemId));
    const items = new Map<string, DatasetItemRecord>();
    const size = 1000;
    for (let page = 0; items.size < wanted.size; page++) {
      const { items: batch } = await this.datasets.listItems(
        principal,
        dataset.id,
        frozen === null ? {} : { version: frozen.id },
        { page, size },
      );
      for (const item of batch) if (wanted.has(item.id)) items.set(item.id, item);
      if (batch.length < size) break;
    }
    const cases = outputs.map((output, index) => {
      const item = items.get(output.itemId);
      if (item === undefined) {
        throw invalidRequest(
          `Item ${output.itemId} is not ${frozen === null ? "an item" : `in version ${frozen.versionNumber}`} of dataset ${dataset.id}`,
          { param: `outputs[${index}].itemId` },
        );
      }
      return {
        input: item.input,
        output: output.output,
        expectedOutput: item.expectedOutput,
        metadata: item.metadata,
      };
    });
    return {
      cases,
      itemIds: outputs.map((output) => output.itemId),
      datasetId: dataset.id,
      versionId: frozen?.id ?? null,
    };
  }

  private async record(principal: Principal, name: string, results: EvaluatedCase[]): Promise<void> {
    const scored = results.filter((result) => result.score !== null && result.itemId !== null);
    const records = await this.scores.recordEvaluations(
      principal.organizationId,
      scored.map((result) => ({
        subjectType: "dataset_item" as const,
        subjectId: result.itemId as string,
        name,
        dataType: "NUMERIC" as const,
        value: result.score as number,
        comment: result.comment === null ? null : result.comment.slice(0, 2000),
      })),
    );
    scored.forEach((result, index) => {
      result.scoreId = records[index]?.id ?? null;
    });
  }
}

function evaluatedCase(outcome: JudgeOutcome, itemId: string | null): EvaluatedCase {
  if ("score" in outcome) {
    return {
      itemId,
      score: outcome.score,
      passed: outcome.passed,
      comment: outcome.comment,
      skipped: false,
      reason: null,
      error: null,
      scoreId: null,
    };
  }
  if ("skipped" in outcome) {
    return {
      itemId,
      score: null,
      passed: null,
      comment: null,
      skipped: true,
      reason: outcome.reason,
      error: null,
      scoreId: null,
    };
  }
  return {
    itemId,
    score: null,
    passed: null,
    comment: null,
    skipped: false,
    reason: null,
    error: outcome.error,
    scoreId: null,
  };
}
