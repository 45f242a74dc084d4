/**
 * The pack reader thread (HP63): opens the database file read-only, and in one read transaction
 * (one snapshot) reports the knowledge base's generation and served vectors, then posts each
 * served revision's vector pack, its two parts transferred rather than copied. Reading the packs
 * (1.7 GB at 1M chunks) overlaps the keyword leg's load on the main thread. A revision without a
 * pack is posted without parts: the main thread packs it, since this connection cannot write.
 */

import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import type { PackReaderInput, PackReaderMessage } from "./kb-pack-reader.js";
import { indexGeneration, servedRevisions, servedVectorCount, servedVectorWidth } from "./kb-serving.js";
import { readRevisionPack } from "./kb-vector-packs.js";
import { statementCache } from "./statement-cache.js";

const port = parentPort;
if (port === null) throw new Error("kb-pack-reader-worker runs as a worker thread");
const { file, knowledgeBaseId, exactBelow } = workerData as PackReaderInput;
const post = (message: PackReaderMessage, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

/** The bytes in a buffer of their own (better-sqlite3 gives each BLOB one; a copy otherwise), to be transferred. */
function owned<T extends Uint8Array | Int8Array>(bytes: T): T {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength) return bytes;
  return bytes.slice() as T;
}

try {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const sql = statementCache(db);
    db.transaction(() => {
      const served = servedVectorCount(sql, knowledgeBaseId);
      const dim = served > exactBelow ? servedVectorWidth(sql, knowledgeBaseId) : null;
      post({ kind: "served", generation: indexGeneration(sql, knowledgeBaseId), served, dim });
      if (dim === null) return;
      for (const [revision, document] of servedRevisions(sql, knowledgeBaseId)) {
        const pack = readRevisionPack(sql, revision);
        if (pack === null) post({ kind: "pack", revision, document, parts: null });
        else {
          const parts = { head: owned(pack.head), codes: owned(pack.codes) };
          post({ kind: "pack", revision, document, parts }, [
            parts.head.buffer as ArrayBuffer,
            parts.codes.buffer as ArrayBuffer,
          ]);
        }
      }
    })();
  } finally {
    db.close();
  }
  post({ kind: "done" });
} catch (error) {
  post({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
}
