/**
 * Vector packs (migrations 30 and 32): a served revision's int8 scan rows as two BLOBs (the head
 * and the int8 codes, vector-pack.ts), so the in-memory rows of a knowledge base load with one
 * read of each per revision (HP40, HP63). kb_vectors stays the truth: a
 * pack is written from its rows in the transaction that serves the revision, dropped with them, and
 * dropped when rows of its revision are written again; a served revision found without one is
 * packed on its first load.
 */
import { type ColumnSource, type PackParts, packRows, readPackLayout } from "@groundwork/kb";
import type { Statement } from "better-sqlite3";

type Sql = (text: string) => Statement;

/** Seq and int8 code of a revision's vectors (no join, no per-row strings). */
export function revisionCodes(sql: Sql, revisionId: string): Iterable<ColumnSource> {
  return sql("SELECT chunk_seq, code FROM kb_vectors WHERE revision_id = ?")
    .raw(true)
    .iterate(revisionId) as Iterable<ColumnSource>;
}

/** Packs the revision's current rows and stores the pack; null (nothing stored) when their widths differ. */
export function writeRevisionPack(sql: Sql, revisionId: string, knowledgeBaseId: string): PackParts | null {
  const pack = packRows(revisionCodes(sql, revisionId));
  if (pack === null) return null;
  const { head, codes } = pack;
  sql(
    "INSERT OR REPLACE INTO kb_vector_packs (revision_id, knowledge_base_id, row_count, head, codes) VALUES (?, ?, ?, ?, ?)",
  ).run(
    revisionId,
    knowledgeBaseId,
    readPackLayout(pack)?.count ?? 0,
    Buffer.from(head.buffer, head.byteOffset, head.byteLength),
    Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength),
  );
  return pack;
}

/** The revision's stored pack, each part in a buffer of its own (the codes can become rows as they are). */
export function readRevisionPack(sql: Sql, revisionId: string): PackParts | null {
  const row = sql("SELECT head, codes FROM kb_vector_packs WHERE revision_id = ?")
    .raw(true)
    .get(revisionId) as [Buffer, Buffer] | undefined;
  if (row === undefined) return null;
  const [head, codes] = row;
  return { head, codes: new Int8Array(codes.buffer, codes.byteOffset, codes.byteLength) };
}

export function dropRevisionPack(sql: Sql, revisionId: string): void {
  sql("DELETE FROM kb_vector_packs WHERE revision_id = ?").run(revisionId);
}

/** Rows in the knowledge base's stored packs (their headers' counts; the BLOBs are not read). */
export function packedRows(sql: Sql, knowledgeBaseId: string): number {
  return sql("SELECT COALESCE(SUM(row_count), 0) FROM kb_vector_packs WHERE knowledge_base_id = ?")
    .pluck()
    .get(knowledgeBaseId) as number;
}
