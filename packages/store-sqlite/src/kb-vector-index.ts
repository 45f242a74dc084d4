/**
 * The knowledge-base indexes on SQLite: vectors (float32 BLOBs, cosine through
 * sqlite-vec's `vec_distance_cosine`) and keyword rows (FTS5 over terms the kb
 * engine analyzed). Implements the engine's `VectorIndex`, `KeywordIndex` and
 * `ReindexStore` ports.
 *
 * Dense search. sqlite-vec 0.1.9 scans every vector without SIMD (DESIGN.md:
 * 174 ms per KNN at 100k × 1536), so a knowledge base with more than
 * `exactBelow` served vectors is searched in two steps:
 *  1. Candidates from an int8 copy of the vectors held in memory per knowledge
 *     base, column-major (one contiguous run per dimension). Each vector is
 *     quantized with its own range (max |component| → 127, DESIGN.md: a fixed
 *     'unit' scale loses recall). A sparse query (≤ `maxScanDims` components
 *     carry 99 % of its energy — hash-embedding-1536 queries have a few hundred
 *     non-zero ones) is applied in full precision to those columns only. A dense
 *     query (provider embeddings) instead compares sign bits (48 words per row,
 *     XOR + popcount) and keeps twice as many candidates.
 *  2. The best `max(k × oversample, minCandidates)` candidates are rescored
 *     exactly by sqlite-vec on their float vectors.
 * When the knowledge base's `index_generation` moves (a revision switch, a
 * document deletion) the columns are patched rather than rebuilt while the change
 * is small: rows of revisions the columns do not hold are scored exactly beside
 * the candidates, and rows no longer served drop out at rescoring, so every query
 * still sees exactly the served set. Past `STALE_LIMIT` of the rows the columns
 * are rebuilt (seconds at 100k rows, which would otherwise stall the server after
 * every ingested document).
 * Memory: 1 byte per component (154 MB for 100k × 1536) while a knowledge base
 * is being searched. Recall against exact search is measured by the benchmark
 * (packages/server/src/routes/kb/bench/kb-bench.ts).
 */
import type {
  IndexHit,
  IndexQuery,
  KeywordIndex,
  ReindexStore,
  TextSearchLanguage,
  VectorIndex,
} from "@groundwork/kb";
import { TEXT_SEARCH_LANGUAGES } from "@groundwork/kb";
import type { Database, Statement } from "better-sqlite3";
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
}

interface VectorCache {
  generation: number;
  count: number;
  dim: number;
  seqs: Float64Array;
  /** int8 components, column-major: component j of row i at j * count + i. */
  columns: Int8Array;
  /** Per row: quantization step × 1/‖v‖ (the int8 dot product times this is the cosine). */
  factors: Float32Array;
  /** Sign bits, row-major, `words` 32-bit words per row (bit set = positive component). */
  signs: Int32Array;
  words: number;
  /** Ordinal of each row's document in `documents`. */
  documentOrdinals: Int32Array;
  documents: string[];
  /** Revisions whose rows the columns hold. */
  revisions: string[];
  /** Served rows the columns do not hold (revisions served since the build), scored exactly. */
  extraSeqs: number[];
  /** Rows in the columns that are no longer served. */
  dead: number;
}

/** Share of changed rows up to which the columns are patched instead of rebuilt. */
const STALE_LIMIT = 0.25;

/** Header of the stored int8 code: step (float32) and 1/‖v‖ (float32), then one int8 per component. */
const CODE_HEADER = 8;

/** The int8 code of a vector, quantized with its own range. */
export function int8Code(vector: Float32Array): Buffer {
  let max = 0;
  let squares = 0;
  for (const value of vector) {
    max = Math.max(max, Math.abs(value));
    squares += value * value;
  }
  const step = max === 0 ? 1 : max / 127;
  const code = Buffer.alloc(CODE_HEADER + vector.length);
  code.writeFloatLE(step, 0);
  code.writeFloatLE(squares === 0 ? 0 : 1 / Math.sqrt(squares), 4);
  const components = new Int8Array(code.buffer, code.byteOffset + CODE_HEADER, vector.length);
  for (let j = 0; j < vector.length; j++) components[j] = Math.round((vector[j] ?? 0) / step);
  return code;
}

function vectorBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

function languageIndex(language: TextSearchLanguage): number {
  const index = TEXT_SEARCH_LANGUAGES.indexOf(language);
  if (index < 0) throw new Error(`Unknown text-search language ${language}`);
  return index;
}

/** The `scope` token of a knowledge base's keyword rows in one language. */
export function keywordScope(knowledgeBaseId: string, language: TextSearchLanguage): string {
  return `s${knowledgeBaseId.toLowerCase().replace(/[^a-z0-9]/g, "")}x${languageIndex(language)}`;
}

/** An FTS5 query matching any of the terms (each quoted, so no term is read as syntax). */
export function anyTermQuery(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}

export class SqliteVectorIndex implements VectorIndex {
  private readonly sql: (text: string) => Statement;
  private readonly caches = new Map<string, VectorCache>();
  private readonly exactBelow: number;
  private readonly oversample: number;
  private readonly minCandidates: number;
  private readonly maxScanDims: number;

  constructor(
    private readonly db: Database,
    options: KbIndexOptions = {},
  ) {
    this.sql = statementCache(db);
    this.exactBelow = options.exactBelow ?? 4096;
    this.oversample = options.oversample ?? 25;
    this.minCandidates = options.minCandidates ?? 200;
    this.maxScanDims = options.maxScanDims ?? 512;
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
    if (cache.count === 0) return [];
    if (cache.count <= this.exactBelow || cache.dim !== query.vector.length) return this.exactSearch(query);
    // Rows no longer served can take candidate places; keep more when there are some.
    const wanted = Math.max(query.k * this.oversample, this.minCandidates) * (cache.dead > 0 ? 2 : 1);
    const candidates = this.candidates(
      cache,
      query.vector,
      wanted,
      this.documentMask(cache, query.documentIds),
    );
    if (candidates.length === 0 && cache.extraSeqs.length === 0) return [];
    const filter =
      query.documentIds === null ? "" : "AND c.document_id IN (SELECT value FROM json_each(@documents))";
    const rows = this.sql(
      `SELECT c.id AS id, vec_distance_cosine(v.embedding, @vector) AS distance
       FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
       WHERE v.chunk_seq IN (SELECT value FROM json_each(@seqs)) AND c.active = 1 ${filter}
       ORDER BY distance, v.chunk_seq LIMIT @k`,
    ).all({
      vector: vectorBlob(query.vector),
      seqs: JSON.stringify(cache.extraSeqs.length === 0 ? candidates : candidates.concat(cache.extraSeqs)),
      k: query.k,
      ...(query.documentIds === null ? {} : { documents: JSON.stringify(query.documentIds) }),
    }) as Array<{ id: string; distance: number }>;
    return rows.map((row) => ({ chunkId: row.id, score: 1 - row.distance }));
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

  /** Drops the in-memory int8 columns (tests, or after bulk changes made outside this index). */
  invalidate(knowledgeBaseId?: string): void {
    if (knowledgeBaseId === undefined) this.caches.clear();
    else this.caches.delete(knowledgeBaseId);
  }

  /** Chunk seqs of the `wanted` rows with the best approximate cosine. */
  private candidates(
    cache: VectorCache,
    vector: Float32Array,
    wantedCandidates: number,
    mask: Uint8Array | null,
  ): number[] {
    let wanted = wantedCandidates;
    const { count, columns } = cache;
    // The query's components by decreasing magnitude, until 99 % of its energy (or the cap).
    const order = Array.from(vector.keys()).filter((j) => (vector[j] ?? 0) !== 0);
    order.sort((a, b) => Math.abs(vector[b] ?? 0) - Math.abs(vector[a] ?? 0));
    let total = 0;
    for (const j of order) total += (vector[j] ?? 0) ** 2;
    const dims: number[] = [];
    let covered = 0;
    for (const j of order) {
      if (covered >= 0.99 * total) break;
      dims.push(j);
      covered += (vector[j] ?? 0) ** 2;
    }
    let scores: Float32Array;
    let factors: Float32Array | null = cache.factors;
    if (dims.length <= this.maxScanDims) {
      // Sparse query: exact up to int8 rounding, over its own non-zero columns only.
      scores = new Float32Array(count);
      for (const j of dims) {
        const weight = vector[j] ?? 0;
        const column = columns.subarray(j * count, (j + 1) * count);
        for (let i = 0; i < count; i++) scores[i] = (scores[i] ?? 0) + weight * (column[i] ?? 0);
      }
    } else {
      // Dense query: agreement of sign bits (1536 components in 48 words), twice the candidates.
      scores = signAgreement(cache, vector);
      factors = null;
      wanted *= 2;
    }
    // Top `wanted` by a bounded min-heap (rows in a filtered-out document never enter).
    const size = Math.min(wanted, count);
    const heapScores = new Float32Array(size);
    const heapRows = new Int32Array(size);
    let filled = 0;
    for (let i = 0; i < count; i++) {
      if (mask !== null && mask[cache.documentOrdinals[i] ?? 0] !== 1) continue;
      const score = factors === null ? (scores[i] ?? 0) : (scores[i] ?? 0) * (factors[i] ?? 0);
      if (filled < size) {
        heapScores[filled] = score;
        heapRows[filled] = i;
        siftUp(heapScores, heapRows, filled);
        filled++;
      } else if (score > (heapScores[0] ?? 0)) {
        heapScores[0] = score;
        heapRows[0] = i;
        siftDown(heapScores, heapRows, filled);
      }
    }
    const out: number[] = [];
    for (let h = 0; h < filled; h++) out.push(cache.seqs[heapRows[h] ?? 0] ?? 0);
    return out;
  }

  /** How many times columns were built (for tests and metrics). */
  columnBuilds = 0;

  private cacheFor(knowledgeBaseId: string): VectorCache {
    const generation = this.generation(knowledgeBaseId);
    const cached = this.caches.get(knowledgeBaseId);
    if (cached !== undefined && cached.generation === generation) return cached;
    if (cached !== undefined && cached.dim > 0) {
      const patched = this.db.transaction(() => this.patch(cached, knowledgeBaseId, generation))();
      if (patched !== null) {
        this.caches.set(knowledgeBaseId, patched);
        return patched;
      }
    }
    this.caches.delete(knowledgeBaseId); // let the old columns go before building new ones
    const loaded = this.db.transaction(() => this.load(knowledgeBaseId))();
    if (loaded.dim > 0) this.columnBuilds++;
    this.caches.set(knowledgeBaseId, loaded);
    return loaded;
  }

  /** The columns with the served set's changes beside them, or null when a rebuild is due. */
  private patch(cache: VectorCache, knowledgeBaseId: string, generation: number): VectorCache | null {
    const extraSeqs = this.sql(
      `SELECT v.chunk_seq FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
       WHERE v.knowledge_base_id = ? AND c.active = 1
         AND c.revision_id NOT IN (SELECT value FROM json_each(?))`,
    )
      .pluck()
      .all(knowledgeBaseId, JSON.stringify(cache.revisions)) as number[];
    const dead = cache.count - (this.servedCount(knowledgeBaseId) - extraSeqs.length);
    if (extraSeqs.length + dead > cache.count * STALE_LIMIT) return null;
    return { ...cache, generation, extraSeqs, dead };
  }

  private generation(knowledgeBaseId: string): number {
    return (
      (this.sql("SELECT index_generation FROM knowledge_bases WHERE id = ?").pluck().get(knowledgeBaseId) as
        | number
        | undefined) ?? -1
    );
  }

  /** Vectors of the knowledge base's served chunks. */
  private servedCount(knowledgeBaseId: string): number {
    return this.sql(
      `SELECT COUNT(*) FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
       WHERE v.knowledge_base_id = ? AND c.active = 1`,
    )
      .pluck()
      .get(knowledgeBaseId) as number;
  }

  private load(knowledgeBaseId: string): VectorCache {
    const generation = this.generation(knowledgeBaseId);
    const count = this.servedCount(knowledgeBaseId);
    const empty = {
      generation,
      count: 0,
      dim: 0,
      seqs: new Float64Array(0),
      columns: new Int8Array(0),
      factors: new Float32Array(0),
      signs: new Int32Array(0),
      words: 0,
      documentOrdinals: new Int32Array(0),
      documents: [],
      revisions: [],
      extraSeqs: [],
      dead: 0,
    };
    // Small knowledge bases are searched exactly: no columns needed.
    if (count <= this.exactBelow) return { ...empty, count };
    let dim = 0;
    const seqs = new Float64Array(count);
    const factors = new Float32Array(count);
    const documentOrdinals = new Int32Array(count);
    let columns = new Int8Array(0);
    let signs = new Int32Array(0);
    let words = 0;
    const documents: string[] = [];
    const ordinals = new Map<string, number>();
    let row = 0;
    const statement = this.sql(
      `SELECT v.chunk_seq, v.code, c.document_id, c.revision_id FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
       WHERE v.knowledge_base_id = ? AND c.active = 1 ORDER BY v.chunk_seq`,
    ).raw(true);
    // Rows are gathered in blocks and transposed a block at a time (contiguous writes per column).
    const BLOCK = 256;
    let block = new Int8Array(0);
    let blockStart = 0;
    const flush = (rows: number) => {
      for (let j = 0; j < dim; j++) {
        const base = j * count + blockStart;
        for (let r = 0; r < rows; r++) columns[base + r] = block[r * dim + j] ?? 0;
      }
      blockStart += rows;
    };
    const revisions = new Set<string>();
    for (const [seq, code, documentId, revisionId] of statement.iterate(knowledgeBaseId) as Iterable<
      [number, Buffer, string, string]
    >) {
      revisions.add(revisionId);
      if (row >= count) break;
      if (dim === 0) {
        dim = code.byteLength - CODE_HEADER;
        columns = new Int8Array(dim * count);
        block = new Int8Array(BLOCK * dim);
        words = Math.ceil(dim / 32);
        signs = new Int32Array(words * count);
      }
      factors[row] = code.readFloatLE(0) * code.readFloatLE(4);
      const components = new Int8Array(code.buffer, code.byteOffset + CODE_HEADER, dim);
      block.set(components, (row - blockStart) * dim);
      for (let j = 0; j < dim; j++) {
        if ((components[j] ?? 0) > 0)
          signs[row * words + (j >> 5)] = (signs[row * words + (j >> 5)] ?? 0) | (1 << (j & 31));
      }
      if (row - blockStart + 1 === BLOCK) flush(BLOCK);
      seqs[row] = seq;
      let ordinal = ordinals.get(documentId);
      if (ordinal === undefined) {
        ordinal = documents.length;
        documents.push(documentId);
        ordinals.set(documentId, ordinal);
      }
      documentOrdinals[row] = ordinal;
      row++;
    }
    if (row > blockStart) flush(row - blockStart);
    if (row < count) {
      // Rows vanished between the count and the scan (cannot happen inside the read transaction).
      return { ...empty, count: row };
    }
    return {
      generation,
      count,
      dim,
      seqs,
      columns,
      factors,
      signs,
      words,
      documentOrdinals,
      documents,
      revisions: [...revisions],
      extraSeqs: [],
      dead: 0,
    };
  }

  private documentMask(cache: VectorCache, documentIds: readonly string[] | null): Uint8Array | null {
    if (documentIds === null) return null;
    const allowed = new Set(documentIds);
    const mask = new Uint8Array(cache.documents.length);
    cache.documents.forEach((id, ordinal) => {
      if (allowed.has(id)) mask[ordinal] = 1;
    });
    return mask;
  }
}

const POPCOUNT16 = (() => {
  const table = new Uint8Array(65536);
  for (let i = 1; i < 65536; i++) table[i] = (table[i >> 1] ?? 0) + (i & 1);
  return table;
})();

/** Per row: components whose sign matches the query's (higher is closer). */
function signAgreement(cache: VectorCache, vector: Float32Array): Float32Array {
  const { count, words, signs } = cache;
  const query = new Int32Array(words);
  for (let j = 0; j < vector.length; j++) {
    if ((vector[j] ?? 0) > 0) query[j >> 5] = (query[j >> 5] ?? 0) | (1 << (j & 31));
  }
  const scores = new Float32Array(count);
  for (let row = 0; row < count; row++) {
    let differ = 0;
    const offset = row * words;
    for (let w = 0; w < words; w++) {
      const x = (signs[offset + w] ?? 0) ^ (query[w] ?? 0);
      differ += (POPCOUNT16[x & 0xffff] ?? 0) + (POPCOUNT16[x >>> 16] ?? 0);
    }
    scores[row] = -differ;
  }
  return scores;
}

function siftUp(scores: Float32Array, rows: Int32Array, at: number): void {
  let i = at;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if ((scores[parent] ?? 0) <= (scores[i] ?? 0)) break;
    swap(scores, rows, i, parent);
    i = parent;
  }
}

