/** Stored responses (PLATFORM.md §2.6): the row and its record. */
import { int, intOrNull, json } from "./columns.js";

export type StoredResponseKind = "model" | "agent";

export interface StoredResponseRecord {
  id: string;
  organizationId: string;
  createdByKeyId: string;
  kind: StoredResponseKind;
  conversationId: string | null;
  input: unknown[];
  /** The response object as answered (plain model calls); null for agent runs. */
  response: unknown;
  createdAt: number;
  expiresAt: number | null;
}

/** What `save` takes: the record without its times, and how long to keep it (null: until deleted). */
export type StoredResponseSave = Omit<StoredResponseRecord, "createdAt" | "expiresAt"> & {
  retainForMs: number | null;
};

export interface StoredResponseRow {
  id: string;
  organization_id: string;
  created_by_key_id: string;
  kind: StoredResponseKind;
  conversation_id: string | null;
  input: string;
  response: string | null;
  created_at: number | string;
  expires_at: number | string | null;
}

export function toStoredResponse(row: StoredResponseRow): StoredResponseRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    createdByKeyId: row.created_by_key_id,
    kind: row.kind,
    conversationId: row.conversation_id,
    input: json<unknown[]>(row.input),
    response: row.response === null ? null : json<unknown>(row.response),
    createdAt: int(row.created_at),
    expiresAt: intOrNull(row.expires_at),
  };
}

/** The insert's columns after `id` (organization_id through expires_at) for a save at `now`. */
export function storedResponseColumns(
  input: StoredResponseSave,
  now: number,
): [string, string, StoredResponseKind, string | null, string, string | null, number, number | null] {
  return [
    input.organizationId,
    input.createdByKeyId,
    input.kind,
    input.conversationId,
    JSON.stringify(input.input),
    input.response === null || input.response === undefined ? null : JSON.stringify(input.response),
    now,
    input.retainForMs === null ? null : now + input.retainForMs,
  ];
}
