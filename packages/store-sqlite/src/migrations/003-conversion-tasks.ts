import type { Migration } from "./migration.js";

export const conversionTasks: Migration = {
  version: 3,
  name: "conversion tasks and their inputs",
  sql: `
    CREATE TABLE conversion_tasks (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'success', 'failure')),
      num_docs INTEGER NOT NULL,
      num_processed INTEGER NOT NULL DEFAULT 0,
      num_succeeded INTEGER,
      num_failed INTEGER,
      -- conversion options and source descriptions (never document bytes)
      request TEXT NOT NULL,
      result TEXT,
      error TEXT,
      job_id TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      started_at INTEGER,
      finished_at INTEGER
    );
    CREATE INDEX conversion_tasks_organization ON conversion_tasks(organization_id, created_at);

    -- What a task converts, kept until it finishes so a restarted server can run it again.
    CREATE TABLE conversion_task_inputs (
      task_id TEXT NOT NULL REFERENCES conversion_tasks(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('bytes', 'http')),
      filename TEXT,
      mime_type TEXT,
      url TEXT,
      headers TEXT,
      content BLOB,
      PRIMARY KEY (task_id, position)
    );
  `,
};
