/**
 * Extraction schemas (spec document 2): records and rows of schemas, their versions and labels,
 * for both SQL stores. JSON columns are TEXT on both (the exact text the store wrote).
 */
import { bool, int, intOrNull, json } from "./columns.js";
import type { LabelRow } from "./versioned.js";

export interface SchemaRecord {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface SchemaVersionRecord {
  id: string;
  schemaId: string;
  versionNumber: number;
  jsonSchema: Record<string, unknown>;
  changeDescription: string | null;
  extractionConfig: Record<string, unknown> | null;
  active: boolean;
  copiedFromVersionId: string | null;
  createdAt: number;
  deactivatedAt: number | null;
}

export interface SchemaLabelRecord {
  schemaId: string;
  name: string;
  schemaVersionId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface SchemaRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  created_at: unknown;
  updated_at: unknown;
}

export interface SchemaVersionRow {
  id: string;
  schema_id: string;
  version_number: unknown;
  json_schema: string;
  change_description: string | null;
  extraction_config: string | null;
  active: unknown;
  copied_from_version_id: string | null;
  created_at: unknown;
  deactivated_at: unknown;
}

export function toSchema(row: SchemaRow): SchemaRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    description: row.description,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

export function toSchemaVersion(row: SchemaVersionRow): SchemaVersionRecord {
  return {
    id: row.id,
    schemaId: row.schema_id,
    versionNumber: int(row.version_number),
    jsonSchema: json<Record<string, unknown>>(row.json_schema),
    changeDescription: row.change_description,
    extractionConfig:
      row.extraction_config === null ? null : json<Record<string, unknown>>(row.extraction_config),
    active: bool(row.active),
    copiedFromVersionId: row.copied_from_version_id,
    createdAt: int(row.created_at),
    deactivatedAt: intOrNull(row.deactivated_at),
  };
}

export function toSchemaLabel(row: LabelRow): SchemaLabelRecord {
  return {
    schemaId: row.owner_id,
    name: row.name,
    schemaVersionId: row.version_id,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}
