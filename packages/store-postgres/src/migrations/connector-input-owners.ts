/**
 * Version 51: the process that holds each open connector question and its lease (SQLite's
 * migration 29, decision PG191): a start or a sweep cancels an open question only once the
 * lease of the process that asked lapsed, not while that process still waits for the answer.
 */
import type { PostgresMigration } from "../migrations.js";

export const connectorInputOwnersMigration: PostgresMigration = {
  version: 51,
  name: "connector inputs: the process that holds each open question and its lease",
  sql: `
    ALTER TABLE connector_inputs ADD COLUMN owner_id TEXT;
    ALTER TABLE connector_inputs ADD COLUMN owner_expires_at BIGINT;
  `,
};
