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
  DatasetStore,
  DatasetVersionRecord,
  Store,
} from "@groundwork/store-sqlite";
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
export type DatasetInUseCheck = (organizationId: string, datasetId: string) => string | null;

type ItemFields = "input" | "expectedOutput" | "metadata";

export class DatasetService {
  private readonly datasets: DatasetStore;
  private readonly inUseChecks: DatasetInUseCheck[] = [];

  constructor(store: Store) {
    this.datasets = store.datasets;
  }

  /** Adds a check asked before a dataset is deleted; a non-null answer refuses with 409 `dataset_in_use`. */
  addInUseCheck(check: DatasetInUseCheck): void {
    this.inUseChecks.push(check);
  }

  /** Whether `itemId` is an item of one of the organization's datasets (current, or kept by a version). */
  hasItem(organizationId: string, itemId: string): boolean {
    return this.datasets.itemExists(organizationId, itemId);
  }

  // ---- datasets ----

  create(principal: Principal, raw: unknown): DatasetRecord {
    const input = validate(datasetCreateBody, raw);
    const org = principal.organizationId;
    return this.datasets.atomically(() => {
      this.refuseTakenName(org, input.name, null);
      return this.datasets.create(org, {
        name: input.name,
        description: input.description ?? null,
        metadata: input.metadata ?? {},
      });
    });
  }

  list(principal: Principal, query: unknown, page: PageRequest): { items: DatasetRecord[]; total: number } {
    const filter = validate(datasetListQuery, query);
    return this.datasets.list(principal.organizationId, filter, page);
  }

  get(principal: Principal, datasetId: string): DatasetRecord {
    const dataset = this.datasets.get(principal.organizationId, datasetId);
    if (dataset === null) throw notFound(`No dataset ${datasetId}`, { param: "datasetId" });
    return dataset;
  }

