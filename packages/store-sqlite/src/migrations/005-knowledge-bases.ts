import type { Migration } from "./migration.js";

/**
 * Knowledge bases (spec document 3) and the files area. File bytes and uploads
 * waiting for ingestion live in BLOB columns: one file to back up, written in the
 * same transaction as their rows, and bounded by the 25 MB per-file limit.
 */
export const knowledgeBases: Migration = {
  version: 5,
  name: "knowledge bases, documents, revisions, chunks, vector and keyword indexes, files",
  sql: `
    CREATE TABLE files (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      filename TEXT NOT NULL,
      purpose TEXT NOT NULL,
      mime TEXT NOT NULL,
      byte_size INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      content BLOB,
      created_at INTEGER NOT NULL,
      deleted_at INTEGER
    );
    CREATE INDEX files_organization ON files(organization_id, created_at);

    CREATE TABLE knowledge_bases (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      slug TEXT NOT NULL,
      description TEXT,
      embedding_provider_id TEXT NOT NULL,
      embedding_model TEXT NOT NULL,
      embedding_dim INTEGER NOT NULL,
      chunking_strategy TEXT NOT NULL,
      chunk_size INTEGER NOT NULL,
      chunk_overlap INTEGER NOT NULL,
      parent_chunk_size INTEGER NOT NULL,
      hybrid_search_enabled INTEGER NOT NULL,
      reranker_provider_id TEXT,
      text_search_language TEXT NOT NULL,
      pending_text_search_language TEXT,
      config_version INTEGER NOT NULL,
      -- bumped whenever the set of served chunks changes (in-memory vector caches reload)
      index_generation INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      deleted_at INTEGER
    );
    CREATE INDEX knowledge_bases_organization ON knowledge_bases(organization_id, created_at);
    -- Soft-deleted knowledge bases release their slug.
    CREATE UNIQUE INDEX knowledge_bases_slug ON knowledge_bases(organization_id, slug) WHERE deleted_at IS NULL;

    CREATE TABLE kb_config_versions (
      knowledge_base_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
      version_no INTEGER NOT NULL,
      config TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (knowledge_base_id, version_no)
    );

    CREATE TABLE kb_documents (
      id TEXT PRIMARY KEY,
      knowledge_base_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
      organization_id TEXT NOT NULL,
      name TEXT NOT NULL,
      metadata TEXT NOT NULL,
      serving_revision_id TEXT,
      latest_revision_id TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      deleted_at INTEGER
    );
    CREATE INDEX kb_documents_kb ON kb_documents(knowledge_base_id, created_at);
    CREATE UNIQUE INDEX kb_documents_name ON kb_documents(knowledge_base_id, name) WHERE deleted_at IS NULL;

    CREATE TABLE kb_revisions (
      id TEXT PRIMARY KEY,
      document_id TEXT NOT NULL REFERENCES kb_documents(id) ON DELETE CASCADE,
      knowledge_base_id TEXT NOT NULL,
      organization_id TEXT NOT NULL,
      version_no INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('PENDING', 'PARSING', 'CHUNKING', 'EMBEDDING', 'READY', 'ERROR')),
      mime TEXT NOT NULL,
      byte_size INTEGER NOT NULL,
      error TEXT,
      api_key_id TEXT,
      job_id TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (document_id, version_no)
    );

    -- The upload of a revision until it is READY (then it is dropped).
    CREATE TABLE kb_revision_sources (
      revision_id TEXT PRIMARY KEY REFERENCES kb_revisions(id) ON DELETE CASCADE,
      filename TEXT NOT NULL,
      mime TEXT NOT NULL,
      content BLOB NOT NULL
    );

    CREATE TABLE kb_chunks (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      knowledge_base_id TEXT NOT NULL,
      document_id TEXT NOT NULL,
      revision_id TEXT NOT NULL REFERENCES kb_revisions(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('parent', 'child', 'fixed')),
      parent_id TEXT,
      position INTEGER NOT NULL,
      -- NULL once the document is deleted: the text is withdrawn from citations
      text TEXT,
      token_count INTEGER NOT NULL,
      page_start INTEGER,
      page_end INTEGER,
      heading_path TEXT NOT NULL,
      -- 1 while the chunk's revision is the one its document serves
      active INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX kb_chunks_revision ON kb_chunks(revision_id, position);
    CREATE INDEX kb_chunks_active ON kb_chunks(knowledge_base_id, active, document_id);

    -- Float32 vectors (exact cosine through sqlite-vec) and their sign-bit codes (coarse in-memory scan).
    CREATE TABLE kb_vectors (
      chunk_seq INTEGER PRIMARY KEY,
      knowledge_base_id TEXT NOT NULL,
      revision_id TEXT NOT NULL,
      embedding BLOB NOT NULL,
      code BLOB NOT NULL
    );
    CREATE INDEX kb_vectors_revision ON kb_vectors(revision_id);
    CREATE INDEX kb_vectors_kb ON kb_vectors(knowledge_base_id);

    -- Keyword rows: pre-analyzed terms; rowid = chunk seq * 64 + language index. \`scope\` holds one
    -- token per (knowledge base, language), so a MATCH ranks only that knowledge base's rows.
    CREATE VIRTUAL TABLE kb_fts USING fts5(
      terms,
      scope,
      knowledge_base_id UNINDEXED,
      language UNINDEXED,
      tokenize = 'unicode61 remove_diacritics 0'
    );
  `,
};
