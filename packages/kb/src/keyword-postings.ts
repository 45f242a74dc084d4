/**
 * The keyword leg's in-memory inverted index of one knowledge base in one text-search language:
 * per term, the rows holding it (ascending row ordinals) and the term's frequency in each, with the
 * list's bounds (highest frequency, shortest row) for top-k search (keyword-top-k.ts).
 * Rows are appended a revision at a time (ordinals only grow, so every posting list stays sorted
 * without a rebuild) and retired by revision when it stops being served; a retired revision's rows
 * form one ordinal range, which keeps the live statistics (rows, length, document frequency)
 * exact without reading the retired terms back (HP30–HP33).
 * Memory per posting: 4 bytes of row and 2 of frequency (plus growth slack); per row: 4 bytes of
 * length, 8 of seq, 4 of revision ordinal.
 */
import { keywordPackRuns, writeKeywordPack } from "./keyword-pack.js";

/** Rows the fast path reads: lower-case ASCII letters and digits between single spaces. */
const PLAIN_TERMS = /^[a-z0-9]+(?: [a-z0-9]+)*$/;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Rows whose postings are staged before they are written to their lists. */
const STAGE_ROWS = 8192;

/**
 * Rows shorter than this share of the first rows' mean length are "short": their postings join
 * the repeated tier, whose bound covers them, so the single tier's bound need not (HP38).
 */
const SHORT_SHARE = 0.5;

/** Highest stored frequency of a term in one row (more occurrences count as this many). */
const MAX_TF = 65535;

/** One term's postings: rows ascending, frequencies beside them, and the list's bounds. */
export interface PostingList extends SortedPostings {
  /** Over the whole list: the highest frequency and the shortest row length (bounds, live or not). */
  maxTf: number;
  minLength: number;
  /**
   * The postings of frequency 2 or more, or in a row shorter than `KeywordPostings.shortBelow`,
   * again, rows ascending: top-k search reads a term as two tiers, these and the rest, each with
   * its own bound (HP38). Typically a few percent of a common term's list.
   */
  repeated: SortedPostings;
}

/** Postings, rows ascending, frequencies beside them: a list, or its repeated tier. */
export interface SortedPostings {
  count: number;
  rows: Uint32Array;
  tfs: Uint16Array;
}

