/** Provider accounts: the row and its record (the sealed key never leaves the store as a record). */
import { int, json } from "./columns.js";

export interface ProviderRecord {
  id: string;
  organizationId: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  hasApiKey: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface ProviderRow {
  id: string;
  organization_id: string;
  name: string;
  type: string;
  /** JSON text on SQLite, JSONB on PostgreSQL. */
  config: unknown;
  api_key_encrypted: string | null;
  created_at: number | string;
  updated_at: number | string;
}

export function toProvider(row: ProviderRow): ProviderRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    type: row.type,
    config: json<Record<string, unknown>>(row.config),
    hasApiKey: row.api_key_encrypted !== null,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}