function siftDown(scores: Float32Array, rows: Int32Array, size: number): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let smallest = i;
    if (left < size && (scores[left] ?? 0) < (scores[smallest] ?? 0)) smallest = left;
    if (right < size && (scores[right] ?? 0) < (scores[smallest] ?? 0)) smallest = right;
    if (smallest === i) return;
    swap(scores, rows, i, smallest);
    i = smallest;
  }
}

function swap(scores: Float32Array, rows: Int32Array, a: number, b: number): void {
  const score = scores[a] ?? 0;
  scores[a] = scores[b] ?? 0;
  scores[b] = score;
  const row = rows[a] ?? 0;
  rows[a] = rows[b] ?? 0;
  rows[b] = row;
}

/** FTS5 keyword rows, one set per text-search language, and the background reindex between two. */
export class SqliteKeywordIndex implements KeywordIndex, ReindexStore {
  private readonly sql: (text: string) => Statement;

  constructor(private readonly db: Database) {
    this.sql = statementCache(db);
  }

  add(
    knowledgeBaseId: string,
    language: TextSearchLanguage,
    entries: ReadonlyArray<{ chunkId: string; terms: string }>,
  ): void {
    if (entries.length === 0) return;
    const li = languageIndex(language);
    const seqs = new Map(
      (
        this.sql("SELECT id, seq FROM kb_chunks WHERE id IN (SELECT value FROM json_each(?))").all(
          JSON.stringify(entries.map((entry) => entry.chunkId)),
        ) as Array<{ id: string; seq: number }>
      ).map((row) => [row.id, row.seq]),
    );
    const drop = this.sql("DELETE FROM kb_fts WHERE rowid = ?");
    const insert = this.sql(
      "INSERT INTO kb_fts (rowid, terms, scope, knowledge_base_id, language) VALUES (?, ?, ?, ?, ?)",
    );
    const scope = keywordScope(knowledgeBaseId, language);
    this.db.transaction(() => {
      for (const entry of entries) {
        const seq = seqs.get(entry.chunkId);
        if (seq === undefined) continue;
        const rowid = seq * 64 + li;
        drop.run(rowid);
        insert.run(rowid, entry.terms, scope, knowledgeBaseId, language);
      }
    })();
  }

