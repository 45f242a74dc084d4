/**
 * The keyword leg's in-memory inverted index of one knowledge base in one text-search language:
 * per term, the rows holding it (ascending row ordinals) and the term's frequency in each, with a
 * bound per block of postings so that top-k search (keyword-top-k.ts) can skip what cannot rank.
 * Rows are appended a revision at a time (ordinals only grow, so every posting list stays sorted
 * without a rebuild) and retired by revision when it stops being served; a retired revision's rows
 * form one ordinal range, which keeps the live statistics (rows, length, document frequency)
 * exact without reading the retired terms back (HP30–HP33).
 * Memory per posting: 4 bytes of row and 2 of frequency (plus growth slack); per row: 4 bytes of
 * length, 8 of seq, 4 of revision ordinal.
 */

/** Postings per block bound (its highest frequency and shortest row). */
export const POSTING_BLOCK = 64;

/** Highest stored frequency of a term in one row (more occurrences count as this many). */
const MAX_TF = 65535;

/** One term's postings: rows ascending, frequencies beside them, and the per-block bounds. */
export interface PostingList {
  count: number;
  rows: Uint32Array;
  tfs: Uint16Array;
  /** Per block of `POSTING_BLOCK` postings: the highest frequency and the shortest row length. */
  blockMaxTf: Uint16Array;
  blockMinLength: Uint32Array;
  /** Over the whole list: the highest frequency and the shortest row length (bounds, live or not). */
  maxTf: number;
  minLength: number;
}

/**
 * The terms of an index row as FTS5's `unicode61` tokenizer reads them: lower-cased, split on every
 * character that is not a letter, a number or private-use. The kb engine's analyzed terms are
 * already single tokens, so for them this is a split on spaces.
 */
export function keywordTokens(text: string): string[] {
  const lower = text.toLowerCase();
  return /^[a-z0-9 ]*$/.test(lower)
    ? lower.split(" ").filter((token) => token !== "")
    : lower.split(/[^\p{L}\p{N}\p{Co}]+/u).filter((token) => token !== "");
}

function grown<T extends Uint32Array | Uint16Array>(array: T, need: number, make: (size: number) => T): T {
  if (need <= array.length) return array;
  const next = make(Math.max(need, Math.ceil(array.length * 1.5), 4));
  next.set(array);
  return next;
}

/** A revision's ordinal range and document, and whether it is still served. */
interface HeldRevision {
  ordinal: number;
  document: number;
  start: number;
  end: number;
  live: boolean;
}

export class KeywordPostings {
  /** Rows held (live or retired). */
  count = 0;
  /** Rows retired (their revision is no longer served). */
  dead = 0;
  /** Sum of the live rows' lengths in tokens. */
  liveLength = 0;
  /** Bumped by every retirement: cached document frequencies older than it are recounted. */
  epoch = 0;
  private readonly terms = new Map<string, number>();
  private lists: PostingList[] = [];
  /** Per term: live postings (valid while `dfEpoch` equals `epoch`). */
  private df = new Uint32Array(16);
  private dfEpoch = new Uint32Array(16);
  lengths = new Uint32Array(1024);
  seqs = new Float64Array(1024);
  rowRevision = new Uint32Array(1024);
  readonly documents: string[] = [];
  private readonly documentIndex = new Map<string, number>();
  private readonly revisions: HeldRevision[] = [];
  private readonly revisionIndex = new Map<string, number>();
  /** Per revision ordinal: 1 while served. */
  revisionLive = new Uint8Array(16);
  /** Per revision ordinal: its document ordinal. */
  revisionDocument = new Uint32Array(16);
  /** Ordinal ranges of retired rows, ascending and merged. */
  private retired: Array<[number, number]> = [];
  /** Scratch of the row being appended: per term, the last row that held it and its count there. */
  private lastRow = new Int32Array(16).fill(-1);
  private rowTf = new Uint32Array(16);

