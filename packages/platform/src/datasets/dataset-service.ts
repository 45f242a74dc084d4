/**
 * Datasets (PLATFORM.md §8): datasets with items (input, expected output, metadata,
 * source trace), single and batch adds validated as a whole, and immutable versions that
 * freeze the current items. Roles are the HTTP guards' business (Viewer reads, Member
 * writes, Admin deletes a dataset); every lookup is scoped by the caller's organization.
 */
import { conflict, invalidRequest, notFound, type PageRequest, type Principal } from "@groundwork/core";
import type {
  DatasetItemRecord,
  DatasetItemValues,
  DatasetRecord,
  DatasetVersionRecord,
} from "@groundwork/store-sqlite";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";
import {
  DATASET_ITEM_MAX_BYTES,
  DATASET_MAX_ITEMS,
  datasetCreateBody,
  datasetItemBody,
  datasetItemsBatchBody,
  datasetItemsQuery,
  datasetItemUpdateBody,
  datasetListQuery,
  datasetUpdateBody,
  datasetVersionBody,
} from "./dataset-bodies.js";

/**
 * Says whether something (an experiment) references the dataset: a sentence naming it,
 * or null. The experiments service registers one with {@link DatasetService.addInUseCheck}.
 */
export type DatasetInUseCheck = (
  organizationId: string,
  datasetId: string,
) => string | null | Promise<string | null>;

type ItemFields = "input" | "expectedOutput" | "metadata";

export class DatasetService {
  private readonly datasets: PlatformStore["datasets"];
  private readonly inUseChecks: DatasetInUseCheck[] = [];

  constructor(store: PlatformStore) {
    this.datasets = store.datasets;
  }

  /** Adds a check asked before a dataset is deleted; a non-null answer refuses with 409 `dataset_in_use`. */
  addInUseCheck(check: DatasetInUseCheck): void {
    this.inUseChecks.push(check);
  }

  /** Whether `itemId` is an item of one of the organization's datasets (current, or kept by a version). */
  async hasItem(organizationId: string, itemId: string): Promise<boolean> {
    return await this.datasets.itemExists(organizationId, itemId);
  }

  // ---- datasets ----

  async create(principal: Principal, raw: unknown): Promise<DatasetRecord> {
    const input = validate(datasetCreateBody, raw);
    const org = principal.organizationId;
    return await this.datasets.atomically(async () => {
      await this.refuseTakenName(org, input.name, null);
      return await this.datasets.create(org, {
        name: input.name,
        description: input.description ?? null,
        metadata: input.metadata ?? {},
      });
    });
  }

  async list(
    principal: Principal,
    query: unknown,
    page: PageRequest,
  ): Promise<{ items: DatasetRecord[]; total: number }> {
    const filter = validate(datasetListQuery, query);
    return await this.datasets.list(principal.organizationId, filter, page);
  }

  async get(principal: Principal, datasetId: string): Promise<DatasetRecord> {
    const dataset = await this.datasets.get(principal.organizationId, datasetId);
    if (dataset === null) throw notFound(`No dataset ${datasetId}`, { param: "datasetId" });
    return dataset;
  }