/** Whether a posting belongs to its list's repeated tier (HP38): the one rule for both tiers. */
export function isRepeated(tf: number, length: number, shortBelow: number): boolean {
  return tf >= 2 || length < shortBelow;
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
  /**
   * Rows shorter than this are short (their postings are in the repeated tier): SHORT_SHARE of the
   * mean length of the first rows held (up to STAGE_ROWS of them), fixed from then on.
   */
  shortBelow = 0;
  private shortChosen = false;
  /** Rows held when the staged postings were last flushed. */
  private flushedRows = 0;
  private readonly terms = new Map<string, number>();
  /** The same terms in an open-addressing table (FNV-1a of the UTF-16 units), for the load's plain rows. */
  private slotKeys: string[] = new Array(1024);
  private slotIds = new Int32Array(1024).fill(-1);
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
  /** Scratch of the row being appended: per term, the last row that held it and its staged posting. */
  private lastRow = new Int32Array(16).fill(-1);
  private rowTf = new Uint32Array(16);
  /**
   * Postings staged for a batch of rows, written to their lists by `flush` after each list grew
   * once to fit them (growing a list per posting cost most of the load in allocations).
   */
  private pending = 0;
  private stagedTerm = new Uint32Array(1 << 16);
  private stagedRow = new Uint32Array(1 << 16);
  private stagedTf = new Uint32Array(1 << 16);
  /** Term ids of the text last scanned (`scanTermIds`). */
  private scanned = new Uint32Array(256);
  /** Per term: postings staged in the batch. */
  private stagedCount = new Uint32Array(16);

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
    const held = this.beginRevision(document, revision);
    const ordinal = held.ordinal;
    let batch = 0;
    for (const [seq, text] of rows) {
      const row = this.count;
      this.reserveRows(row + 1);
      let length = 0;
      if (PLAIN_TERMS.test(text)) length = this.noteAsciiTerms(text, row);
      else {
        const tokens = keywordTokens(text);
        for (const token of tokens) this.note(this.terms.get(token) ?? this.newTerm(token), row);
        length = tokens.length;
      }
      this.lengths[row] = length;
      this.seqs[row] = seq;
      this.rowRevision[row] = ordinal;
      this.liveLength += length;
      this.count++;
      if (++batch === STAGE_ROWS) {
        this.flush();
        batch = 0;
      }
    }
    this.flush();
    held.end = this.count;
    // New postings are live: cached document frequencies no longer hold.
    this.epoch++;
  }

  /**
   * Appends a served revision from its keyword pack (keyword-pack.ts): rows copied as runs, each
   * packed term found once and its postings copied onto its list, no row tokenized again (HP44).
   * The same postings as `appendRevision` over the rows the pack was made from. False (nothing
   * held) when the bytes are not a pack.
   */
  appendPacked(document: string, revision: string, stored: Uint8Array): boolean {
    const runs = keywordPackRuns(stored);
    if (runs === null) return false;
    const { layout, dictionary } = runs;
    // Every term found (or added) before anything is held: an empty term would shift the ids.
    const terms = this.scanTermIds(dictionary);
    if (terms !== layout.terms) return false;
    const ids = this.scanned;
    const held = this.beginRevision(document, revision);
    const base = this.count;
    this.reserveRows(base + layout.rows);
    this.lengths.set(runs.lengths, base);
    this.seqs.set(runs.seqs, base);
    this.rowRevision.fill(held.ordinal, base, base + layout.rows);
    for (let row = 0; row < layout.rows; row++) this.liveLength += runs.lengths[row] as number;
    this.count = base + layout.rows;
    // The same choice `flush` makes on the first rows appended (packs list rows in append order).
    this.chooseShort(runs.lengths.subarray(0, Math.min(layout.rows, STAGE_ROWS)));
    this.flushedRows = this.count;
    const shortBelow = this.shortBelow;
    const lengths = this.lengths;
    let at = 0;
    for (let term = 0; term < terms; term++) {
      const list = this.lists[ids[term] as number] as PostingList;
      const count = runs.counts[term] as number;
      reserve(list, count);
      const n = list.count;
      const rows = list.rows;
      rows.set(runs.postingRows.subarray(at, at + count), n);
      if (base !== 0) for (let j = n; j < n + count; j++) rows[j] = (rows[j] as number) + base;
      list.tfs.set(runs.tfs.subarray(at, at + count), n);
      for (let j = n; j < n + count; j++) {
        const tf = list.tfs[j] as number;
        const row = rows[j] as number;
        if (isRepeated(tf, lengths[row] as number, shortBelow)) pushRepeated(list.repeated, row, tf);
      }
      list.count = n + count;
      list.maxTf = Math.max(list.maxTf, runs.maxTfs[term] as number);
      list.minLength = Math.min(list.minLength, runs.minLengths[term] as number);
      at += count;
    }
    held.end = this.count;
    this.epoch++;
    return true;
  }

  /**
   * The keyword pack of a revision's rows (seq and index text): the postings `appendRevision`
   * would hold for them, in the layout of keyword-pack.ts, terms in order of first use.
   */
  static pack(rows: Iterable<readonly [number, string]>): Uint8Array {
    const one = new KeywordPostings();
    one.appendRevision("", "", rows);
    const terms = [...one.terms.keys()].map((term, id) => ({ term, ...(one.lists[id] as PostingList) }));
    return writeKeywordPack(one.seqs, one.lengths, one.count, terms);
  }

  /** Registers a revision (and its document) whose rows start at the next ordinal. */
  private beginRevision(document: string, revision: string): HeldRevision {
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
    return held;
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

  /** Counts one occurrence of a term in the row being appended. */
  private note(id: number, row: number): void {
    if (this.lastRow[id] !== row) {
      this.lastRow[id] = row;
      this.rowTf[id] = this.pending;
      this.stage(id, row);
    } else {
      const at = this.rowTf[id] as number;
      this.stagedTf[at] = (this.stagedTf[at] as number) + 1;
    }
  }

  /**
   * Notes the terms of a row of lower-case ASCII words and spaces (what the kb engine writes for
   * most text): see `scanTermIds`. Returns the row's length.
   */
  private noteAsciiTerms(text: string, row: number): number {
    const length = this.scanTermIds(text);
    const ids = this.scanned;
    for (let i = 0; i < length; i++) this.note(ids[i] as number, row);
    return length;
  }

  /**
   * The ids of the space-separated terms of `text`, in order, into `scanned` (new terms added);
   * returns how many. Each term is hashed in place and found in the open-addressing table, so no
   * string is cut out but a new term's: half the load's time went to splitting and to the map's
   * hashing of each substring. Terms may hold any character but a space.
   */
  private scanTermIds(text: string): number {
    const n = text.length;
    let count = 0;
    let start = -1;
    let hash = 0;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? text.charCodeAt(i) : 32;
      if (c === 32) {
        if (start >= 0) {
          const id = this.slotTerm(text, start, i, hash >>> 0);
          if (count === this.scanned.length) {
            const grown = new Uint32Array(count * 2);
            grown.set(this.scanned);
            this.scanned = grown;
          }
          this.scanned[count++] = id;
          start = -1;
        }
        continue;
      }
      if (start < 0) {
        start = i;
        hash = FNV_OFFSET;
      }
      hash = Math.imul(hash ^ c, FNV_PRIME);
    }
    return count;
  }

  /** The id of the term `text[start, end)` (hashed `hash`), added when new. */
  private slotTerm(text: string, start: number, end: number, hash: number): number {
    const mask = this.slotIds.length - 1;
    const size = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slotIds[slot] as number;
      if (id < 0) return this.newTerm(text.slice(start, end));
      const key = this.slotKeys[slot] as string;
      if (key.length === size && text.startsWith(key, start)) return id;
    }
  }

  private insertSlot(term: string, id: number): void {
    if ((this.lists.length + 1) * 2 > this.slotIds.length) {
      const keys = this.slotKeys;
      const ids = this.slotIds;
      this.slotKeys = new Array(ids.length * 2);
      this.slotIds = new Int32Array(ids.length * 2).fill(-1);
      for (let slot = 0; slot < ids.length; slot++)
        if ((ids[slot] as number) >= 0) this.placeSlot(keys[slot] as string, ids[slot] as number);
    }
    this.placeSlot(term, id);
  }

  private placeSlot(term: string, id: number): void {
    let hash = FNV_OFFSET;
    for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), FNV_PRIME);
    const mask = this.slotIds.length - 1;
    let slot = (hash >>> 0) & mask;
    while ((this.slotIds[slot] as number) >= 0) slot = (slot + 1) & mask;
    this.slotKeys[slot] = term;
    this.slotIds[slot] = id;
  }

  private stage(id: number, row: number): void {
    const at = this.pending;
    if (at === this.stagedTerm.length) {
      this.stagedTerm = grown(this.stagedTerm, at * 2);
      this.stagedRow = grown(this.stagedRow, at * 2);
      this.stagedTf = grown(this.stagedTf, at * 2);
    }
    this.stagedTerm[at] = id;
    this.stagedRow[at] = row;
    this.stagedTf[at] = 1;
    this.stagedCount[id] = (this.stagedCount[id] as number) + 1;
    this.pending = at + 1;
  }

  /** Writes the staged postings (rows ascending) to their lists, each list grown at most once. */
  private flush(): void {
    this.chooseShort(this.lengths.subarray(this.flushedRows, this.count));
    this.flushedRows = this.count;
    const n = this.pending;
    for (let i = 0; i < n; i++) {
      const id = this.stagedTerm[i] as number;
      const extra = this.stagedCount[id] as number;
      if (extra === 0) continue;
      this.stagedCount[id] = 0;
      reserve(this.lists[id] as PostingList, extra);
    }
    for (let i = 0; i < n; i++) {
      const row = this.stagedRow[i] as number;
      this.push(
        this.stagedTerm[i] as number,
        row,
        Math.min(this.stagedTf[i] as number, MAX_TF),
        this.lengths[row] as number,
      );
    }
    this.pending = 0;
  }

  /** Fixes `shortBelow` from the first rows held (a no-op once chosen, or without rows). */
  private chooseShort(lengths: Uint32Array): void {
    if (this.shortChosen || lengths.length === 0) return;
    let sum = 0;
    for (const length of lengths) sum += length;
    this.shortBelow = Math.floor((SHORT_SHARE * sum) / lengths.length);
    this.shortChosen = true;
  }

  private reserveRows(need: number): void {
    if (need <= this.lengths.length) return;
    const size = Math.max(need, Math.ceil(this.lengths.length * 1.5));
    this.lengths = grown(this.lengths, size);
    this.seqs = grown(this.seqs, size);
    this.rowRevision = grown(this.rowRevision, size);
  }

  private newTerm(token: string): number {
    const id = this.lists.length;
    this.insertSlot(token, id);
    this.terms.set(token, id);
    this.lists.push({
      count: 0,
      rows: new Uint32Array(0),
      tfs: new Uint16Array(0),
      maxTf: 0,
      minLength: 0xffffffff,
      repeated: { count: 0, rows: new Uint32Array(0), tfs: new Uint16Array(0) },
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
      const stagedCount = new Uint32Array(this.stagedCount.length * 2);
      stagedCount.set(this.stagedCount);
      this.stagedCount = stagedCount;
      const dfEpoch = new Uint32Array(this.dfEpoch.length * 2);
      dfEpoch.set(this.dfEpoch);
      this.dfEpoch = dfEpoch;
    }
    return id;
  }

  /** Appends one posting to a list with room for it (`reserve`). */
  private push(id: number, row: number, tf: number, length: number): void {
    const list = this.lists[id] as PostingList;
    const n = list.count;
    list.rows[n] = row;
    list.tfs[n] = tf;
    if (tf > list.maxTf) list.maxTf = tf;
    if (length < list.minLength) list.minLength = length;
    if (isRepeated(tf, length, this.shortBelow)) pushRepeated(list.repeated, row, tf);
    list.count = n + 1;
  }
}