  /** The term's postings, or undefined when no held row has it. */
  list(term: string): PostingList | undefined {
    const id = this.terms.get(term);
    return id === undefined ? undefined : this.lists[id];
  }

  /** Live rows holding the term (document frequency over the served rows). */
  documentFrequency(term: string): number {
    const id = this.terms.get(term);
    if (id === undefined) return 0;
    if (this.dfEpoch[id] === this.epoch) return this.df[id] as number;
    const list = this.lists[id] as PostingList;
    let live = list.count;
    for (const [start, end] of this.retired) live -= lowerBound(list, end) - lowerBound(list, start);
    this.df[id] = live;
    this.dfEpoch[id] = this.epoch;
    return live;
  }

  /** Live rows. */
  get liveRows(): number {
    return this.count - this.dead;
  }

  holds(revision: string): boolean {
    return this.revisionIndex.has(revision);
  }

  isLive(revision: string): boolean {
    const held = this.revisionIndex.get(revision);
    return held !== undefined && (this.revisions[held] as HeldRevision).live;
  }

  liveRevisions(): string[] {
    return [...this.revisionIndex]
      .filter(([, i]) => (this.revisions[i] as HeldRevision).live)
      .map(([r]) => r);
  }

  /** Per document ordinal: 1 when the document passes the filter (null: every document). */
  allowed(documentIds: readonly string[] | null): Uint8Array | null {
    if (documentIds === null) return null;
    const mask = new Uint8Array(this.documents.length);
    for (const id of documentIds) {
      const index = this.documentIndex.get(id);
      if (index !== undefined) mask[index] = 1;
    }
    return mask;
  }

  /** Appends a served revision's rows (chunk seq and index text), in any order of seq. */
  appendRevision(document: string, revision: string, rows: Iterable<readonly [number, string]>): void {
    if (this.revisionIndex.has(revision)) throw new Error(`Revision ${revision} is already held`);
    let documentOrdinal = this.documentIndex.get(document);
    if (documentOrdinal === undefined) {
      documentOrdinal = this.documents.length;
      this.documents.push(document);
      this.documentIndex.set(document, documentOrdinal);
    }
    const ordinal = this.revisions.length;
    const held: HeldRevision = {
      ordinal,
      document: documentOrdinal,
      start: this.count,
      end: this.count,
      live: true,
    };
    this.revisions.push(held);
    this.revisionIndex.set(revision, ordinal);
    if (ordinal >= this.revisionLive.length) {
      const live = new Uint8Array(this.revisionLive.length * 2);
      live.set(this.revisionLive);
      this.revisionLive = live;
      const documents = new Uint32Array(this.revisionDocument.length * 2);
      documents.set(this.revisionDocument);
      this.revisionDocument = documents;
    }
    this.revisionLive[ordinal] = 1;
    this.revisionDocument[ordinal] = documentOrdinal;
    const distinct: number[] = [];
    for (const [seq, text] of rows) {
      const row = this.count;
      this.reserveRows(row + 1);
      const tokens = keywordTokens(text);
      distinct.length = 0;
      for (const token of tokens) {
        let id = this.terms.get(token);
        if (id === undefined) id = this.newTerm(token);
        if (this.lastRow[id] !== row) {
          this.lastRow[id] = row;
          this.rowTf[id] = 1;
          distinct.push(id);
        } else this.rowTf[id] = (this.rowTf[id] as number) + 1;
      }
      const length = tokens.length;
      for (const id of distinct) this.push(id, row, Math.min(this.rowTf[id] as number, MAX_TF), length);
      this.lengths[row] = length;
      this.seqs[row] = seq;
      this.rowRevision[row] = ordinal;
      this.liveLength += length;
      this.count++;
    }
    held.end = this.count;
    // New postings are live: cached document frequencies no longer hold.
    this.epoch++;
  }

