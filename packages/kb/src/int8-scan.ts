/**
 * The first steps of dense search on a large knowledge base: an int8 copy of its
 * served vectors and their sign bits held in memory, scanned for the candidates
 * that sqlite-vec then rescores exactly (kb-vector-index.ts). Each vector is
 * quantized with its own range (max |component| → 127, DESIGN.md: a fixed 'unit'
 * scale loses recall).
 *  - A dense query (provider embeddings, every component non-zero) is compared
 *    with every row's sign bits first (1 bit per component, Hamming distance by
 *    `i64.popcnt` in hamming-wasm.ts over one contiguous run of codes); the
 *    closest `prefilter` rows are then scored on their int8 components.
 *  - A sparse query (≤ `maxScanDims` components carry 99 % of its energy —
 *    hash-embedding-1536 queries have a few hundred non-zero ones) is applied in
 *    full precision to those components of every row.
 * Rows are appended as revisions are served (no rebuild per document) and
 * retired by revision when they stop being served (HP20–HP22).
 * Memory per row: 1 byte per component plus 1 bit per component (1.73 GB for
 * 1M × 1536) while a knowledge base is being searched; float vectors stay in SQLite.
 */
import { codeBytes, type HammingScan, hammingScan, type WasmMemory, wasmMemory } from "./hamming-wasm.js";
import {
  CODE_HEADER,
  type ColumnSource,
  type PackParts,
  readPackLayout,
  writeSignCode,
} from "./vector-pack.js";

export type { ColumnSource } from "./vector-pack.js";

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

/** The in-memory rows of one knowledge base, as of one index generation. */
export interface VectorCache {
  generation: number;
  /** Served vectors when the cache was made; `rows` is null when they are few enough for exact search. */
  served: number;
  rows: VectorRows | null;
}

/** Wasm memory bytes kept for the query code in front of the sign codes. */
const QUERY_BYTES = 65536;
const PAGE = 65536;
/** Most wasm32 pages (4 GiB). */
const MAX_PAGES = 65536;

/** A run of int8 rows (row-major), allocated as rows arrive so appending never copies old rows. */
interface Segment {
  start: number;
  capacity: number;
  data: Int8Array;
}

/**
 * Row-major int8 vectors, their sign codes (in wasm memory, contiguous) and per-row seq, scale,
 * document and revision. Rows of a revision that stopped being served are retired (skipped by
 * every scan) until the owner rebuilds.
 */
export class VectorRows {
  count = 0;
  /** Rows retired since the build (their revision is no longer served). */
  dead = 0;
  readonly documents: string[] = [];
  private readonly documentIndex = new Map<string, number>();
  readonly revisions: string[] = [];
  private readonly revisionIndex = new Map<string, number>();
  /** Per revision ordinal: 1 while served. */
  private revisionLive = new Uint8Array(16);
  private revisionRows: number[] = [];
  /** Rows the per-row arrays and the sign codes have room for. */
  private capacity = 0;
  /** Rows the int8 segments have room for (adopted runs are full). */
  private segmentEnd = 0;
  seqs = new Float64Array(0);
  /** Per row: quantization step × 1/‖v‖ (the int8 dot product times this is the cosine). */
  factors = new Float32Array(0);
  documentOrdinals = new Int32Array(0);
  revisionOrdinals = new Int32Array(0);
  private readonly segments: Segment[] = [];
  readonly codeBytes: number;
  private memory: WasmMemory | null = null;
  private hamming: HammingScan | null = null;

  constructor(readonly dim: number) {
    this.codeBytes = codeBytes(dim);
  }

  holds(revisionId: string): boolean {
    return this.revisionIndex.has(revisionId);
  }

  isLive(revisionId: string): boolean {
    const ordinal = this.revisionIndex.get(revisionId);
    return ordinal !== undefined && this.revisionLive[ordinal] === 1;
  }

  /** Revisions whose rows are held and still counted as served. */
  liveRevisions(): string[] {
    return this.revisions.filter((_, ordinal) => this.revisionLive[ordinal] === 1);
  }

  /** Skips a revision's rows from now on. */
  retire(revisionId: string): void {
    const ordinal = this.revisionIndex.get(revisionId);
    if (ordinal === undefined || this.revisionLive[ordinal] !== 1) return;
    this.revisionLive[ordinal] = 0;
    this.dead += this.revisionRows[ordinal] ?? 0;
  }

