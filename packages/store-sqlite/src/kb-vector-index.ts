/**
 * The knowledge-base vector index on SQLite: float32 BLOBs, cosine through
 * sqlite-vec's `vec_distance_cosine`. Implements the engine's `VectorIndex` port.
 *
 * Dense search. sqlite-vec 0.1.9 scans every vector without SIMD (DESIGN.md:
 * 174 ms per KNN at 100k × 1536), so a knowledge base with more than
 * `exactBelow` served vectors is searched in two steps:
 *  1. Candidates from int8 and sign-bit copies of the vectors held in memory per
 *     knowledge base (int8-scan.ts).
 *  2. The best `max(k × oversample, minCandidates)` candidates are rescored
 *     exactly by sqlite-vec on their float vectors.
 * When the knowledge base's `index_generation` moves (a revision switch, a
 * document deletion) the rows are patched rather than rebuilt: a newly served
 * revision's rows are read and appended, a revision no longer served is retired
 * (its rows skipped by every scan), so every query sees exactly the served set.
 * Past `STALE_LIMIT` retired rows the rows are rebuilt (seconds at 1M rows),
 * which keeps the memory of a knowledge base whose documents keep changing bounded.
 * The rows load from the served revisions' packs (kb-vector-packs.ts), on the first search or
 * ahead of it (`warm`: read on a worker thread, HP63).
 * Recall against exact search is measured by the benchmark
 * (packages/server/bench/kb-bench.ts).
 */

import {
  type IndexHit,
  type IndexQuery,
  int8Code,
  packRows,
  scanCandidates,
  type VectorCache,
  type VectorIndex,
  VectorRows,
} from "@groundwork/kb";
import type { Database, Statement } from "better-sqlite3";
import { readServedPacks } from "./kb-pack-reader.js";
import { indexGeneration, servedRevisions, servedVectorCount, servedVectorWidth } from "./kb-serving.js";
import {
  dropRevisionPack,
  packedRows,
  readRevisionPack,
  revisionCodes,
  writeRevisionPack,
} from "./kb-vector-packs.js";
import { statementCache } from "./statement-cache.js";

export interface KbIndexOptions {
  /** Knowledge bases with at most this many served vectors are searched exactly with sqlite-vec. */
  exactBelow?: number;
  /** Candidates per wanted hit kept by the int8 scan for exact rescoring. */
  oversample?: number;
  /** Candidates kept at least. */
  minCandidates?: number;
  /** Most query dimensions the int8 scan applies (the largest components first). */
  maxScanDims?: number;
  /** Rows nearest in sign bits (Hamming) that a dense query scores on their int8 components. */
  prefilter?: number;
  /**
   * Load served revisions from their packs (migration 30, HP40); default true. False reads every
   * revision row by row from kb_vectors, as before packs (the benchmark's baseline).
   */
  packs?: boolean;
  /**
   * Knowledge bases with fewer packed rows than this are warmed on the calling thread: starting
   * the pack reader thread costs ~0.2 s, about what loading 50k rows does (HP63).
   */
  readerFrom?: number;
}

/** Share of retired rows up to which the rows are patched instead of rebuilt. */
const STALE_LIMIT = 0.25;

function vectorBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export class SqliteVectorIndex implements VectorIndex {
  private readonly sql: (text: string) => Statement;
  private readonly caches = new Map<string, VectorCache>();
  private readonly exactBelow: number;
  private readonly oversample: number;
  private readonly minCandidates: number;
  private readonly maxScanDims: number;
  private readonly prefilter: number;
  private readonly packs: boolean;
  private readonly readerFrom: number;

  constructor(
    private readonly db: Database,
    options: KbIndexOptions = {},
  ) {
    this.sql = statementCache(db);
    this.exactBelow = options.exactBelow ?? 4096;
    this.oversample = options.oversample ?? 25;
    this.minCandidates = options.minCandidates ?? 200;
    this.maxScanDims = options.maxScanDims ?? 512;
    this.prefilter = options.prefilter ?? 2000;
    this.packs = options.packs ?? true;
    this.readerFrom = options.readerFrom ?? 100_000;
  }

  upsert(knowledgeBaseId: string, entries: ReadonlyArray<{ chunkId: string; vector: Float32Array }>): void {
    if (entries.length === 0) return;
    const rows = this.sql(
      "SELECT id, seq, revision_id FROM kb_chunks WHERE id IN (SELECT value FROM json_each(?))",
    ).all(JSON.stringify(entries.map((entry) => entry.chunkId))) as Array<{
      id: string;
      seq: number;
      revision_id: string;
    }>;
    const byId = new Map(rows.map((row) => [row.id, row]));
    const insert = this.sql(
      `INSERT OR REPLACE INTO kb_vectors (chunk_seq, knowledge_base_id, revision_id, embedding, code)
       VALUES (?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      // Rows of a revision written again: its pack no longer matches them (HP40).
      for (const revision of new Set(rows.map((row) => row.revision_id)))
        dropRevisionPack(this.sql, revision);
      for (const entry of entries) {
        const row = byId.get(entry.chunkId);
        if (row === undefined) continue; // the chunk was replaced meanwhile
        insert.run(
          row.seq,
          knowledgeBaseId,
          row.revision_id,
          vectorBlob(entry.vector),
          int8Code(entry.vector),
        );
      }
    })();
  }

  embeddedChunkIds(revisionId: string): Set<string> {
    const ids = this.sql(
      "SELECT c.id FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq WHERE v.revision_id = ?",
    )
      .pluck()
      .all(revisionId) as string[];
    return new Set(ids);
  }

  search(query: IndexQuery & { vector: Float32Array }): IndexHit[] {
    const cache = this.cacheFor(query.knowledgeBaseId);
    if (cache.served === 0) return [];
    const rows = cache.rows;
    if (rows === null || rows.dim !== query.vector.length) return this.exactSearch(query);
    const candidates = scanCandidates(
      rows,
      query.vector,
      Math.max(query.k * this.oversample, this.minCandidates),
      rows.allowed(query.documentIds),
      this.maxScanDims,
      this.prefilter,
    );
    if (candidates.length === 0) return [];
    const filter =
      query.documentIds === null ? "" : "AND c.document_id IN (SELECT value FROM json_each(@documents))";
    const hits = this.sql(
      `SELECT c.id AS id, vec_distance_cosine(v.embedding, @vector) AS distance
       FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
       WHERE v.chunk_seq IN (SELECT value FROM json_each(@seqs)) AND c.active = 1 ${filter}
       ORDER BY distance, v.chunk_seq LIMIT @k`,
    ).all({
      vector: vectorBlob(query.vector),
      seqs: JSON.stringify(candidates),
      k: query.k,
      ...(query.documentIds === null ? {} : { documents: JSON.stringify(query.documentIds) }),
    }) as Array<{ id: string; distance: number }>;
    return hits.map((row) => ({ chunkId: row.id, score: 1 - row.distance }));
  }

  /** Exact cosine KNN with sqlite-vec over every served vector of the knowledge base. */
  exactSearch(query: IndexQuery & { vector: Float32Array }): IndexHit[] {
    const filter =
      query.documentIds === null ? "" : "AND c.document_id IN (SELECT value FROM json_each(@documents))";
    const rows = this.sql(
      `SELECT c.id AS id, vec_distance_cosine(v.embedding, @vector) AS distance
       FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
       WHERE v.knowledge_base_id = @kb AND c.active = 1 ${filter}
       ORDER BY distance, v.chunk_seq LIMIT @k`,
    ).all({
      vector: vectorBlob(query.vector),
      kb: query.knowledgeBaseId,
      k: query.k,
      ...(query.documentIds === null ? {} : { documents: JSON.stringify(query.documentIds) }),
    }) as Array<{ id: string; distance: number }>;
    return rows.map((row) => ({ chunkId: row.id, score: 1 - row.distance }));
  }

  /**
   * Loads the knowledge base's rows ahead of its first search (`KnowledgeService.warm`), the packs
   * read on a worker thread (HP63): the call returns at once, the disk reads overlap whatever the
   * main thread does next (the keyword leg's load), and the int8 runs become the rows without a
   * copy as they arrive. Rows a search loaded meanwhile are kept; a generation that moved since is
   * patched by the next search, as after any load. An in-memory database, `packs: false`, a
   * knowledge base of fewer than `readerFrom` packed rows or a failed reader loads on this thread
   * instead.
   */
  async warm(knowledgeBaseId: string): Promise<void> {
    if (this.db.memory || !this.packs || packedRows(this.sql, knowledgeBaseId) < this.readerFrom) {
      this.cacheFor(knowledgeBaseId);
      return;
    }
    let loaded: VectorCache | null = null;
    const input = { file: this.db.name, knowledgeBaseId, exactBelow: this.exactBelow };
    try {
      await readServedPacks(input, (message) => {
        if (message.kind === "served") {
          const rows = message.dim === null ? null : new VectorRows(message.dim);
          loaded = { generation: message.generation, served: message.served, rows };
        } else if (message.kind === "pack" && loaded?.rows != null) {
          const { rows, served } = loaded;
          const { document, revision, parts } = message;
          const appended =
            parts === null
              ? this.db.transaction(() => this.append(rows, knowledgeBaseId, document, revision, served))()
              : rows.appendPacked(document, revision, parts, served);
          if (!appended) loaded.rows = null; // vectors of several widths: exact search
        }
      });
    } catch {
      this.cacheFor(knowledgeBaseId);
      return;
    }
    const done = loaded as VectorCache | null;
    if (done === null) return;
    const current = this.caches.get(knowledgeBaseId);
    if (current !== undefined && current.generation >= done.generation) return;
    if (done.rows !== null) this.columnBuilds++;
    this.readerLoads++;
    this.caches.set(knowledgeBaseId, done);
  }

  /** How many loads the pack reader thread made (for tests and metrics). */
  readerLoads = 0;

  /** Drops the in-memory rows (tests, or after bulk changes made outside this index). */
  invalidate(knowledgeBaseId?: string): void {
    if (knowledgeBaseId === undefined) this.caches.clear();
    else this.caches.delete(knowledgeBaseId);
  }

  /** How many times rows were loaded in full (for tests and metrics). */
  columnBuilds = 0;

  private cacheFor(knowledgeBaseId: string): VectorCache {
    const generation = indexGeneration(this.sql, knowledgeBaseId);
    const cached = this.caches.get(knowledgeBaseId);
    if (cached !== undefined && cached.generation === generation) return cached;
    if (cached !== undefined && cached.rows !== null) {
      const patched = this.db.transaction(() => this.patch(cached, knowledgeBaseId, generation))();
      if (patched !== null) {
        this.caches.set(knowledgeBaseId, patched);
        return patched;
      }
    }
    this.caches.delete(knowledgeBaseId); // let the old rows go before loading new ones
    const loaded = this.db.transaction(() => this.load(knowledgeBaseId))();
    if (loaded.rows !== null) this.columnBuilds++;
    this.caches.set(knowledgeBaseId, loaded);
    return loaded;
  }

  /**
   * The rows brought to the served set: revisions no longer served retired, newly served ones
   * appended. Null when a rebuild is due (too many retired rows, or a retired revision served again).
   */
  private patch(cache: VectorCache, knowledgeBaseId: string, generation: number): VectorCache | null {
    const rows = cache.rows;
    if (rows === null) return null;
    const served = new Map(servedRevisions(this.sql, knowledgeBaseId));
    for (const revision of rows.liveRevisions()) if (!served.has(revision)) rows.retire(revision);
    const fresh: Array<[string, string]> = [];
    for (const [revision, document] of served) {
      if (rows.isLive(revision)) continue;
      if (rows.holds(revision)) return null; // retired, then served again: rebuild rather than revive
      fresh.push([revision, document]);
    }
    if (rows.dead > rows.count * STALE_LIMIT) return null;
    for (const [revision, document] of fresh) {
      if (!this.append(rows, knowledgeBaseId, document, revision, 0)) return null;
    }
    return { generation, served: rows.count - rows.dead, rows };
  }

  /**
   * Appends a served revision's rows: from its pack, or (no pack yet: served before migration 30, or
   * rows written after it was packed) from its kb_vectors rows, packed and stored on the way when
   * this connection can write. False when the widths differ.
   */
  private append(
    rows: VectorRows,
    knowledgeBaseId: string,
    document: string,
    revision: string,
    expected: number,
  ): boolean {
    if (!this.packs)
      return rows.appendRevision(document, revision, revisionCodes(this.sql, revision), expected);
    let pack = readRevisionPack(this.sql, revision);
    if (pack === null) {
      try {
        pack = writeRevisionPack(this.sql, revision, knowledgeBaseId);
      } catch {
        pack = packRows(revisionCodes(this.sql, revision)); // read-only or busy: packed for this load only
      }
      if (pack === null) return false;
    }
    return rows.appendPacked(document, revision, pack, expected);
  }

  private load(knowledgeBaseId: string): VectorCache {
    const generation = indexGeneration(this.sql, knowledgeBaseId);
    const served = servedVectorCount(this.sql, knowledgeBaseId);
    // Small knowledge bases are searched exactly: no rows needed.
    if (served <= this.exactBelow) return { generation, served, rows: null };
    const dim = servedVectorWidth(this.sql, knowledgeBaseId);
    if (dim === null) return { generation, served, rows: null };
    const rows = new VectorRows(dim);
    for (const [revision, document] of servedRevisions(this.sql, knowledgeBaseId)) {
      if (!this.append(rows, knowledgeBaseId, document, revision, served)) {
        return { generation, served, rows: null }; // vectors of several widths: exact search
      }
    }
    return { generation, served, rows };
  }
}