  /** Retires a revision's rows: every search skips them and the statistics leave them out. */
  retire(revision: string): void {
    const ordinal = this.revisionIndex.get(revision);
    if (ordinal === undefined) return;
    const held = this.revisions[ordinal] as HeldRevision;
    if (!held.live) return;
    held.live = false;
    this.revisionLive[ordinal] = 0;
    this.dead += held.end - held.start;
    for (let row = held.start; row < held.end; row++) this.liveLength -= this.lengths[row] as number;
    if (held.end > held.start) this.retired = mergeRange(this.retired, held.start, held.end);
    this.epoch++;
  }

  private reserveRows(need: number): void {
    if (need <= this.lengths.length) return;
    const size = Math.max(need, Math.ceil(this.lengths.length * 1.5));
    const lengths = new Uint32Array(size);
    lengths.set(this.lengths);
    this.lengths = lengths;
    const seqs = new Float64Array(size);
    seqs.set(this.seqs);
    this.seqs = seqs;
    const revisions = new Uint32Array(size);
    revisions.set(this.rowRevision);
    this.rowRevision = revisions;
  }

  private newTerm(token: string): number {
    const id = this.lists.length;
    this.terms.set(token, id);
    this.lists.push({
      count: 0,
      rows: new Uint32Array(2),
      tfs: new Uint16Array(2),
      blockMaxTf: new Uint16Array(1),
      blockMinLength: new Uint32Array(1),
      maxTf: 0,
      minLength: 0xffffffff,
    });
    if (id >= this.lastRow.length) {
      const lastRow = new Int32Array(this.lastRow.length * 2).fill(-1);
      lastRow.set(this.lastRow);
      this.lastRow = lastRow;
      const rowTf = new Uint32Array(this.rowTf.length * 2);
      rowTf.set(this.rowTf);
      this.rowTf = rowTf;
      const df = new Uint32Array(this.df.length * 2);
      df.set(this.df);
      this.df = df;
      const dfEpoch = new Uint32Array(this.dfEpoch.length * 2);
      dfEpoch.set(this.dfEpoch);
      this.dfEpoch = dfEpoch;
    }
    return id;
  }

  private push(id: number, row: number, tf: number, length: number): void {
    const list = this.lists[id] as PostingList;
    const n = list.count;
    list.rows = grown(list.rows, n + 1, (size) => new Uint32Array(size));
    list.tfs = grown(list.tfs, n + 1, (size) => new Uint16Array(size));
    list.rows[n] = row;
    list.tfs[n] = tf;
    const block = Math.floor(n / POSTING_BLOCK);
    list.blockMaxTf = grown(list.blockMaxTf, block + 1, (size) => new Uint16Array(size));
    list.blockMinLength = grown(list.blockMinLength, block + 1, (size) => new Uint32Array(size));
    if (n % POSTING_BLOCK === 0) {
      list.blockMaxTf[block] = tf;
      list.blockMinLength[block] = length;
    } else {
      if (tf > (list.blockMaxTf[block] as number)) list.blockMaxTf[block] = tf;
      if (length < (list.blockMinLength[block] as number)) list.blockMinLength[block] = length;
    }
    if (tf > list.maxTf) list.maxTf = tf;
    if (length < list.minLength) list.minLength = length;
    list.count = n + 1;
  }
}

/** First posting index at or after `from` whose row is ≥ `row` (galloping, then binary search). */
export function seekRow(list: PostingList, from: number, row: number): number {
  const rows = list.rows;
  const n = list.count;
  if (from >= n || (rows[from] as number) >= row) return from;
  let step = 1;
  let low = from;
  let high = from + 1;
  while (high < n && (rows[high] as number) < row) {
    low = high;
    step *= 2;
    high = from + step;
  }
  if (high > n) high = n;
  // rows[low] < row; answer in (low, high]
  let lo = low + 1;
  let hi = high;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((rows[mid] as number) < row) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lowerBound(list: PostingList, row: number): number {
  return seekRow(list, 0, row);
}

function mergeRange(ranges: Array<[number, number]>, start: number, end: number): Array<[number, number]> {
  const all = [...ranges, [start, end] as [number, number]].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of all) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}