  /**
   * Appends the rows of one served revision (any order); `expected` sizes the allocation.
   * False when a code has another width (the rows read so far stay, the caller rebuilds).
   */
  appendRevision(
    documentId: string,
    revisionId: string,
    source: Iterable<ColumnSource>,
    expected = 0,
  ): boolean {
    const revision = this.register(documentId, revisionId);
    const document = this.documentIndex.get(documentId) ?? 0;
    for (const [seq, code] of source) {
      if (code.byteLength - CODE_HEADER !== this.dim) return false;
      const row = this.count;
      if (row >= this.segmentEnd) this.reserveCodes(Math.max(expected, row + 1));
      this.seqs[row] = seq;
      this.factors[row] = code.readFloatLE(0) * code.readFloatLE(4);
      this.documentOrdinals[row] = document;
      this.revisionRows[revision] = (this.revisionRows[revision] ?? 0) + 1;
      this.revisionOrdinals[row] = revision;
      const components = new Int8Array(code.buffer, code.byteOffset + CODE_HEADER, this.dim);
      const segment = this.segmentOf(row);
      segment.data.set(components, (row - segment.start) * this.dim);
      this.writeSigns(row, components);
      this.count++;
    }
    return true;
  }

  /**
   * Appends the rows of one served revision from its pack (vector-pack.ts): the head's three runs
   * copied, the int8 codes made the rows' segment as they are, without a copy (HP63) — the pack
   * must not be written to afterwards. False when the parts are malformed or of another width
   * (the rows read so far stay, the caller rebuilds).
   */
  appendPacked(documentId: string, revisionId: string, pack: PackParts, expected = 0): boolean {
    const layout = readPackLayout(pack);
    if (layout === null || (layout.count > 0 && layout.dim !== this.dim)) return false;
    const revision = this.register(documentId, revisionId);
    const n = layout.count;
    if (n === 0) return true;
    const first = this.count;
    this.reserve(Math.max(expected, first + n));
    // The last segment's room past the current rows is given up: the adopted run follows them.
    const last = this.segments[this.segments.length - 1];
    if (last !== undefined && this.segmentEnd > first) {
      last.capacity = first - last.start;
      if (last.capacity === 0) this.segments.pop();
    }
    this.segments.push({ start: first, capacity: n, data: pack.codes });
    this.segmentEnd = first + n;
    const bytes = (offset: number, length: number) => pack.head.subarray(offset, offset + length);
    new Uint8Array(this.seqs.buffer, first * 8, n * 8).set(bytes(layout.seqs, n * 8));
    new Uint8Array(this.factors.buffer, first * 4, n * 4).set(bytes(layout.factors, n * 4));
    const memory = this.memory as WasmMemory;
    new Uint8Array(memory.buffer, QUERY_BYTES + first * this.codeBytes, n * this.codeBytes).set(
      bytes(layout.signs, n * this.codeBytes),
    );
    this.documentOrdinals.fill(this.documentIndex.get(documentId) ?? 0, first, first + n);
    this.revisionOrdinals.fill(revision, first, first + n);
    this.revisionRows[revision] = (this.revisionRows[revision] ?? 0) + n;
    this.count += n;
    return true;
  }

  /** Per row: 1 where the row may be answered (served revision, allowed document); null when all may. */
  allowed(documentIds: readonly string[] | null): Uint8Array | null {
    if (documentIds === null && this.dead === 0) return null;
    const documentOk = new Uint8Array(this.documents.length).fill(documentIds === null ? 1 : 0);
    if (documentIds !== null) {
      for (const id of documentIds) {
        const ordinal = this.documentIndex.get(id);
        if (ordinal !== undefined) documentOk[ordinal] = 1;
      }
    }
    const mask = new Uint8Array(this.count);
    for (let i = 0; i < this.count; i++) {
      mask[i] =
        (documentOk[this.documentOrdinals[i] ?? 0] ?? 0) &
        (this.revisionLive[this.revisionOrdinals[i] ?? 0] ?? 0);
    }
    return mask;
  }

  /** Hamming distance of every row's sign code to the query's (u16 per row, a view valid until the next append). */
  signDistances(vector: Float32Array): Uint16Array {
    const memory = this.memory;
    const hamming = this.hamming;
    if (memory === null || hamming === null) return new Uint16Array(0);
    const query = new Uint8Array(memory.buffer, 0, this.codeBytes).fill(0);
    for (let j = 0; j < this.dim; j++)
      if ((vector[j] ?? 0) > 0) query[j >> 3] = (query[j >> 3] ?? 0) | (1 << (j & 7));
    const out = this.outOffset();
    hamming(0, QUERY_BYTES, this.count, this.codeBytes, this.codeBytes / 32, out);
    return new Uint16Array(memory.buffer, out, this.count);
  }