  /**
   * BM25 over the knowledge base's rows in one language (the `scope` token keeps other knowledge
   * bases out of the ranking), best first. The ranking reads only the FTS index; served chunks
   * and the document filter are checked on the best rows, widening the window until `k` survive
   * or the matches run out (rows of in-progress revisions are the only ones skipped without a filter).
   */
  search(query: IndexQuery & { language: TextSearchLanguage; terms: readonly string[] }): IndexHit[] {
    if (query.terms.length === 0 || query.k <= 0) return [];
    const match = `scope : "${keywordScope(query.knowledgeBaseId, query.language)}" AND terms : (${anyTermQuery(query.terms)})`;
    const ranked = this.sql(
      "SELECT rowid, bm25(kb_fts, 1.0, 0.0) AS rank FROM kb_fts WHERE kb_fts MATCH ? ORDER BY rank, rowid LIMIT ? OFFSET ?",
    );
    const served = this.sql(
      "SELECT seq, id, document_id FROM kb_chunks WHERE seq IN (SELECT value FROM json_each(?)) AND active = 1",
    );
    const allowed = query.documentIds === null ? null : new Set(query.documentIds);
    const hits: IndexHit[] = [];
    let offset = 0;
    let window = Math.max(query.k * 2, 64);
    for (;;) {
      const rows = ranked.all(match, window, offset) as Array<{ rowid: number; rank: number }>;
      const chunks = new Map(
        (
          served.all(JSON.stringify(rows.map((row) => Math.floor(row.rowid / 64)))) as Array<{
            seq: number;
            id: string;
            document_id: string;
          }>
        ).map((chunk) => [chunk.seq, chunk]),
      );
      for (const row of rows) {
        const chunk = chunks.get(Math.floor(row.rowid / 64));
        if (chunk === undefined || (allowed !== null && !allowed.has(chunk.document_id))) continue;
        hits.push({ chunkId: chunk.id, score: -row.rank });
        if (hits.length >= query.k) return hits;
      }
      if (rows.length < window) return hits;
      offset += window;
      window *= 4;
    }
  }