  /** Changes name, description or metadata; an empty body changes nothing. */
  async update(principal: Principal, datasetId: string, raw: unknown): Promise<DatasetRecord> {
    const input = validate(datasetUpdateBody, raw);
    const org = principal.organizationId;
    return await this.datasets.atomically(async () => {
      const dataset = await this.get(principal, datasetId);
      if (input.name !== undefined) await this.refuseTakenName(org, input.name, dataset.id);
      return await this.datasets.update(org, dataset.id, {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.description === undefined ? {} : { description: input.description }),
        ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
      });
    });
  }

  /** Deletes the dataset with its items and versions, unless something references it. */
  async delete(principal: Principal, datasetId: string): Promise<void> {
    const org = principal.organizationId;
    await this.datasets.atomically(async () => {
      const dataset = await this.get(principal, datasetId);
      for (const check of this.inUseChecks) {
        const reason = await check(org, dataset.id);
        if (reason !== null) {
          throw conflict(`Dataset ${dataset.id} is in use: ${reason}`, {
            param: "datasetId",
            code: "dataset_in_use",
          });
        }
      }
      await this.datasets.delete(org, dataset.id);
    });
  }

  // ---- items ----

  async addItem(principal: Principal, datasetId: string, raw: unknown): Promise<DatasetItemRecord> {
    const item = toValues(validate(datasetItemBody, raw), "");
    const [added] = await this.add(principal, datasetId, [item], null);
    if (added === undefined) throw new Error("The item was not added");
    return added;
  }

  /** Adds 1–1,000 items in the given order; one invalid item refuses them all. */
  async addItems(
    principal: Principal,
    datasetId: string,
    raw: unknown,
  ): Promise<{ count: number; items: DatasetItemRecord[] }> {
    const body = validate(datasetItemsBatchBody, raw);
    const values = body.items.map((item, index) => toValues(item, `items[${index}].`));
    const items = await this.add(principal, datasetId, values, "items");
    return { count: items.length, items };
  }

  /**
   * The items oldest first (items added in one call keep its order): the current ones, or
   * with `version` (an id or a number) those frozen in that version.
   */
  async listItems(
    principal: Principal,
    datasetId: string,
    query: unknown,
    page: PageRequest,
  ): Promise<{ items: DatasetItemRecord[]; total: number }> {
    const { version } = validate(datasetItemsQuery, query);
    const dataset = await this.get(principal, datasetId);
    const frozen =
      version === undefined || version === "" ? null : await this.findVersion(dataset.id, version, "version");
    return await this.datasets.listItems(dataset.id, frozen, page);
  }

  async getItem(principal: Principal, datasetId: string, itemId: string): Promise<DatasetItemRecord> {
    const dataset = await this.get(principal, datasetId);
    const item = await this.datasets.getItem(dataset.id, itemId);
    if (item === null) throw noItem(dataset.id, itemId);
    return item;
  }

  /** Changes the expected output (`null` clears it) and/or the metadata; versions keep what they froze. */
  async updateItem(
    principal: Principal,
    datasetId: string,
    itemId: string,
    raw: unknown,
  ): Promise<DatasetItemRecord> {
    const input = validate(datasetItemUpdateBody, raw);
    return await this.datasets.atomically(async () => {
      const current = await this.getItem(principal, datasetId, itemId);
      const expectedOutput =
        input.expectedOutput === undefined ? current.expectedOutput : input.expectedOutput;
      const metadata = input.metadata ?? current.metadata;
      checkItemSize({ input: current.input, expectedOutput, metadata }, "");
      const updated = await this.datasets.updateItem(current.datasetId, current.id, {
        ...(input.expectedOutput === undefined ? {} : { expectedOutput: input.expectedOutput }),
        ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
      });
      if (updated === null) throw noItem(current.datasetId, itemId);
      return updated;
    });
  }

  /** Removes the item from the dataset's current items; versions that froze it keep it. */
  async deleteItem(principal: Principal, datasetId: string, itemId: string): Promise<void> {
    const dataset = await this.get(principal, datasetId);
    if (!(await this.datasets.deleteItem(dataset.id, itemId))) throw noItem(dataset.id, itemId);
  }

  // ---- versions ----

  /** Freezes the current items as the next version; an empty dataset cannot be frozen (409 `dataset_empty`). */
  async createVersion(
    principal: Principal,
    datasetId: string,
    raw: unknown = {},
  ): Promise<DatasetVersionRecord> {
    const input = validate(datasetVersionBody, raw ?? {});
    return await this.datasets.atomically(async () => {
      const dataset = await this.get(principal, datasetId);
      if (dataset.itemCount === 0) {
        throw conflict(`Dataset ${dataset.id} has no items; add items before freezing a version`, {
          param: "datasetId",
          code: "dataset_empty",
        });
      }
      return await this.datasets.createVersion(dataset.id, input.description ?? null);
    });
  }

  /** Newest first. */
  async listVersions(
    principal: Principal,
    datasetId: string,
    page: PageRequest,
  ): Promise<{ items: DatasetVersionRecord[]; total: number }> {
    return await this.datasets.listVersions((await this.get(principal, datasetId)).id, page);
  }

  /** A version by id (`dsv_…`) or number. */
  async getVersion(
    principal: Principal,
    datasetId: string,
    versionRef: string,
  ): Promise<DatasetVersionRecord> {
    return await this.findVersion((await this.get(principal, datasetId)).id, versionRef, "versionId");
  }

  private async add(
    principal: Principal,
    datasetId: string,
    values: DatasetItemValues[],
    param: string | null,
  ): Promise<DatasetItemRecord[]> {
    return await this.datasets.atomically(async () => {
      const dataset = await this.get(principal, datasetId);
      if (dataset.itemCount + values.length > DATASET_MAX_ITEMS) {
        const room = DATASET_MAX_ITEMS - dataset.itemCount;
        throw conflict(
          `Dataset ${dataset.id} holds ${dataset.itemCount} items and may hold at most ${DATASET_MAX_ITEMS}; ` +
            `${values.length} more do not fit (room for ${room})`,
          { param, code: "dataset_full" },
        );
      }
      return await this.datasets.addItems(dataset.id, values);
    });
  }

  private async findVersion(datasetId: string, ref: string, param: string): Promise<DatasetVersionRecord> {
    const version = /^\d{1,15}$/.test(ref)
      ? await this.datasets.getVersionByNumber(datasetId, Number(ref))
      : await this.datasets.getVersionById(datasetId, ref);
    if (version === null) throw notFound(`Dataset ${datasetId} has no version ${ref}`, { param });
    return version;
  }

  private async refuseTakenName(
    organizationId: string,
    name: string,
    exceptId: string | null,
  ): Promise<void> {
    const taken = await this.datasets.findByName(organizationId, name);
    if (taken !== null && taken.id !== exceptId) {
      throw conflict(`A dataset named "${name}" already exists`, { param: "name" });
    }
  }
}

