/**
 * Annotation queues (PLATFORM.md §12, after Langfuse): queues of subjects (responses,
 * conversations, … — the scores' subject types) that members review one at a time. A member
 * (the API key) claims the oldest free PENDING item and holds its lock for `lockSeconds`;
 * updates record the member's scores against the queue's score configs (as `HUMAN` scores with
 * the item's `queueItemId`) and complete or reopen the item. Roles are the HTTP guards'
 * business (Viewer reads, Member works on items, Admin manages queues); every lookup is scoped
 * by the caller's organization. Lock expiry reads the injected clock.
 */
import {
  type Clock,
  conflict,
  invalidRequest,
  notFound,
  type PageRequest,
  type Principal,
  systemClock,
} from "@groundwork/core";
import type {
  AnnotationQueueRecord,
  QueueItemChanges,
  QueueItemRecord,
  QueueScoreConfig,
} from "@groundwork/store-sqlite";
import type { ScoreService } from "../scores/score-service.js";
import { checkScoreValue } from "../scores/score-service.js";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";
import {
  queueCreateBody,
  queueItemsAddBody,
  queueItemsBySubjectQuery,
  queueItemsQuery,
  queueItemUpdateBody,
  queueListQuery,
  queueUpdateBody,
} from "./annotation-queue-bodies.js";

export interface AnnotationQueueServiceOptions {
  /** How long a claim or an update locks an item to its member (PLATFORM.md §12: 300 s by default). */
  lockSeconds: number;
  clock?: Clock;
}

export class AnnotationQueueService {
  private readonly queues: PlatformStore["annotationQueues"];
  private readonly clock: Clock;
  private readonly lockMs: number;

  constructor(
    store: PlatformStore,
    private readonly scores: ScoreService,
    options: AnnotationQueueServiceOptions,
  ) {
    if (!Number.isInteger(options.lockSeconds) || options.lockSeconds < 1) {
      throw new Error(`queues.lockSeconds must be an integer of at least 1 (got ${options.lockSeconds})`);
    }
    this.queues = store.annotationQueues;
    this.clock = options.clock ?? systemClock;
    this.lockMs = options.lockSeconds * 1000;
  }

  // ---- queues ----

  async create(principal: Principal, raw: unknown): Promise<AnnotationQueueRecord> {
    const input = validate(queueCreateBody, raw);
    const org = principal.organizationId;
    return await this.queues.atomically(async () => {
      await this.refuseTakenName(org, input.name, null);
      return await this.queues.createQueue(org, {
        name: input.name,
        description: input.description ?? null,
        scoreConfigs: input.scoreConfigs,
      });
    });
  }

  /** Newest first; `status` is `ACTIVE` (default), `ARCHIVED` or `all`. */
  async list(
    principal: Principal,
    query: unknown,
    page: PageRequest,
  ): Promise<{ items: AnnotationQueueRecord[]; total: number }> {
    const { status = "ACTIVE" } = validate(queueListQuery, query ?? {});
    return await this.queues.listQueues(principal.organizationId, status === "all" ? null : status, page);
  }

  async get(principal: Principal, queueId: string): Promise<AnnotationQueueRecord> {
    const queue = await this.queues.getQueue(principal.organizationId, queueId);
    if (queue === null) throw notFound(`No annotation queue ${queueId}`, { param: "queueId" });
    return queue;
  }