  // ---- ReindexStore ----

  pendingLanguage(knowledgeBaseId: string): TextSearchLanguage | null {
    return (
      (this.sql(
        "SELECT pending_text_search_language FROM knowledge_bases WHERE id = ? AND deleted_at IS NULL",
      )
        .pluck()
        .get(knowledgeBaseId) as TextSearchLanguage | null | undefined) ?? null
    );
  }

  chunkBatch(
    knowledgeBaseId: string,
    after: number,
    limit: number,
  ): Array<{ seq: number; chunkId: string; text: string }> {
    const rows = this.sql(
      `SELECT c.seq AS seq, c.id AS chunkId, c.text AS text FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
       WHERE v.knowledge_base_id = ? AND v.chunk_seq > ? AND c.text IS NOT NULL
       ORDER BY v.chunk_seq LIMIT ?`,
    ).all(knowledgeBaseId, after, limit) as Array<{ seq: number; chunkId: string; text: string }>;
    return rows;
  }

  addTerms(
    knowledgeBaseId: string,
    language: TextSearchLanguage,
    entries: ReadonlyArray<{ chunkId: string; terms: string }>,
  ): boolean {
    return this.db.transaction(() => {
      if (this.pendingLanguage(knowledgeBaseId) !== language) return false;
      this.add(knowledgeBaseId, language, entries);
      return true;
    })();
  }

  finish(knowledgeBaseId: string, language: TextSearchLanguage): boolean {
    return this.db.transaction(() => {
      const row = this.sql(
        "SELECT text_search_language, pending_text_search_language FROM knowledge_bases WHERE id = ? AND deleted_at IS NULL",
      ).get(knowledgeBaseId) as
        | { text_search_language: string; pending_text_search_language: string | null }
        | undefined;
      if (row === undefined || row.pending_text_search_language !== language) return false;
      this.sql(
        "UPDATE knowledge_bases SET text_search_language = ?, pending_text_search_language = NULL WHERE id = ?",
      ).run(language, knowledgeBaseId);
      dropKeywordRows(this.sql, knowledgeBaseId, row.text_search_language as TextSearchLanguage);
      return true;
    })();
  }
}

/** Deletes a knowledge base's keyword rows of one language (found through their scope token). */
export function dropKeywordRows(
  sql: (text: string) => Statement,
  knowledgeBaseId: string,
  language: TextSearchLanguage,
): void {
  sql("DELETE FROM kb_fts WHERE rowid IN (SELECT rowid FROM kb_fts WHERE kb_fts MATCH ?)").run(
    `scope : "${keywordScope(knowledgeBaseId, language)}"`,
  );
}