  /** Σ weight × int8 component over the given components of every row (sparse queries). */
  sparseScores(dims: readonly number[], weights: readonly number[]): Float32Array {
    const scores = new Float32Array(this.count);
    const dimsArray = Int32Array.from(dims);
    const weightArray = Float32Array.from(weights);
    const terms = dimsArray.length;
    const dim = this.dim;
    for (const segment of this.segments) {
      const { data, start } = segment;
      const rows = Math.min(segment.capacity, this.count - start);
      for (let r = 0; r < rows; r++) {
        const base = r * dim;
        let sum = 0;
        for (let t = 0; t < terms; t++)
          sum += (weightArray[t] ?? 0) * (data[base + (dimsArray[t] ?? 0)] ?? 0);
        scores[start + r] = sum;
      }
    }
    return scores;
  }

  /** int8 dot product of the query with one row. */
  dot(row: number, vector: Float32Array): number {
    const segment = this.segmentOf(row);
    const data = segment.data;
    const base = (row - segment.start) * this.dim;
    let sum = 0;
    for (let j = 0; j < this.dim; j++) sum += (vector[j] ?? 0) * (data[base + j] ?? 0);
    return sum;
  }

  /** The revision's ordinal, marked served (and its document's ordinal made). */
  private register(documentId: string, revisionId: string): number {
    this.ordinal(this.documents, this.documentIndex, documentId);
    const revision = this.ordinal(this.revisions, this.revisionIndex, revisionId);
    if (revision >= this.revisionLive.length) {
      const live = new Uint8Array(Math.max(this.revisionLive.length * 2, revision + 1));
      live.set(this.revisionLive);
      this.revisionLive = live;
    }
    this.revisionLive[revision] = 1;
    this.revisionRows[revision] = this.revisionRows[revision] ?? 0;
    return revision;
  }

  private ordinal(list: string[], index: Map<string, number>, id: string): number {
    let ordinal = index.get(id);
    if (ordinal === undefined) {
      ordinal = list.length;
      list.push(id);
      index.set(id, ordinal);
    }
    return ordinal;
  }

  private segmentOf(row: number): Segment {
    const segments = this.segments;
    let low = 0;
    let high = segments.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((segments[mid]?.start ?? 0) <= row) low = mid;
      else high = mid - 1;
    }
    return segments[low] as Segment;
  }

  private outOffset(): number {
    return QUERY_BYTES + this.capacity * this.codeBytes;
  }

  private writeSigns(row: number, components: Int8Array): void {
    const memory = this.memory as WasmMemory;
    const codes = new Uint8Array(memory.buffer);
    writeSignCode(components, codes, QUERY_BYTES + row * this.codeBytes, this.codeBytes);
  }

  /** Room for at least `rows` rows in the int8 segments too: a new segment up to the capacity (old rows stay where they are). */
  private reserveCodes(rows: number): void {
    this.reserve(rows);
    if (rows <= this.segmentEnd) return;
    const added = this.capacity - this.segmentEnd;
    this.segments.push({ start: this.segmentEnd, capacity: added, data: new Int8Array(added * this.dim) });
    this.segmentEnd = this.capacity;
  }

  /** Room for at least `rows` rows in the per-row arrays and wasm memory. */
  private reserve(rows: number): void {
    if (rows <= this.capacity) return;
    // Past the first allocation, grow by an eighth: appends stay amortized, memory stays near the row count.
    const capacity = Math.max(rows, this.capacity === 0 ? rows : Math.ceil(this.capacity * 1.125), 64);
    const widen = <T extends Float64Array | Float32Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old as never);
      return next;
    };
    this.seqs = widen(this.seqs, (n) => new Float64Array(n));
    this.factors = widen(this.factors, (n) => new Float32Array(n));
    this.documentOrdinals = widen(this.documentOrdinals, (n) => new Int32Array(n));
    this.revisionOrdinals = widen(this.revisionOrdinals, (n) => new Int32Array(n));
    const bytes = QUERY_BYTES + capacity * (this.codeBytes + 2);
    const pages = Math.ceil(bytes / PAGE);
    if (pages > MAX_PAGES)
      throw new RangeError("The knowledge base's sign codes exceed 4 GiB of wasm memory");
    if (this.memory === null) {
      this.memory = wasmMemory(pages, MAX_PAGES);
      this.hamming = hammingScan(this.memory);
    } else {
      const have = this.memory.buffer.byteLength / PAGE;
      // Growing in place (V8 reserves the whole 4 GiB range up front): the codes do not move.
      if (pages > have) this.memory.grow(pages - have);
    }
    this.capacity = capacity;
  }
}

