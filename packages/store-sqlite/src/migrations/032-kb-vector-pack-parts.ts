import type { Migration } from "./migration.js";

/**
 * Vector packs in two BLOBs: the head (count, width, seqs, factors, sign codes) and the int8 codes,
 * so that a load reads the codes into a buffer of their own and holds that buffer as the rows'
 * memory, without copying 1.5 GB at 1M chunks (HP63). A stored pack was the head followed by the
 * codes: each is split where its head ends, 8 + rows × (12 + sign-code bytes), the sign code being
 * ⌈width / 256⌉ × 32 bytes; the width is the pack's u32 at byte 4 (little-endian, read from its hex).
 */
const HEX = "'0123456789ABCDEF'";
const nibble = (at: number) => `(instr(${HEX}, substr(hex(substr(pack, 5, 4)), ${at}, 1)) - 1)`;
const byte = (index: number) => `(${nibble(index * 2 + 1)} * 16 + ${nibble(index * 2 + 2)})`;
const width = `(${byte(0)} + 256 * ${byte(1)} + 65536 * ${byte(2)} + 16777216 * ${byte(3)})`;

export const kbVectorPackParts: Migration = {
  version: 32,
  name: "knowledge-base vector packs as a head and the int8 codes",
  sql: `
    CREATE TABLE kb_vector_packs_next (
      revision_id TEXT PRIMARY KEY REFERENCES kb_revisions(id) ON DELETE CASCADE,
      knowledge_base_id TEXT NOT NULL,
      row_count INTEGER NOT NULL,
      head BLOB NOT NULL,
      codes BLOB NOT NULL
    );
    INSERT INTO kb_vector_packs_next (revision_id, knowledge_base_id, row_count, head, codes)
      SELECT revision_id, knowledge_base_id, row_count, substr(pack, 1, head_bytes), substr(pack, head_bytes + 1)
      FROM (
        SELECT revision_id, knowledge_base_id, row_count, pack,
          8 + row_count * (12 + ((${width} + 255) / 256) * 32) AS head_bytes
        FROM kb_vector_packs
      );
    DROP TABLE kb_vector_packs;
    ALTER TABLE kb_vector_packs_next RENAME TO kb_vector_packs;
    CREATE INDEX kb_vector_packs_kb ON kb_vector_packs(knowledge_base_id);
  `,
};
