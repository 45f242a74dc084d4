/** Datasets, items and versions as the API shows them (PLATFORM.md §8): timestamps as ISO strings. */
import type { DatasetItemRecord, DatasetRecord, DatasetVersionRecord } from "@groundwork/store-sqlite";

const iso = (ms: number) => new Date(ms).toISOString();

export function renderDataset(dataset: DatasetRecord) {
  return {
    id: dataset.id,
    object: "dataset",
    name: dataset.name,
    description: dataset.description,
    metadata: dataset.metadata,
    itemCount: dataset.itemCount,
    latestVersionId: dataset.latestVersionId,
    latestVersionNumber: dataset.latestVersionNumber,
    createdAt: iso(dataset.createdAt),
    updatedAt: iso(dataset.updatedAt),
  };
}

export function renderItem(item: DatasetItemRecord) {
  return {
    id: item.id,
    object: "dataset_item",
    datasetId: item.datasetId,
    input: item.input,
    expectedOutput: item.expectedOutput,
    metadata: item.metadata,
    sourceTraceId: item.sourceTraceId,
    createdAt: iso(item.createdAt),
    updatedAt: iso(item.updatedAt),
  };
}

export function renderVersion(version: DatasetVersionRecord) {
  return {
    id: version.id,
    object: "dataset_version",
    datasetId: version.datasetId,
    versionNumber: version.versionNumber,
    description: version.description,
    itemCount: version.itemCount,
    createdAt: iso(version.createdAt),
  };
}
