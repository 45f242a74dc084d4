import type { Migration } from "./migration.js";

export const kbVectorPacks: Migration = {
  version: 30,
  name: "knowledge-base vector packs: a served revision's int8 rows in one BLOB",
  sql: `
    -- The in-memory scan rows of one served revision (packages/kb/src/vector-pack.ts), written in
    -- the transaction that switches the revision in, dropped with its kb_vectors rows: a cold start
    -- reads one BLOB per revision instead of one 7.7 kB kb_vectors row per chunk (HP40). kb_vectors
    -- stays the truth; a served revision without a pack is packed from it on its first load.
    CREATE TABLE kb_vector_packs (
      revision_id TEXT PRIMARY KEY REFERENCES kb_revisions(id) ON DELETE CASCADE,
      knowledge_base_id TEXT NOT NULL,
      row_count INTEGER NOT NULL,
      pack BLOB NOT NULL
    );
    CREATE INDEX kb_vector_packs_kb ON kb_vector_packs(knowledge_base_id);
  `,
};
