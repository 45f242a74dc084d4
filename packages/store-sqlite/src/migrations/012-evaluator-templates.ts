import type { Migration } from "./migration.js";

export const evaluatorTemplates: Migration = {
  version: 12,
  name: "LLM-judge evaluator templates",
  sql: `
    -- Not separately versioned: version counts updates (PLATFORM.md §9); runs record the one they used.
    CREATE TABLE evaluator_templates (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      description TEXT,
      prompt TEXT NOT NULL,
      model TEXT NOT NULL,
      scale TEXT NOT NULL,
      version INTEGER NOT NULL DEFAULT 1,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (organization_id, name)
    );
    CREATE INDEX evaluator_templates_organization ON evaluator_templates(organization_id, created_at);
  `,
};