/** Appends a posting to a list's repeated tier (doubling when full). */
function pushRepeated(repeated: SortedPostings, row: number, tf: number): void {
  const n = repeated.count;
  if (n === repeated.rows.length) {
    const size = Math.max(8, n * 2);
    repeated.rows = grown(repeated.rows, size);
    repeated.tfs = grown(repeated.tfs, size);
  }
  repeated.rows[n] = row;
  repeated.tfs[n] = tf;
  repeated.count = n + 1;
}

/** A copy of a typed array in a larger one of the same kind (the rest zero). */
function grown<T extends Uint32Array | Uint16Array | Float64Array>(array: T, size: number): T {
  const next = new (array.constructor as new (length: number) => T)(size);
  next.set(array);
  return next;
}

/** Grows a list (doubling) so that `extra` more postings fit. */
function reserve(list: PostingList, extra: number): void {
  const need = list.count + extra;
  if (need <= list.rows.length) return;
  const size = Math.max(need, list.rows.length * 2, 8);
  list.rows = grown(list.rows.subarray(0, list.count), size);
  list.tfs = grown(list.tfs.subarray(0, list.count), size);
}

/** First posting index at or after `from` whose row is ≥ `row` (galloping, then binary search). */
export function seekRow(rows: Uint32Array, n: number, from: number, row: number): number {
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
  return seekRow(list.rows, list.count, 0, row);
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
