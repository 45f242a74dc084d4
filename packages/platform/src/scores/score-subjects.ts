/**
 * What a score may be recorded on (PLATFORM.md §10 `subjectType`) and whether a subject exists
 * in an organization. Stored responses, extractions, conversations, dataset items, traces and
 * experiment run results are all looked up in the store; a lookup may be injected instead (tests,
 * or a store that keeps one of them elsewhere).
 */
import type { PlatformStore } from "../store-port.js";

export const SCORE_SUBJECT_TYPES = [
  "trace",
  "response",
  "extraction",
  "run_result",
  "conversation",
  "dataset_item",
] as const;
export type ScoreSubjectType = (typeof SCORE_SUBJECT_TYPES)[number];

/** Whether `subjectId` exists in the organization. */
export type SubjectLookup = (organizationId: string, subjectId: string) => boolean | Promise<boolean>;

/** The lookups of subjects whose groups the store of this build does not hold. */
export interface ScoreSubjectLookups {
  /** `trace` (`trc_…`, PLATFORM.md §13); by default the store's traces. */
  traces?: SubjectLookup;
  /** `run_result` (`xres_…`, PLATFORM.md §11); by default the store's experiment run results. */
  runResults?: SubjectLookup;
}

export class ScoreSubjects {
  private readonly lookups: Record<ScoreSubjectType, SubjectLookup>;

  constructor(store: PlatformStore, injected: ScoreSubjectLookups = {}) {
    this.lookups = {
      // A stored response, or an agent run not recorded (yet) — as GET /v1/responses/{id} reads them.
      response: async (org, id) => {
        const stored = await store.storedResponses.get(org, id);
        return stored?.kind === "model" || (await store.agents.getRun(org, id)) !== null;
      },
      extraction: async (org, id) => (await store.extractions.get(org, id)) !== null,
      conversation: async (org, id) => (await store.agents.getConversation(org, id)) !== null,
      dataset_item: async (org, id) => await store.datasets.itemExists(org, id),
      trace: injected.traces ?? (async (org, id) => await store.traces.exists(org, id)),
      run_result: injected.runResults ?? (async (org, id) => await store.experiments.resultExists(org, id)),
    };
  }

  async exists(organizationId: string, subjectType: ScoreSubjectType, subjectId: string): Promise<boolean> {
    return await this.lookups[subjectType](organizationId, subjectId);
  }
}
