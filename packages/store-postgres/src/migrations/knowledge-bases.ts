/**
 * Knowledge-base migrations after the tables (kb-migrations.ts, versions 2–3, and 5): versions
 * 6–9 are this area's.
 */
import type { PostgresMigration } from "../migrations.js";

export const knowledgeBaseMemberMigrations: PostgresMigration[] = [
  {
    version: 6,
    name: "knowledge-base vectors in sequence order",
    // A reindex reads a knowledge base's indexed chunks in `seq` order, a batch after the last
    // (`chunkBatch`): with the index on the knowledge base alone every batch read and sorted all
    // of its rows. SQLite's index on `knowledge_base_id` carries the rowid (`chunk_seq`), so
    // there it was a range scan already; this one is the same. It serves every lookup by
    // knowledge base the old index served, so that one goes (PG142).
    sql: `
      CREATE INDEX kb_vectors_kb_seq ON kb_vectors (knowledge_base_id, chunk_seq);
      DROP INDEX kb_vectors_kb;
    `,
  },
];