function noItem(datasetId: string, itemId: string) {
  return notFound(`Dataset ${datasetId} has no item ${itemId}`, { param: "itemId" });
}

/** The values to store, with their JSON; refuses values JSON cannot hold and items over the size limit. */
function toValues(
  item: {
    input?: unknown;
    expectedOutput?: unknown;
    metadata?: Record<string, unknown> | undefined;
    sourceTraceId?: string | null | undefined;
  },
  prefix: string,
): DatasetItemValues {
  const values = {
    input: item.input,
    expectedOutput: item.expectedOutput ?? null,
    metadata: item.metadata ?? {},
  };
  return { ...values, sourceTraceId: item.sourceTraceId ?? null, json: checkItemSize(values, prefix) };
}

/**
 * The item's fields as JSON. Over 256 KiB together → 400 `item_too_large` naming the
 * largest of the three (decision DS3).
 */
function checkItemSize(
  values: Record<ItemFields, unknown>,
  prefix: string,
): { input: string; expectedOutput: string; metadata: string } {
  const json = {
    input: serialize(values.input, `${prefix}input`),
    expectedOutput: serialize(values.expectedOutput, `${prefix}expectedOutput`),
    metadata: serialize(values.metadata, `${prefix}metadata`),
  };
  const sizes = {
    input: Buffer.byteLength(json.input, "utf8"),
    expectedOutput: Buffer.byteLength(json.expectedOutput, "utf8"),
    metadata: Buffer.byteLength(json.metadata, "utf8"),
  };
  const total = sizes.input + sizes.expectedOutput + sizes.metadata;
  if (total > DATASET_ITEM_MAX_BYTES) {
    const largest = (Object.keys(sizes) as ItemFields[]).reduce((a, b) => (sizes[b] > sizes[a] ? b : a));
    throw invalidRequest(
      `${prefix === "" ? "The item" : prefix.slice(0, -1)}: input, expectedOutput and metadata hold ${total} bytes of JSON together; ` +
        `an item holds at most ${DATASET_ITEM_MAX_BYTES}`,
      { param: `${prefix}${largest}`, code: "item_too_large" },
    );
  }
  return json;
}

function serialize(value: unknown, param: string): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) throw invalidRequest(`${param} must be a JSON value`, { param });
  return json;
}
