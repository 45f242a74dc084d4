/**
 * Scores (PLATFORM.md §10, after Langfuse scores): a named value — a finite number, a category
 * or a boolean — on a subject of the organization, from a human (`HUMAN`), a program (`API`)
 * or an evaluator (`EVAL`). Callers record `HUMAN` and `API` scores; `EVAL` scores come only
 * from the evaluators through {@link ScoreService.recordEvaluations}. Roles are the HTTP
 * guards' business (Viewer lists, Member records).
 */
import { notFound, type PageRequest, type Principal } from "@groundwork/core";
import type {
  ScoreDataType,
  ScoreFilter,
  ScoreInsert,
  ScoreRecord,
  ScoreSource,
  ScoreValue,
} from "@groundwork/store-sqlite";
import { z } from "zod";
import type { PlatformStore } from "../store-port.js";
import { isoInstant, validate } from "../validate.js";
import { SCORE_SUBJECT_TYPES, type ScoreSubjects, type ScoreSubjectType } from "./score-subjects.js";

export const SCORE_NAME_PATTERN = /^[A-Za-z0-9_.:-]+$/;
export const SCORE_NAME_MAX_LENGTH = 100;
export const SCORE_CATEGORY_MAX_LENGTH = 100;
export const SCORE_COMMENT_MAX_LENGTH = 2000;
export const SCORE_DATA_TYPES = [
  "NUMERIC",
  "CATEGORICAL",
  "BOOLEAN",
] as const satisfies readonly ScoreDataType[];
export const SCORE_SOURCES = ["HUMAN", "API", "EVAL"] as const satisfies readonly ScoreSource[];

const subjectType = z.enum(SCORE_SUBJECT_TYPES, {
  error: `subjectType must be one of ${SCORE_SUBJECT_TYPES.join(", ")}`,
});
const dataType = z.enum(SCORE_DATA_TYPES, {
  error: `dataType must be one of ${SCORE_DATA_TYPES.join(", ")}`,
});
/** A score's name (also the default name of evaluator scores). */
export const scoreName = z
  .string({ error: "name must be a string" })
  .min(1, "name must not be empty")
  .max(SCORE_NAME_MAX_LENGTH, `name is at most ${SCORE_NAME_MAX_LENGTH} characters`)
  .regex(SCORE_NAME_PATTERN, "name may contain only letters, digits and _ . : -");
const comment = z
  .string({ error: "comment must be a string or null" })
  .max(SCORE_COMMENT_MAX_LENGTH, `comment is at most ${SCORE_COMMENT_MAX_LENGTH} characters`)
  .nullable()
  .default(null);

/** The value's type must match `dataType`; -0 is recorded as 0. */
export function checkScoreValue(
  value: unknown,
  type: ScoreDataType,
): { value: ScoreValue } | { problem: string } {
  switch (type) {
    case "NUMERIC":
      if (typeof value !== "number" || !Number.isFinite(value)) {
        return { problem: "value must be a finite number for dataType NUMERIC" };
      }
      return { value: value === 0 ? 0 : value };
    case "CATEGORICAL":
      if (typeof value !== "string" || value.length < 1 || value.length > SCORE_CATEGORY_MAX_LENGTH) {
        return {
          problem: `value must be a string of 1-${SCORE_CATEGORY_MAX_LENGTH} characters for dataType CATEGORICAL`,
        };
      }
      return { value };
    case "BOOLEAN":
      if (typeof value !== "boolean") return { problem: "value must be a boolean for dataType BOOLEAN" };
      return { value };
  }
}

const scoreFields = {
  subjectType,
  subjectId: z.string({ error: "subjectId must be a string" }).min(1, "subjectId must not be empty"),
  name: scoreName,
  dataType,
  value: z.unknown(),
  comment,
};

/** Puts the checked value in place, or fails with `param: "value"`. */
function typedValue<T extends { dataType: ScoreDataType; value: unknown }>(
  score: T,
  ctx: z.RefinementCtx,
): Omit<T, "value"> & { value: ScoreValue } {
  const checked = checkScoreValue(score.value, score.dataType);
  if ("problem" in checked) {
    ctx.addIssue({ code: "custom", path: ["value"], message: checked.problem });
    return z.NEVER;
  }
  return { ...score, value: checked.value };
}

/** `POST /v1/scores` and the library's `scores.record` input. */
export const scoreRecordBody = z
  .object({
    ...scoreFields,
    source: z
      .enum(SCORE_SOURCES, { error: "source must be HUMAN or API" })
      .default("HUMAN")
      .refine((source) => source !== "EVAL", "source EVAL is written only by evaluators; send HUMAN or API")
      .transform((source) => source as "HUMAN" | "API"),
  })
  .transform(typedValue);
export type ScoreRecordInput = z.input<typeof scoreRecordBody>;

