/**
 * The knowledge-base tables on PostgreSQL (migrations 2 and 3), mirroring the SQLite store's
 * (store-sqlite migrations 5 and 24) with PostgreSQL types: epoch-ms BIGINT timestamps, JSONB
 * metadata and configurations, BYTEA uploads and vectors, BOOLEAN flags. `organization_id`
 * carries no foreign key yet (decision PG3).
 */
import type { PostgresMigration } from "./migrations.js";

export const knowledgeBaseTables: PostgresMigration = {
  version: 2,
  name: "knowledge bases, documents, revisions, chunks, keyword and vector rows",
  sql: `
    CREATE TABLE knowledge_bases (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL,
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
      hybrid_search_enabled BOOLEAN NOT NULL,
      reranker_provider_id TEXT,
      text_search_language TEXT NOT NULL,
      pending_text_search_language TEXT,
      config_version INTEGER NOT NULL,
      -- bumped whenever the set of served chunks changes (in-memory vector columns reload)
      index_generation BIGINT NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      deleted_at BIGINT
    );
    CREATE INDEX knowledge_bases_organization ON knowledge_bases (organization_id, created_at);
    -- Soft-deleted knowledge bases release their slug.
    CREATE UNIQUE INDEX knowledge_bases_slug ON knowledge_bases (organization_id, slug) WHERE deleted_at IS NULL;

    CREATE TABLE kb_config_versions (
      knowledge_base_id TEXT NOT NULL REFERENCES knowledge_bases (id) ON DELETE CASCADE,
      version_no INTEGER NOT NULL,
      config JSONB NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (knowledge_base_id, version_no)
    );

    CREATE TABLE kb_documents (
      id TEXT PRIMARY KEY,
      knowledge_base_id TEXT NOT NULL REFERENCES knowledge_bases (id) ON DELETE CASCADE,
      organization_id TEXT NOT NULL,
      name TEXT NOT NULL,
      metadata JSONB NOT NULL,
      serving_revision_id TEXT,
      latest_revision_id TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      deleted_at BIGINT
    );
    CREATE INDEX kb_documents_kb ON kb_documents (knowledge_base_id, created_at);
    CREATE UNIQUE INDEX kb_documents_name ON kb_documents (knowledge_base_id, name) WHERE deleted_at IS NULL;

    CREATE TABLE kb_revisions (
      id TEXT PRIMARY KEY,
      document_id TEXT NOT NULL REFERENCES kb_documents (id) ON DELETE CASCADE,
      knowledge_base_id TEXT NOT NULL,
      organization_id TEXT NOT NULL,
      version_no INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('PENDING', 'PARSING', 'CHUNKING', 'EMBEDDING', 'READY', 'ERROR')),
      mime TEXT NOT NULL,
      byte_size INTEGER NOT NULL,
      error TEXT,
      api_key_id TEXT,
      job_id TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      UNIQUE (document_id, version_no)
    );
    CREATE INDEX kb_revisions_in_progress ON kb_revisions (status)
      WHERE status IN ('PENDING', 'PARSING', 'CHUNKING', 'EMBEDDING');

    -- The upload of a revision until it is READY (then it is dropped).
    CREATE TABLE kb_revision_sources (
      revision_id TEXT PRIMARY KEY REFERENCES kb_revisions (id) ON DELETE CASCADE,
      filename TEXT NOT NULL,
      mime TEXT NOT NULL,
      content BYTEA NOT NULL
    );

    CREATE TABLE kb_chunks (
      seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      knowledge_base_id TEXT NOT NULL,
      document_id TEXT NOT NULL,
      revision_id TEXT NOT NULL REFERENCES kb_revisions (id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('parent', 'child', 'fixed')),
      parent_id TEXT,
      position INTEGER NOT NULL,
      -- NULL once the document is deleted: the text is withdrawn from citations
      text TEXT,
      token_count INTEGER NOT NULL,
      page_start INTEGER,
      page_end INTEGER,
      heading_path JSONB NOT NULL,
      -- true while the chunk's revision is the one its document serves
      active BOOLEAN NOT NULL DEFAULT false,
      -- code points into the revision's text (packages/kb/src/chunkers.ts), end exclusive
      text_start INTEGER,
      text_end INTEGER
    );
    CREATE INDEX kb_chunks_revision ON kb_chunks (revision_id, position);
    CREATE INDEX kb_chunks_document ON kb_chunks (document_id);

    -- Keyword rows: the chunk text analysed by the knowledge base's text-search configuration
    -- (kb-text-search.ts), one row per chunk and language; GIN over the lexemes.
    CREATE TABLE kb_keywords (
      chunk_seq BIGINT NOT NULL REFERENCES kb_chunks (seq) ON DELETE CASCADE,
      language TEXT NOT NULL,
      knowledge_base_id TEXT NOT NULL,
      revision_id TEXT NOT NULL,
      terms TSVECTOR NOT NULL,
      PRIMARY KEY (chunk_seq, language)
    );
    CREATE INDEX kb_keywords_terms ON kb_keywords USING GIN (terms);
    CREATE INDEX kb_keywords_scope ON kb_keywords (knowledge_base_id, language);
    CREATE INDEX kb_keywords_revision ON kb_keywords (revision_id);

    -- Vectors: float32 and their int8 codes (BYTEA) for the in-memory scan where pgvector is
    -- missing; migration 3 adds a pgvector column used instead where it is present.
    CREATE TABLE kb_vectors (
      chunk_seq BIGINT PRIMARY KEY REFERENCES kb_chunks (seq) ON DELETE CASCADE,
      knowledge_base_id TEXT NOT NULL,
      revision_id TEXT NOT NULL,
      dim INTEGER NOT NULL,
      embedding BYTEA,
      code BYTEA
    );
    CREATE INDEX kb_vectors_revision ON kb_vectors (revision_id);
    CREATE INDEX kb_vectors_kb ON kb_vectors (knowledge_base_id);
  `,
};

export const pgvectorColumn: PostgresMigration = {
  version: 3,
  name: "pgvector, where the server has it",
  // A server without the extension (or a role that may not create it) keeps the BYTEA columns
  // and the application-side int8 index (decision PG7); the store checks which at start.
  sql: `
    DO $$
    BEGIN
      IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
        BEGIN
          CREATE EXTENSION IF NOT EXISTS vector;
        EXCEPTION WHEN insufficient_privilege THEN
          RAISE NOTICE 'pgvector is available but this role may not create it: vectors stay in BYTEA';
        END;
      END IF;
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
        EXECUTE 'ALTER TABLE kb_vectors ADD COLUMN embedding_vector vector';
      END IF;
    END $$;
  `,
};