/** Chunk seqs of the `wanted` rows with the best approximate cosine. */
export function scanCandidates(
  rows: VectorRows,
  vector: Float32Array,
  wanted: number,
  allowed: Uint8Array | null,
  maxScanDims: number,
  prefilter: number,
): number[] {
  const count = rows.count;
  // The query's components by decreasing magnitude, until 99 % of its energy (or the cap).
  const order = Array.from(vector.keys()).filter((j) => (vector[j] ?? 0) !== 0);
  order.sort((a, b) => Math.abs(vector[b] ?? 0) - Math.abs(vector[a] ?? 0));
  let total = 0;
  for (const j of order) total += (vector[j] ?? 0) ** 2;
  const dims: number[] = [];
  let covered = 0;
  for (const j of order) {
    if (covered >= 0.99 * total || dims.length > maxScanDims) break;
    dims.push(j);
    covered += (vector[j] ?? 0) ** 2;
  }
  if (dims.length <= maxScanDims) {
    // Sparse query: exact up to int8 rounding, over its own non-zero components only.
    const scores = rows.sparseScores(
      dims,
      dims.map((j) => vector[j] ?? 0),
    );
    return topRows(count, wanted, (i) =>
      allowed !== null && allowed[i] !== 1
        ? Number.NEGATIVE_INFINITY
        : (scores[i] ?? 0) * (rows.factors[i] ?? 0),
    ).map((i) => rows.seqs[i] ?? 0);
  }
  // Dense query: the `prefilter` rows nearest in Hamming distance, then their int8 cosine.
  const near = nearestByHamming(
    rows.signDistances(vector),
    rows.codeBytes * 8,
    Math.max(prefilter, wanted),
    allowed,
  );
  const scored = near.map((i) => ({ row: i, score: rows.dot(i, vector) * (rows.factors[i] ?? 0) }));
  scored.sort((a, b) => b.score - a.score || a.row - b.row);
  return scored.slice(0, wanted).map((entry) => rows.seqs[entry.row] ?? 0);
}

/**
 * The rows of the `wanted` smallest distances among the allowed ones: a histogram of the
 * distances (they are small integers) gives the cut-off, one more pass collects the rows.
 */
function nearestByHamming(
  distances: Uint16Array,
  largest: number,
  wanted: number,
  allowed: Uint8Array | null,
): number[] {
  const count = distances.length;
  const histogram = new Uint32Array(largest + 1);
  for (let i = 0; i < count; i++) {
    if (allowed !== null && allowed[i] !== 1) continue;
    const distance = distances[i] ?? 0;
    histogram[distance] = (histogram[distance] ?? 0) + 1;
  }
  let cut = 0;
  let below = 0;
  while (cut < largest && below + (histogram[cut] ?? 0) < wanted) {
    below += histogram[cut] ?? 0;
    cut++;
  }
  // Every row under the cut, and rows at the cut (lowest rows first) until `wanted`.
  let atCut = wanted - below;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    if (allowed !== null && allowed[i] !== 1) continue;
    const distance = distances[i] ?? 0;
    if (distance < cut) out.push(i);
    else if (distance === cut && atCut > 0) {
      out.push(i);
      atCut--;
    }
  }
  return out;
}

/** Indexes of the `wanted` best scores (a bounded min-heap); rows scoring -∞ never enter. */
function topRows(count: number, wanted: number, score: (row: number) => number): number[] {
  const size = Math.min(wanted, count);
  const heapScores = new Float32Array(size);
  const heapRows = new Int32Array(size);
  let filled = 0;
  for (let i = 0; i < count; i++) {
    const value = score(i);
    if (value === Number.NEGATIVE_INFINITY) continue;
    if (filled < size) {
      heapScores[filled] = value;
      heapRows[filled] = i;
      siftUp(heapScores, heapRows, filled);
      filled++;
    } else if (value > (heapScores[0] ?? 0)) {
      heapScores[0] = value;
      heapRows[0] = i;
      siftDown(heapScores, heapRows, filled);
    }
  }
  return Array.from(heapRows.subarray(0, filled));
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