  /** Changes name, description or score configs of an active queue; an empty body changes nothing. */
  async update(principal: Principal, queueId: string, raw: unknown): Promise<AnnotationQueueRecord> {
    const input = validate(queueUpdateBody, raw ?? {});
    const org = principal.organizationId;
    return await this.queues.atomically(async () => {
      const queue = await this.active(principal, queueId);
      if (input.name !== undefined) await this.refuseTakenName(org, input.name, queue.id);
      return await this.queues.updateQueue(org, queue.id, {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.description === undefined ? {} : { description: input.description }),
        ...(input.scoreConfigs === undefined ? {} : { scoreConfigs: input.scoreConfigs }),
      });
    });
  }

  /** Archives the queue and releases its items' locks; archiving an archived queue changes nothing. */
  async archive(principal: Principal, queueId: string): Promise<AnnotationQueueRecord> {
    return await this.queues.atomically(
      async () =>
        await this.queues.archiveQueue(principal.organizationId, (await this.get(principal, queueId)).id),
    );
  }

  // ---- items ----

  /**
   * Adds 1–500 subjects of the organization (each must exist, else 404 naming it) in the given
   * order; subjects with a PENDING item in the queue are not added again but counted as `skipped`.
   */
  async addItems(
    principal: Principal,
    queueId: string,
    raw: unknown,
  ): Promise<{ added: QueueItemRecord[]; skipped: number }> {
    const { items } = validate(queueItemsAddBody, raw);
    const org = principal.organizationId;
    return await this.queues.atomically(async () => {
      const queue = await this.active(principal, queueId);
      for (const [index, item] of items.entries()) {
        if (!(await this.scores.hasSubject(org, item.subjectType, item.subjectId))) {
          throw notFound(`No ${item.subjectType} ${item.subjectId} in this organization`, {
            param: `items[${index}].subjectId`,
          });
        }
      }
      return await this.queues.addItems(org, queue.id, items);
    });
  }

  /** Oldest first; `status` PENDING or COMPLETED narrows. */
  async listItems(
    principal: Principal,
    queueId: string,
    query: unknown,
    page: PageRequest,
  ): Promise<{ items: QueueItemRecord[]; total: number }> {
    const { status } = validate(queueItemsQuery, query ?? {});
    return await this.queues.listItems((await this.get(principal, queueId)).id, status ?? null, page);
  }

  async getItem(principal: Principal, queueId: string, itemId: string): Promise<QueueItemRecord> {
    return await this.item(await this.get(principal, queueId), itemId);
  }

  /** The organization's items on one subject across its queues (archived ones included), newest first. */
  async findItems(
    principal: Principal,
    query: unknown,
    page: PageRequest,
  ): Promise<{ items: QueueItemRecord[]; total: number }> {
    const { subjectType, subjectId, status } = validate(queueItemsBySubjectQuery, query ?? {});
    return await this.queues.findItems(
      principal.organizationId,
      { subjectType, subjectId },
      status ?? null,
      page,
    );
  }

  /**
   * Locks an item to the caller: its own unexpired lock in the queue (renewed), else the oldest
   * PENDING item whose lock is absent or expired; null when nothing is claimable.
   */
  async claim(principal: Principal, queueId: string): Promise<QueueItemRecord | null> {
    const member = memberOf(principal);
    return await this.queues.atomically(async () => {
      const queue = await this.active(principal, queueId);
      return await this.queues.claim(queue.id, member, this.clock.now(), this.lockMs);
    });
  }

  /**
   * Records scores (each named by a score config, its value within the config's range or
   * categories), completes (`COMPLETED`: every config scored in this call or since the item was
   * last reopened) or reopens (`PENDING`: lock and completion cleared) an item. Any other update
   * takes or renews the caller's lock; an item another member holds an unexpired lock on is
   * `409 item_locked`. Scores and the item change together or not at all.
   */
  async updateItem(
    principal: Principal,
    queueId: string,
    itemId: string,
    raw: unknown,
  ): Promise<QueueItemRecord> {
    const input = validate(queueItemUpdateBody, raw ?? {});
    const member = memberOf(principal);
    return await this.queues.atomically(async () => {
      const queue = await this.active(principal, queueId);
      const item = await this.item(queue, itemId);
      const scores = checkScores(queue.scoreConfigs, input.scores ?? []);
      const now = this.clock.now();
      const reopened = input.status === "PENDING" && item.status === "COMPLETED";
      const scoredNames = [
        ...new Set([...(reopened ? [] : item.scoredNames), ...scores.map((score) => score.name)]),
      ];
      if (input.status === "COMPLETED") {
        const missing = queue.scoreConfigs.filter((config) => !scoredNames.includes(config.name));
        if (missing.length > 0) {
          throw invalidRequest(
            `Completing the item needs a score for every score config of the queue; missing: ${missing.map((c) => c.name).join(", ")}`,
            { param: "scores", code: "scores_required" },
          );
        }
      }
      if (item.lockedByKeyId !== null && item.lockedByKeyId !== member && (item.lockedUntil ?? 0) > now) {
        throw conflict(
          `Item ${item.id} is locked by ${item.lockedByKeyId} until ${new Date(item.lockedUntil ?? 0).toISOString()}`,
          { param: "itemId", code: "item_locked" },
        );
      }
      if (scores.length > 0) await this.scores.recordForQueueItem(principal, item, scores);
      const changes: QueueItemChanges =
        input.status === "PENDING"
          ? {
              status: "PENDING",
              lockedByKeyId: null,
              lockedUntil: null,
              completedByKeyId: null,
              completedAt: null,
              scoredNames,
            }
          : {
              lockedByKeyId: member,
              lockedUntil: now + this.lockMs,
              scoredNames,
              ...(input.status === "COMPLETED"
                ? { status: "COMPLETED", completedByKeyId: member, completedAt: now }
                : {}),
            };
      return await this.queues.updateItem(queue.id, item.id, changes);
    });
  }

  /** The queue, when it may still be written to (an archived one is 409). */
  private async active(principal: Principal, queueId: string): Promise<AnnotationQueueRecord> {
    const queue = await this.get(principal, queueId);
    if (queue.status === "ARCHIVED") {
      throw conflict(`Annotation queue ${queue.id} is archived; it can be read but not changed`, {
        param: "queueId",
      });
    }
    return queue;
  }

  private async item(queue: AnnotationQueueRecord, itemId: string): Promise<QueueItemRecord> {
    const item = await this.queues.getItem(queue.id, itemId);
    if (item === null)
      throw notFound(`Annotation queue ${queue.id} has no item ${itemId}`, { param: "itemId" });
    return item;
  }

  private async refuseTakenName(
    organizationId: string,
    name: string,
    exceptId: string | null,
  ): Promise<void> {
    const taken = await this.queues.findQueueByName(organizationId, name);
    if (taken !== null && taken.id !== exceptId) {
      throw conflict(`An annotation queue named "${name}" already exists`, { param: "name" });
    }
  }
}

