import type { Migration } from "./migration.js";

export const datasets: Migration = {
  version: 11,
  name: "datasets: items as immutable revisions, versions as epochs",
  sql: `
    -- epoch: the number of the version the next freeze creates (1 + the latest version's number).
    -- Item writes are stamped with the epoch they happen in; freezing a version ends the epoch.
    CREATE TABLE datasets (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      description TEXT,
      metadata TEXT NOT NULL DEFAULT '{}',
      item_count INTEGER NOT NULL DEFAULT 0,
      next_position INTEGER NOT NULL DEFAULT 0,
      epoch INTEGER NOT NULL DEFAULT 1,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (organization_id, name)
    );
    CREATE INDEX datasets_organization ON datasets(organization_id, created_at);

    -- One row per revision of an item. A revision is visible in version N when
    -- valid_from <= N and (valid_to IS NULL or valid_to > N); the current items are the
    -- revisions with valid_to IS NULL. An edit of a revision no version has seen rewrites
    -- it in place; otherwise it closes the revision (valid_to = epoch) and adds a new one.
    -- A delete closes (or, when unseen, removes) the current revision.
    CREATE TABLE dataset_items (
      rev INTEGER PRIMARY KEY,
      dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      item_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      input TEXT NOT NULL,
      expected_output TEXT NOT NULL,
      metadata TEXT NOT NULL,
      source_trace_id TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      valid_from INTEGER NOT NULL,
      valid_to INTEGER
    );
    CREATE UNIQUE INDEX dataset_items_current ON dataset_items(dataset_id, position) WHERE valid_to IS NULL;
    CREATE UNIQUE INDEX dataset_items_current_id ON dataset_items(item_id) WHERE valid_to IS NULL;
    CREATE INDEX dataset_items_frozen ON dataset_items(dataset_id, position, valid_from, valid_to);
    CREATE INDEX dataset_items_by_id ON dataset_items(item_id);

    -- Item counts per block of 1024 positions, current and as each version froze them, so a
    -- page deep in a large dataset starts at its block instead of skipping every row before it.
    CREATE TABLE dataset_blocks (
      dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      block INTEGER NOT NULL,
      item_count INTEGER NOT NULL,
      PRIMARY KEY (dataset_id, block)
    ) WITHOUT ROWID;

    CREATE TABLE dataset_versions (
      id TEXT PRIMARY KEY,
      dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      version_number INTEGER NOT NULL,
      description TEXT,
      item_count INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      UNIQUE (dataset_id, version_number)
    );

    CREATE TABLE dataset_version_blocks (
      version_id TEXT NOT NULL REFERENCES dataset_versions(id) ON DELETE CASCADE,
      block INTEGER NOT NULL,
      item_count INTEGER NOT NULL,
      PRIMARY KEY (version_id, block)
    ) WITHOUT ROWID;
  `,
};
