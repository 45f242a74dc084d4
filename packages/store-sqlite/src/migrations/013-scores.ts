import type { Migration } from "./migration.js";

export const scores: Migration = {
  version: 13,
  name: "scores on responses, extractions, conversations, dataset items, traces and run results",
  sql: `
    -- value is the JSON text of a number, string or boolean as data_type says. The subject is
    -- checked at record time, not by a foreign key: subjects live in several tables (and some,
    -- such as traces, may be purged while their scores stay).
    CREATE TABLE scores (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      subject_type TEXT NOT NULL,
      subject_id TEXT NOT NULL,
      name TEXT NOT NULL,
      data_type TEXT NOT NULL CHECK (data_type IN ('NUMERIC', 'CATEGORICAL', 'BOOLEAN')),
      value TEXT NOT NULL,
      comment TEXT,
      source TEXT NOT NULL CHECK (source IN ('HUMAN', 'API', 'EVAL')),
      queue_item_id TEXT,
      created_by_key_id TEXT,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX scores_created ON scores(organization_id, created_at DESC, id DESC);
    CREATE INDEX scores_subject ON scores(organization_id, subject_type, subject_id, created_at DESC);
    CREATE INDEX scores_name ON scores(organization_id, name, created_at DESC);
    CREATE INDEX scores_queue_item ON scores(queue_item_id) WHERE queue_item_id IS NOT NULL;
  `,
};
