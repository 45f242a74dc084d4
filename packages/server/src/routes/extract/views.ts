/** The JSON bodies of schema and extraction resources (timestamps as ISO strings, decisions F12). */
import type {
  ExtractionRecord,
  SchemaLabelRecord,
  SchemaRecord,
  SchemaVersionRecord,
} from "@groundwork/store-sqlite";
import { LATEST_LABEL } from "@groundwork/store-sqlite";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function schemaView(schema: SchemaRecord, latestVersionNumber: number | null = null) {
  return {
    id: schema.id,
    name: schema.name,
    description: schema.description,
    // Listed by the spec, but a value sent on create is not stored.
    content: null,
    latestVersionNumber,
    createdAt: iso(schema.createdAt),
    updatedAt: iso(schema.updatedAt),
  };
}

export function versionView(version: SchemaVersionRecord) {
  return {
    id: version.id,
    schemaId: version.schemaId,
    versionNumber: version.versionNumber,
    jsonSchema: version.jsonSchema,
    changeDescription: version.changeDescription,
    extractionConfig: version.extractionConfig,
    active: version.active,
    copiedFromVersionId: version.copiedFromVersionId,
    createdAt: iso(version.createdAt),
    deactivatedAt: iso(version.deactivatedAt),
  };
}

export function labelView(label: SchemaLabelRecord) {
  return {
    name: label.name,
    schemaVersionId: label.schemaVersionId,
    system: label.name === LATEST_LABEL,
    createdAt: iso(label.createdAt),
    updatedAt: iso(label.updatedAt),
  };
}

export function extractionView(record: ExtractionRecord) {
  return {
    id: record.id,
    schemaId: record.schemaId,
    schemaVersionId: record.schemaVersionId,
    status: record.status,
    strategy: record.strategy,
    model: record.model,
    errorMessage: record.errorMessage,
    result: record.result,
    imageCount: record.imageCount,
    rerunOf: record.rerunOf,
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
    startedAt: iso(record.startedAt),
    completedAt: iso(record.completedAt),
  };
}

/**
 * One extraction as its own resource (GET, and the run and rerun responses): the list's fields
 * plus the input text the values were extracted from, which grounding spans point into (console
 * review, decision WC6). The list leaves the text out to stay light.
 */
export function extractionDetailView(record: ExtractionRecord) {
  return { ...extractionView(record), inputText: record.inputText };
}
