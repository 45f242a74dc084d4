/** Datasets (PLATFORM.md §8): records, inputs and rows of datasets, item revisions and versions, for both SQL stores. */
import { int, json } from "./columns.js";

export interface DatasetRecord {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  metadata: Record<string, unknown>;
  itemCount: number;
  latestVersionId: string | null;
  latestVersionNumber: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface DatasetItemRecord {
  id: string;
  datasetId: string;
  input: unknown;
  expectedOutput: unknown;
  metadata: Record<string, unknown>;
  sourceTraceId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface DatasetVersionRecord {
  id: string;
  datasetId: string;
  versionNumber: number;
  description: string | null;
  itemCount: number;
  createdAt: number;
}

/** A new item's values; `json` may carry their serializations when the caller already made them. */
export interface DatasetItemValues {
  input: unknown;
  expectedOutput: unknown;
  metadata: Record<string, unknown>;
  sourceTraceId: string | null;
  json?: { input: string; expectedOutput: string; metadata: string };
}

export interface DatasetChanges {
  name?: string;
  description?: string | null;
  metadata?: Record<string, unknown>;
}

export interface DatasetRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  metadata: unknown;
  item_count: unknown;
  epoch: unknown;
  latest_version_id: string | null;
  created_at: unknown;
  updated_at: unknown;
}

/** One revision of an item; the JSON columns are TEXT on both stores (any JSON value, a string included). */
export interface DatasetItemRow {
  rev: unknown;
  dataset_id: string;
  item_id: string;
  position: unknown;
  input: string;
  expected_output: string;
  metadata: string;
  source_trace_id: string | null;
  created_at: unknown;
  updated_at: unknown;
  valid_from: unknown;
}

export interface DatasetVersionRow {
  id: string;
  dataset_id: string;
  version_number: unknown;
  description: string | null;
  item_count: unknown;
  created_at: unknown;
}

/** Positions per block of the page-start index (dataset_blocks). */
export const DATASET_BLOCK_SIZE = 1024;
export const datasetBlockOf = (position: number) => Math.floor(position / DATASET_BLOCK_SIZE);

export const toDataset = (row: DatasetRow): DatasetRecord => {
  const epoch = int(row.epoch);
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    description: row.description,
    metadata: json<Record<string, unknown>>(row.metadata),
    itemCount: int(row.item_count),
    latestVersionId: row.latest_version_id,
    latestVersionNumber: epoch > 1 ? epoch - 1 : null,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
};

export const toDatasetItem = (row: DatasetItemRow): DatasetItemRecord => ({
  id: row.item_id,
  datasetId: row.dataset_id,
  input: JSON.parse(row.input) as unknown,
  expectedOutput: JSON.parse(row.expected_output) as unknown,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  sourceTraceId: row.source_trace_id,
  createdAt: int(row.created_at),
  updatedAt: int(row.updated_at),
});

export const toDatasetVersion = (row: DatasetVersionRow): DatasetVersionRecord => ({
  id: row.id,
  datasetId: row.dataset_id,
  versionNumber: int(row.version_number),
  description: row.description,
  itemCount: int(row.item_count),
  createdAt: int(row.created_at),
});

/**
 * Where a page starts given the block counts in block order: the first position of the block
 * that holds the `offset`-th item and how many items of that block come before it; null past
 * the last item.
 */
export function pageStartInBlocks(
  blocks: ReadonlyArray<{ block: unknown; item_count: unknown }>,
  offset: number,
): { from: number; skip: number } | null {
  if (offset === 0) return { from: 0, skip: 0 };
  let seen = 0;
  for (const row of blocks) {
    const count = int(row.item_count);
    if (seen + count > offset) return { from: int(row.block) * DATASET_BLOCK_SIZE, skip: offset - seen };
    seen += count;
  }
  return null;
}

/** The item counts a run of `count` positions from `first` adds to each block it touches. */
export function blockCounts(first: number, count: number): Array<{ block: number; count: number }> {
  const end = first + count;
  const counts: Array<{ block: number; count: number }> = [];
  for (let block = datasetBlockOf(first); block <= datasetBlockOf(end - 1); block++) {
    counts.push({
      block,
      count: Math.min(end, (block + 1) * DATASET_BLOCK_SIZE) - Math.max(first, block * DATASET_BLOCK_SIZE),
    });
  }
  return counts;
}
