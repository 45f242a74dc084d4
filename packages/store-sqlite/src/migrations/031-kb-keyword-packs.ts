import type { Migration } from "./migration.js";

export const kbKeywordPacks: Migration = {
  version: 31,
  name: "knowledge-base keyword packs: a served revision's keyword postings in one BLOB per language",
  sql: `
    -- The in-memory keyword postings of one served revision in one text-search language
    -- (packages/kb/src/keyword-pack.ts), written in the transaction that switches the revision in,
    -- dropped with its kb_fts rows: a cold start reads one BLOB per revision instead of tokenizing
    -- every row's terms again (HP44). kb_fts stays the truth; a served revision without a pack is
    -- packed from it on its first load.
    CREATE TABLE kb_keyword_packs (
      revision_id TEXT NOT NULL REFERENCES kb_revisions(id) ON DELETE CASCADE,
      language TEXT NOT NULL,
      knowledge_base_id TEXT NOT NULL,
      row_count INTEGER NOT NULL,
      pack BLOB NOT NULL,
      PRIMARY KEY (revision_id, language)
    );
    CREATE INDEX kb_keyword_packs_kb ON kb_keyword_packs(knowledge_base_id, language);
  `,
};
