import type { Migration } from "./migration.js";

export const connectorInputOwners: Migration = {
  version: 29,
  name: "connector inputs: the process that holds each open question and its lease",
  sql: `
    -- Decision PG191: a question's call lives in the memory of the process that asked. That process
    -- renews owner_expires_at while it holds the question; a start or a sweep of another process
    -- cancels an open question only once its owner's lease lapsed. Null: asked before this column
    -- (any start cancels it, as before).
    ALTER TABLE connector_inputs ADD COLUMN owner_id TEXT;
    ALTER TABLE connector_inputs ADD COLUMN owner_expires_at INTEGER;
  `,
};