/** The member a lock names: the caller's API key. A library principal without one cannot hold locks. */
function memberOf(principal: Principal): string {
  if (principal.apiKeyId === "") {
    throw invalidRequest(
      "Claiming and updating queue items needs a member: call with a principal whose apiKeyId names the reviewer",
    );
  }
  return principal.apiKeyId;
}

/**
 * The scores of one item update, each matched to its config (by name, once per call) and its
 * value checked against the config's data type, range and categories (400 naming the score).
 */
function checkScores(
  configs: readonly QueueScoreConfig[],
  scores: ReadonlyArray<{ name: string; value: unknown; comment?: string | null | undefined }>,
): Array<{ name: string; dataType: QueueScoreConfig["dataType"]; value: unknown; comment: string | null }> {
  const seen = new Set<string>();
  return scores.map((score, index) => {
    const config = configs.find((c) => c.name === score.name);
    const param = `scores[${index}]`;
    if (config === undefined) {
      throw invalidRequest(
        `${param}.name: "${score.name}" is not a score config of the queue (${configs.map((c) => c.name).join(", ")})`,
        { param: `${param}.name` },
      );
    }
    if (seen.has(score.name)) {
      throw invalidRequest(`${param}.name: "${score.name}" is scored twice in one call`, {
        param: `${param}.name`,
      });
    }
    seen.add(score.name);
    const problem = valueProblem(config, score.value);
    if (problem !== null) throw invalidRequest(`${param}.value: ${problem}`, { param: `${param}.value` });
    return {
      name: score.name,
      dataType: config.dataType,
      value: score.value,
      comment: score.comment ?? null,
    };
  });
}

function valueProblem(config: QueueScoreConfig, value: unknown): string | null {
  const typed = checkScoreValue(value, config.dataType);
  if ("problem" in typed) return typed.problem;
  if (config.dataType === "NUMERIC" && typeof value === "number") {
    if (config.min !== undefined && value < config.min) return `value must be at least ${config.min}`;
    if (config.max !== undefined && value > config.max) return `value must be at most ${config.max}`;
  }
  if (
    config.dataType === "CATEGORICAL" &&
    config.categories !== undefined &&
    !config.categories.includes(value as string)
  ) {
    return `value must be one of ${config.categories.join(", ")}`;
  }
  return null;
}
