/**
 * The first step of dense search on a large knowledge base: an int8 copy of its
 * served vectors held in memory, column-major (one contiguous run per
 * dimension), scanned for the candidates that the store then rescores exactly
 * (store-sqlite's kb-vector-index.ts with sqlite-vec; store-postgres's vector index where
 * pgvector is missing). Pure, so both stores share it. Each vector is quantized with its own range
 * (max |component| → 127, DESIGN.md: a fixed 'unit' scale loses recall). A
 * sparse query (≤ `maxScanDims` components carry 99 % of its energy —
 * hash-embedding-1536 queries have a few hundred non-zero ones) is applied in
 * full precision to those columns only. A dense query (provider embeddings)
 * instead compares sign bits (48 words per row, XOR + popcount) and keeps twice
 * as many candidates.
 * Memory: 1 byte per component (154 MB for 100k × 1536) while a knowledge base
 * is being searched.
 */

/** The int8 columns of one knowledge base's served vectors, as of one index generation. */
export interface VectorCache {
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

/** Columns holding no rows, for `count` served ones (a knowledge base searched exactly needs none). */
export function emptyColumns(generation: number, count: number): VectorCache {
  return {
    generation,
    count,
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
}

/** One served row as the columns are built from it: chunk seq, int8 code, document id, revision id. */
export type ColumnSource = [number, Buffer, string, string];

/**
 * Builds the columns from the served rows (chunk seq, int8 code, document, revision) in seq order;
 * `count` is how many rows were counted beforehand.
 */
export function buildColumns(served: Iterable<ColumnSource>, count: number, generation: number): VectorCache {
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
  for (const [seq, code, documentId, revisionId] of served) {
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
    return emptyColumns(generation, row);
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

/** Chunk seqs of the `wanted` rows with the best approximate cosine. */
export function scanCandidates(
  cache: VectorCache,
  vector: Float32Array,
  wantedCandidates: number,
  mask: Uint8Array | null,
  maxScanDims: number,
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
  if (dims.length <= maxScanDims) {
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

/** Per document ordinal: 1 where the document may be hit; null when every document may. */
export function documentMask(cache: VectorCache, documentIds: readonly string[] | null): Uint8Array | null {
  if (documentIds === null) return null;
  const allowed = new Set(documentIds);
  const mask = new Uint8Array(cache.documents.length);
  cache.documents.forEach((id, ordinal) => {
    if (allowed.has(id)) mask[ordinal] = 1;
  });
  return mask;
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