/** One evaluator result (PLATFORM.md §9): recorded as `EVAL`, `NUMERIC` unless stated, without a key. */
export const evaluationScore = z
  .object({ ...scoreFields, dataType: dataType.default("NUMERIC") })
  .transform(typedValue);
export type EvaluationScoreInput = z.input<typeof evaluationScore>;

const instant = isoInstant;

/** The filters of `GET /v1/scores` (page and size are read by the route). */
export const scoreListQuery = z
  .object({
    subjectType: subjectType.optional(),
    subjectId: z.string().min(1, "subjectId must not be empty").optional(),
    name: z.string().min(1, "name must not be empty").optional(),
    source: z.enum(SCORE_SOURCES, { error: `source must be one of ${SCORE_SOURCES.join(", ")}` }).optional(),
    dataType: dataType.optional(),
    from: instant.optional(),
    to: instant.optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    path: ["to"],
    message: "to must not be before from",
  });
export type ScoreListQuery = z.input<typeof scoreListQuery>;

export class ScoreService {
  constructor(
    private readonly store: Pick<PlatformStore, "scores">,
    private readonly subjects: ScoreSubjects,
  ) {}

  /** Records a `HUMAN` (default) or `API` score of the caller's key on a subject of its organization. */
  async record(principal: Principal, raw: ScoreRecordInput | unknown): Promise<ScoreRecord> {
    const input = validate(scoreRecordBody, raw);
    await this.mustExist(principal.organizationId, input.subjectType, input.subjectId);
    return await this.store.scores.create({
      organizationId: principal.organizationId,
      ...input,
      queueItemId: null,
      // A library principal has no key (`""`): nobody to name.
      createdByKeyId: principal.apiKeyId === "" ? null : principal.apiKeyId,
    });
  }

  /**
   * Records evaluator scores (`source: EVAL`, no key, no queue item) all at once: every score is
   * checked as `record` checks it (fields, value type, subject) and then all are written in one
   * transaction, or none when one fails. Not reachable through `POST /v1/scores`.
   */
  async recordEvaluations(
    organizationId: string,
    raw: readonly EvaluationScoreInput[],
  ): Promise<ScoreRecord[]> {
    const inputs = validate(z.array(evaluationScore), raw);
    const rows: ScoreInsert[] = [];
    // In input order, so the first score that fails is the one reported.
    for (const input of inputs) {
      await this.mustExist(organizationId, input.subjectType, input.subjectId);
      rows.push({ organizationId, ...input, source: "EVAL", queueItemId: null, createdByKeyId: null });
    }
    return await this.store.scores.createMany(rows);
  }

  /**
   * Records the scores a reviewer gives through an annotation-queue item (PLATFORM.md §12):
   * `HUMAN`, on the item's subject, with its `queueItemId`, all in one transaction or none.
   * The queue checks its score configs first; each value is checked here again as `record`
   * checks it. The subject was checked when the item was added and is not looked up again
   * (a score outlives its subject, SC7).
   */
  async recordForQueueItem(
    principal: Principal,
    item: { id: string; subjectType: string; subjectId: string },
    raw: ReadonlyArray<{ name: string; dataType: ScoreDataType; value: unknown; comment?: string | null }>,
  ): Promise<ScoreRecord[]> {
    const inputs = validate(
      z.array(evaluationScore),
      raw.map((score) => ({ ...score, subjectType: item.subjectType, subjectId: item.subjectId })),
    );
    return await this.store.scores.createMany(
      inputs.map((input) => ({
        organizationId: principal.organizationId,
        ...input,
        source: "HUMAN",
        queueItemId: item.id,
        createdByKeyId: principal.apiKeyId === "" ? null : principal.apiKeyId,
      })),
    );
  }

  /** Whether a subject of this type exists in the organization (as `record` requires). */
  async hasSubject(organizationId: string, type: ScoreSubjectType, id: string): Promise<boolean> {
    return await this.subjects.exists(organizationId, type, id);
  }

  /** Newest first; `from` inclusive, `to` exclusive. */
  async list(
    principal: Principal,
    query: ScoreListQuery | unknown,
    page: PageRequest,
  ): Promise<{ items: ScoreRecord[]; total: number }> {
    const filter: ScoreFilter = validate(scoreListQuery, query ?? {});
    return await this.store.scores.list(principal.organizationId, filter, page);
  }

  async get(principal: Principal, scoreId: string): Promise<ScoreRecord> {
    const score = await this.store.scores.get(principal.organizationId, scoreId);
    if (score === null) throw notFound(`No score ${scoreId}`, { param: "scoreId" });
    return score;
  }

  private async mustExist(organizationId: string, type: ScoreSubjectType, id: string): Promise<void> {
    if (!(await this.subjects.exists(organizationId, type, id))) {
      throw notFound(`No ${type} ${id} in this organization`, { param: "subjectId" });
    }
  }
}