  /** Changes name, description or metadata; an empty body changes nothing. */
  update(principal: Principal, datasetId: string, raw: unknown): DatasetRecord {
    const input = validate(datasetUpdateBody, raw);
    const org = principal.organizationId;
    return this.datasets.atomically(() => {
      const dataset = this.get(principal, datasetId);
      if (input.name !== undefined) this.refuseTakenName(org, input.name, dataset.id);
      return this.datasets.update(org, dataset.id, {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.description === undefined ? {} : { description: input.description }),
        ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
      });
    });
  }

  /** Deletes the dataset with its items and versions, unless something references it. */
  delete(principal: Principal, datasetId: string): void {
    const org = principal.organizationId;
    this.datasets.atomically(() => {
      const dataset = this.get(principal, datasetId);
      for (const check of this.inUseChecks) {
        const reason = check(org, dataset.id);
        if (reason !== null) {
          throw conflict(`Dataset ${dataset.id} is in use: ${reason}`, {
            param: "datasetId",
            code: "dataset_in_use",
          });
        }
      }
      this.datasets.delete(org, dataset.id);
    });
  }

  // ---- items ----

  addItem(principal: Principal, datasetId: string, raw: unknown): DatasetItemRecord {
    const item = toValues(validate(datasetItemBody, raw), "");
    const [added] = this.add(principal, datasetId, [item], null);
    if (added === undefined) throw new Error("The item was not added");
    return added;
  }

  /** Adds 1–1,000 items in the given order; one invalid item refuses them all. */
  addItems(
    principal: Principal,
    datasetId: string,
    raw: unknown,
  ): { count: number; items: DatasetItemRecord[] } {
    const body = validate(datasetItemsBatchBody, raw);
    const values = body.items.map((item, index) => toValues(item, `items[${index}].`));
    const items = this.add(principal, datasetId, values, "items");
    return { count: items.length, items };
  }

  /**
   * The items oldest first (items added in one call keep its order): the current ones, or
   * with `version` (an id or a number) those frozen in that version.
   */
  listItems(
    principal: Principal,
    datasetId: string,
    query: unknown,
    page: PageRequest,
  ): { items: DatasetItemRecord[]; total: number } {
    const { version } = validate(datasetItemsQuery, query);
    const dataset = this.get(principal, datasetId);
    const frozen =
      version === undefined || version === "" ? null : this.findVersion(dataset.id, version, "version");
    return this.datasets.listItems(dataset.id, frozen, page);
  }

  getItem(principal: Principal, datasetId: string, itemId: string): DatasetItemRecord {
    const dataset = this.get(principal, datasetId);
    const item = this.datasets.getItem(dataset.id, itemId);
    if (item === null) throw noItem(dataset.id, itemId);
    return item;
  }

  /** Changes the expected output (`null` clears it) and/or the metadata; versions keep what they froze. */
  updateItem(principal: Principal, datasetId: string, itemId: string, raw: unknown): DatasetItemRecord {
    const input = validate(datasetItemUpdateBody, raw);
    return this.datasets.atomically(() => {
      const current = this.getItem(principal, datasetId, itemId);
      const expectedOutput =
        input.expectedOutput === undefined ? current.expectedOutput : input.expectedOutput;
      const metadata = input.metadata ?? current.metadata;
      checkItemSize({ input: current.input, expectedOutput, metadata }, "");
      const updated = this.datasets.updateItem(current.datasetId, current.id, {
        ...(input.expectedOutput === undefined ? {} : { expectedOutput: input.expectedOutput }),
        ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
      });
      if (updated === null) throw noItem(current.datasetId, itemId);
      return updated;
    });
  }

  /** Removes the item from the dataset's current items; versions that froze it keep it. */
  deleteItem(principal: Principal, datasetId: string, itemId: string): void {
    const dataset = this.get(principal, datasetId);
    if (!this.datasets.deleteItem(dataset.id, itemId)) throw noItem(dataset.id, itemId);
  }

  // ---- versions ----

  /** Freezes the current items as the next version; an empty dataset cannot be frozen (409 `dataset_empty`). */
  createVersion(principal: Principal, datasetId: string, raw: unknown = {}): DatasetVersionRecord {
    const input = validate(datasetVersionBody, raw ?? {});
    return this.datasets.atomically(() => {
      const dataset = this.get(principal, datasetId);
      if (dataset.itemCount === 0) {
        throw conflict(`Dataset ${dataset.id} has no items; add items before freezing a version`, {
          param: "datasetId",
          code: "dataset_empty",
        });
      }
      return this.datasets.createVersion(dataset.id, input.description ?? null);
    });
  }

  /** Newest first. */
  listVersions(
    principal: Principal,
    datasetId: string,
    page: PageRequest,
  ): { items: DatasetVersionRecord[]; total: number } {
    return this.datasets.listVersions(this.get(principal, datasetId).id, page);
  }

  /** A version by id (`dsv_…`) or number. */
  getVersion(principal: Principal, datasetId: string, versionRef: string): DatasetVersionRecord {
    return this.findVersion(this.get(principal, datasetId).id, versionRef, "versionId");
  }

  private add(
    principal: Principal,
    datasetId: string,
    values: DatasetItemValues[],
    param: string | null,
  ): DatasetItemRecord[] {
    return this.datasets.atomically(() => {
      const dataset = this.get(principal, datasetId);
      if (dataset.itemCount + values.length > DATASET_MAX_ITEMS) {
        const room = DATASET_MAX_ITEMS - dataset.itemCount;
        throw conflict(
          `Dataset ${dataset.id} holds ${dataset.itemCount} items and may hold at most ${DATASET_MAX_ITEMS}; ` +
            `${values.length} more do not fit (room for ${room})`,
          { param, code: "dataset_full" },
        );
      }
      return this.datasets.addItems(dataset.id, values);
    });
  }

  private findVersion(datasetId: string, ref: string, param: string): DatasetVersionRecord {
    const version = /^\d{1,15}$/.test(ref)
      ? this.datasets.getVersionByNumber(datasetId, Number(ref))
      : this.datasets.getVersionById(datasetId, ref);
    if (version === null) throw notFound(`Dataset ${datasetId} has no version ${ref}`, { param });
    return version;
  }

  private refuseTakenName(organizationId: string, name: string, exceptId: string | null): void {
    const taken = this.datasets.findByName(organizationId, name);
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
