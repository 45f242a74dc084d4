import type { Migration } from "./migration.js";

export const chunkOffsets: Migration = {
  version: 24,
  name: "knowledge-base chunks: offsets into the revision's text",
  sql: `
    -- Code points into the revision's text (packages/kb/src/chunkers.ts), end exclusive; null for
    -- chunks stored before this migration (their citations carry no span until re-ingested).
    ALTER TABLE kb_chunks ADD COLUMN text_start INTEGER;
    ALTER TABLE kb_chunks ADD COLUMN text_end INTEGER;
  `,
};
