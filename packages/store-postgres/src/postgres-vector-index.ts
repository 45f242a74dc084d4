/**
 * The knowledge-base vector leg on PostgreSQL (decision PG7), in one of two modes chosen by
 * what the database has (migration 3 adds the pgvector column only where the extension is):
 *
 * - pgvector: vectors in a `vector` column; per knowledge base and width a partial HNSW index
 *   with cosine ops (`(embedding_vector::vector(d))`, created at its first vectors), searched
 *   with `hnsw.ef_search` ≥ 100 and, on pgvector ≥ 0.8, iterative scans so the served-chunk
 *   and document filters never starve the answer. Widths over 2000 (HNSW's limit for
 *   `vector`) are searched exactly by the database.
 * - int8: float32 and int8 codes in BYTEA, an in-memory int8 copy per knowledge base (the
 *   kb engine's int8 scan, shared with the SQLite store) for candidates, rescored exactly in
 *   the application on their float vectors read back from the database. The columns follow
 *   `index_generation` as the SQLite index does: patched while the served set changed little,
 *   rebuilt past a quarter of the rows.
 */
import { createHash } from "node:crypto";
import {
  type ColumnSource,
  type IndexHit,
  type IndexQuery,
  int8Code,
  scanCandidates,
  type VectorCache,
  type VectorIndex,
  VectorRows,
} from "@groundwork/kb";
import { bytes } from "./kb-rows.js";
import type { SqlClient, SqlQueryable } from "./sql-client.js";

export type VectorMode = "pgvector" | "int8";

export interface PostgresVectorIndexOptions {
  /** int8 mode: candidates per wanted hit kept by the scan for exact rescoring. */
  oversample?: number;
  /** int8 mode: candidates kept at least (a knowledge base this small is searched exactly). */
  minCandidates?: number;
  /** int8 mode: most query dimensions the scan applies (the largest components first). */
  maxScanDims?: number;
  /** int8 mode: rows nearest in sign bits (Hamming) that a dense query scores on their int8 components. */
  prefilter?: number;
  /** pgvector mode: `hnsw.ef_search` at least (raised to 2k for larger k, at most 1000). */
  efSearch?: number;
}

/** HNSW in pgvector indexes `vector` columns up to this width. */
export const HNSW_MAX_DIM = 2000;
/** Share of retired rows up to which the int8 rows are patched instead of rebuilt. */
const STALE_LIMIT = 0.25;

interface Capabilities {
  mode: VectorMode;
  iterativeScan: boolean;
}

function vectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(",")}]`;
}

function floatBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export class PostgresVectorIndex implements VectorIndex {
  private capabilities: Promise<Capabilities> | null = null;
  private readonly hnswIndexes = new Set<string>();
  private readonly caches = new Map<string, VectorCache>();
  private readonly oversample: number;
  private readonly minCandidates: number;
  private readonly maxScanDims: number;
  private readonly prefilter: number;
  private readonly efSearch: number;
  /** How many times int8 rows were loaded in full (for tests and metrics). */
  columnBuilds = 0;
  /** Loads made by a pack reader thread (store-sqlite's cold start): none here, rows come over the connection. */
  readonly readerLoads = 0;

  constructor(
    private readonly sql: SqlClient,
    options: PostgresVectorIndexOptions = {},
  ) {
    // Fewer candidates than the SQLite index rescores (25 × k, at least 200): here each one's
    // float vector crosses the connection (1.5 KB at 384 wide, hex-encoded), which was most of a
    // query's time, while the int8 scores rank candidates so closely that 4 × k keep recall@8 at
    // the contract's bar (PG13).
    this.oversample = options.oversample ?? 4;
    this.minCandidates = options.minCandidates ?? 64;
    this.maxScanDims = options.maxScanDims ?? 512;
    this.prefilter = options.prefilter ?? 2000;
    this.efSearch = options.efSearch ?? 100;
  }

  /** Which mode the database allows (read once). */
  async mode(): Promise<VectorMode> {
    return (await this.detect()).mode;
  }

  async upsert(
    knowledgeBaseId: string,
    entries: ReadonlyArray<{ chunkId: string; vector: Float32Array }>,
  ): Promise<void> {
    if (entries.length === 0) return;
    const { mode } = await this.detect();
    const rows = (
      await this.sql.query<{ id: string; seq: string | number; revision_id: string }>(
        "SELECT id, seq, revision_id FROM kb_chunks WHERE id = ANY($1::text[]) AND knowledge_base_id = $2",
        [entries.map((entry) => entry.chunkId), knowledgeBaseId],
      )
    ).rows;
    const byId = new Map(rows.map((row) => [row.id, row]));
    // A chunk replaced meanwhile (a restarted ingestion) has no row: its vector is dropped.
    const kept = entries.filter((entry) => byId.has(entry.chunkId));
    if (kept.length === 0) return;
    const seqs = kept.map((entry) => Number(byId.get(entry.chunkId)?.seq));
    const revisions = kept.map((entry) => byId.get(entry.chunkId)?.revision_id ?? "");
    const dims = kept.map((entry) => entry.vector.length);
    if (mode === "pgvector") {
      for (const dim of new Set(dims)) await this.ensureHnsw(knowledgeBaseId, dim);
      await this.sql.query(
        `INSERT INTO kb_vectors (chunk_seq, knowledge_base_id, revision_id, dim, embedding_vector)
         SELECT v.seq, $1, v.revision_id, v.dim, v.vector::vector
         FROM unnest($2::bigint[], $3::text[], $4::int[], $5::text[]) AS v (seq, revision_id, dim, vector)
         ON CONFLICT (chunk_seq) DO UPDATE SET revision_id = EXCLUDED.revision_id, dim = EXCLUDED.dim,
           embedding_vector = EXCLUDED.embedding_vector`,
        [knowledgeBaseId, seqs, revisions, dims, kept.map((entry) => vectorLiteral(entry.vector))],
      );
      return;
    }
    await this.sql.query(
      `INSERT INTO kb_vectors (chunk_seq, knowledge_base_id, revision_id, dim, embedding, code)
       SELECT v.seq, $1, v.revision_id, v.dim, v.embedding, v.code
       FROM unnest($2::bigint[], $3::text[], $4::int[], $5::bytea[], $6::bytea[]) AS v (seq, revision_id, dim, embedding, code)
       ON CONFLICT (chunk_seq) DO UPDATE SET revision_id = EXCLUDED.revision_id, dim = EXCLUDED.dim,
         embedding = EXCLUDED.embedding, code = EXCLUDED.code`,
      [
        knowledgeBaseId,
        seqs,
        revisions,
        dims,
        kept.map((entry) => floatBytes(entry.vector)),
        kept.map((entry) => int8Code(entry.vector)),
      ],
    );
  }

  async embeddedChunkIds(revisionId: string): Promise<Set<string>> {
    const rows = await this.sql.query<{ id: string }>(
      "SELECT c.id FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq WHERE v.revision_id = $1",
      [revisionId],
    );
    return new Set(rows.rows.map((row) => row.id));
  }

  /**
   * Loads the int8 rows ahead of the first search where they are searched here (no pgvector);
   * with pgvector the database searches them and nothing is held.
   */
  async warm(knowledgeBaseId: string): Promise<void> {
    if ((await this.detect()).mode === "int8") await this.cacheFor(knowledgeBaseId);
  }

  async search(query: IndexQuery & { vector: Float32Array }): Promise<IndexHit[]> {
    if (query.k <= 0 || (query.documentIds !== null && query.documentIds.length === 0)) return [];
    const capabilities = await this.detect();
    return capabilities.mode === "pgvector"
      ? this.searchPgvector(query, capabilities.iterativeScan)
      : this.searchInt8(query);
  }

  /**
   * Exact cosine KNN over every served vector of the knowledge base, nearest first (ties by
   * chunk age), with no index: the baseline the recall checks and benchmarks measure `search`
   * against (store-sqlite's `exactSearch`). With pgvector the database computes the distances
   * in one sort (the operand is not the HNSW indexes' `vector(d)` expression, so none applies);
   * without it every served float vector is read back and scored here.
   */
  async exactSearch(query: IndexQuery & { vector: Float32Array }): Promise<IndexHit[]> {
    if (query.k <= 0 || (query.documentIds !== null && query.documentIds.length === 0)) return [];
    const { mode } = await this.detect();
    if (mode === "int8") return this.rescore(query, null);
    const filter = query.documentIds === null ? "" : "AND c.document_id = ANY($5::text[])";
    const rows = await this.sql.query<{ id: string; distance: number }>(
      `SELECT c.id, v.embedding_vector <=> $1::vector AS distance
       FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
       WHERE v.knowledge_base_id = $2 AND v.dim = $3 AND c.active ${filter}
       ORDER BY distance, v.chunk_seq LIMIT $4`,
      [
        vectorLiteral(query.vector),
        query.knowledgeBaseId,
        query.vector.length,
        query.k,
        ...(query.documentIds === null ? [] : [query.documentIds]),
      ],
    );
    return rows.rows.map((row) => ({ chunkId: row.id, score: 1 - Number(row.distance) }));
  }

  /** Drops the in-memory int8 columns (tests, or after bulk changes made outside this index). */
  invalidate(knowledgeBaseId?: string): void {
    if (knowledgeBaseId === undefined) this.caches.clear();
    else this.caches.delete(knowledgeBaseId);
  }

  // ---- pgvector ----

  private async searchPgvector(
    query: IndexQuery & { vector: Float32Array },
    iterativeScan: boolean,
  ): Promise<IndexHit[]> {
    const dim = query.vector.length;
    const ef = Math.min(1000, Math.max(this.efSearch, query.k * 2));
    const filter = query.documentIds === null ? "" : "AND c.document_id = ANY($4::text[])";
    // `dim` is a validated integer (a Float32Array's length), so it may stand in the SQL text:
    // the cast's width must be a constant for the partial index's expression to match.
    const distance = `v.embedding_vector::vector(${dim}) <=> $1::vector(${dim})`;
    return this.sql.transaction(async (tx) => {
      await tx.exec(`SET LOCAL hnsw.ef_search = ${ef}`);
      if (iterativeScan) await tx.exec("SET LOCAL hnsw.iterative_scan = relaxed_order");
      // Iterative scans answer in relaxed order: the outer query puts the k nearest in order.
      const rows = await tx.query<{ id: string; distance: number }>(
        `WITH nearest AS MATERIALIZED (
           SELECT c.id, c.seq, ${distance} AS distance
           FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
           WHERE v.knowledge_base_id = $2 AND v.dim = ${dim} AND c.active ${filter}
           ORDER BY ${distance}
           LIMIT $3)
         SELECT id, distance FROM nearest ORDER BY distance, seq`,
        [
          vectorLiteral(query.vector),
          query.knowledgeBaseId,
          query.k,
          ...(query.documentIds === null ? [] : [query.documentIds]),
        ],
      );
      return rows.rows.map((row) => ({ chunkId: row.id, score: 1 - Number(row.distance) }));
    });
  }

  /** The knowledge base's HNSW index for one width, created once (under a lock: several processes). */
  private async ensureHnsw(knowledgeBaseId: string, dim: number): Promise<void> {
    if (!Number.isInteger(dim) || dim <= 0 || dim > HNSW_MAX_DIM) return;
    const name = `kb_vectors_hnsw_${createHash("sha256").update(knowledgeBaseId).digest("hex").slice(0, 24)}_${dim}`;
    if (this.hnswIndexes.has(name)) return;
    await this.sql.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [name]);
      await tx.exec(
        `CREATE INDEX IF NOT EXISTS ${name} ON kb_vectors USING hnsw ((embedding_vector::vector(${dim})) vector_cosine_ops)
         WHERE knowledge_base_id = '${knowledgeBaseId.replaceAll("'", "''")}' AND dim = ${dim}`,
      );
    });
    this.hnswIndexes.add(name);
  }

  // ---- int8 ----

  private async searchInt8(query: IndexQuery & { vector: Float32Array }): Promise<IndexHit[]> {
    const cache = await this.cacheFor(query.knowledgeBaseId);
    if (cache.served === 0) return [];
    const rows = cache.rows;
    if (rows === null || rows.dim !== query.vector.length) return this.rescore(query, null);
    const candidates = scanCandidates(
      rows,
      query.vector,
      Math.max(query.k * this.oversample, this.minCandidates),
      rows.allowed(query.documentIds),
      this.maxScanDims,
      this.prefilter,
    );
    if (candidates.length === 0) return [];
    return this.rescore(query, candidates);
  }

  /** Exact cosine over the served rows among `seqs` (all of the knowledge base's when null). */
  private async rescore(
    query: IndexQuery & { vector: Float32Array },
    seqs: number[] | null,
  ): Promise<IndexHit[]> {
    const params: unknown[] = [query.knowledgeBaseId];
    let where = "v.knowledge_base_id = $1 AND c.active";
    if (seqs !== null) {
      params.push(seqs);
      where += ` AND v.chunk_seq = ANY($${params.length}::bigint[])`;
    }
    if (query.documentIds !== null) {
      params.push(query.documentIds);
      where += ` AND c.document_id = ANY($${params.length}::text[])`;
    }
    const rows = await this.sql.query<{ id: string; seq: string | number; embedding: Uint8Array }>(
      `SELECT c.id, c.seq, v.embedding FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq WHERE ${where}`,
      params,
    );
    const scored = rows.rows
      .map((row) => {
        const buffer = bytes(row.embedding);
        // Copied out: a pooled driver buffer need not be 4-byte aligned.
        const vector = new Float32Array(
          buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength),
        );
        return { chunkId: row.id, seq: Number(row.seq), score: cosine(vector, query.vector) };
      })
      .sort((a, b) => b.score - a.score || a.seq - b.seq);
    return scored.slice(0, query.k).map(({ chunkId, score }) => ({ chunkId, score }));
  }

  private async cacheFor(knowledgeBaseId: string): Promise<VectorCache> {
    const generation = await this.generation(knowledgeBaseId);
    const cached = this.caches.get(knowledgeBaseId);
    if (cached !== undefined && cached.generation === generation) return cached;
    if (cached !== undefined && cached.rows !== null) {
      const patched = await this.sql.transaction((tx) => this.patch(tx, cached, knowledgeBaseId, generation));
      if (patched !== null) {
        this.caches.set(knowledgeBaseId, patched);
        return patched;
      }
    }
    this.caches.delete(knowledgeBaseId); // let the old rows go before loading new ones
    const loaded = await this.sql.transaction((tx) => this.load(tx, knowledgeBaseId));
    if (loaded.rows !== null) this.columnBuilds++;
    this.caches.set(knowledgeBaseId, loaded);
    return loaded;
  }

  /**
   * The rows brought to the served set: revisions no longer served retired, newly served ones
   * appended (as store-sqlite's index does). Null when a rebuild is due (too many retired rows,
   * or a retired revision served again).
   */
  private async patch(
    tx: SqlQueryable,
    cache: VectorCache,
    knowledgeBaseId: string,
    generation: number,
  ): Promise<VectorCache | null> {
    const rows = cache.rows;
    if (rows === null) return null;
    await tx.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    const served = new Map(await this.servedRevisions(tx, knowledgeBaseId));
    for (const revision of rows.liveRevisions()) if (!served.has(revision)) rows.retire(revision);
    const fresh: Array<[string, string]> = [];
    for (const [revision, document] of served) {
      if (rows.isLive(revision)) continue;
      if (rows.holds(revision)) return null; // retired, then served again: rebuild rather than revive
      fresh.push([revision, document]);
    }
    if (rows.dead > rows.count * STALE_LIMIT) return null;
    for (const [revision, document] of fresh) {
      if (!rows.appendRevision(document, revision, await this.revisionCodes(tx, revision))) return null;
    }
    return { generation, served: rows.count - rows.dead, rows };
  }

  /** Served revision → its document, for the knowledge base's live documents. */
  private async servedRevisions(
    sql: SqlQueryable,
    knowledgeBaseId: string,
  ): Promise<Array<[string, string]>> {
    const { rows } = await sql.query<{ revision: string; document: string }>(
      `SELECT serving_revision_id AS revision, id AS document FROM kb_documents
       WHERE knowledge_base_id = $1 AND deleted_at IS NULL AND serving_revision_id IS NOT NULL`,
      [knowledgeBaseId],
    );
    return rows.map((row) => [row.revision, row.document]);
  }

  /** Seq and int8 code of a revision's vectors. */
  private async revisionCodes(sql: SqlQueryable, revisionId: string): Promise<ColumnSource[]> {
    const { rows } = await sql.query<{ chunk_seq: string | number; code: Uint8Array }>(
      "SELECT chunk_seq, code FROM kb_vectors WHERE revision_id = $1 AND code IS NOT NULL",
      [revisionId],
    );
    return rows.map((row): ColumnSource => [Number(row.chunk_seq), bytes(row.code)]);
  }

  private async generation(knowledgeBaseId: string, sql: SqlQueryable = this.sql): Promise<number> {
    const row = (
      await sql.query<{ g: string | number }>(
        "SELECT index_generation AS g FROM knowledge_bases WHERE id = $1",
        [knowledgeBaseId],
      )
    ).rows[0];
    return row === undefined ? -1 : Number(row.g);
  }

  /** Vectors of the knowledge base's served revisions. */
  private async servedCount(sql: SqlQueryable, knowledgeBaseId: string): Promise<number> {
    const row = (
      await sql.query<{ n: string | number }>(
        `SELECT COUNT(*) AS n FROM kb_documents d JOIN kb_vectors v ON v.revision_id = d.serving_revision_id
         WHERE d.knowledge_base_id = $1 AND d.deleted_at IS NULL`,
        [knowledgeBaseId],
      )
    ).rows[0];
    return Number(row?.n ?? 0);
  }

  /** Loads the rows from one consistent read (repeatable read: count and rows agree). */
  private async load(tx: SqlQueryable, knowledgeBaseId: string): Promise<VectorCache> {
    await tx.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    const generation = await this.generation(knowledgeBaseId, tx);
    const served = await this.servedCount(tx, knowledgeBaseId);
    // Knowledge bases with no more vectors than the candidates kept are searched exactly.
    if (served <= this.minCandidates) return { generation, served, rows: null };
    const dim = (
      await tx.query<{ dim: number }>(
        `SELECT v.dim FROM kb_documents d JOIN kb_vectors v ON v.revision_id = d.serving_revision_id
         WHERE d.knowledge_base_id = $1 AND d.deleted_at IS NULL LIMIT 1`,
        [knowledgeBaseId],
      )
    ).rows[0]?.dim;
    if (dim === undefined) return { generation, served, rows: null };
    const rows = new VectorRows(Number(dim));
    for (const [revision, document] of await this.servedRevisions(tx, knowledgeBaseId)) {
      if (!rows.appendRevision(document, revision, await this.revisionCodes(tx, revision), served)) {
        return { generation, served, rows: null }; // vectors of several widths: exact search
      }
    }
    return { generation, served, rows };
  }

  private detect(): Promise<Capabilities> {
    if (this.capabilities === null) {
      this.capabilities = (async () => {
        const column = await this.sql.query(
          `SELECT 1 FROM information_schema.columns
           WHERE table_schema = current_schema() AND table_name = 'kb_vectors' AND column_name = 'embedding_vector'`,
        );
        if (column.rows.length === 0) return { mode: "int8", iterativeScan: false } as const;
        const version = (
          await this.sql.query<{ v: string }>(
            "SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'",
          )
        ).rows[0]?.v;
        const [major = 0, minor = 0] = (version ?? "0.0").split(".").map(Number);
        return { mode: "pgvector", iterativeScan: major > 0 || minor >= 8 } as const;
      })();
      this.capabilities.catch(() => {
        this.capabilities = null;
      });
    }
    return this.capabilities;
  }
}
