/**
 * Top-k BM25 over a knowledge base's keyword postings (keyword-postings.ts) without scoring every
 * row that matches a term: MaxScore (Turtle & Flood). The query's terms, each read as up to two
 * tiers (HP38), are sorted by their highest possible contribution; once the k-th best score θ
 * exceeds the summed bounds of the weakest tiers, those become "non-essential": only rows in an
 * essential tier are candidates, the weaker tiers are only probed (galloping) for candidates that
 * can still reach θ, and a candidate is dropped as soon as its partial score plus the remaining
 * bounds falls below θ. Common terms (low IDF) thus stop costing a pass over their long lists (HP31).
 *
 * The formula is FTS5's `bm25()` (k1 = 1.2, b = 0.75, IDF = ln((N − n + ½)/(n + ½)), at least
 * 1e-6), each query term a phrase in query order, over the knowledge base's served rows in the
 * language (N, n and the average length are theirs, HP32). Ties rank the lower chunk seq first,
 * as FTS5's `ORDER BY rank, rowid` did.
 */
import {
  isRepeated,
  type KeywordPostings,
  keywordTokens,
  type PostingList,
  type SortedPostings,
  seekRow,
} from "./keyword-postings.js";

const K1 = 1.2;
const B = 0.75;
/** Bounds are compared with this slack: a bound summed in another order may differ in its last bits. */
const SLACK = 1 + 1e-9;
/** Rows shorter than this have their single-occurrence factor remembered per query. */
const FACTOR_LENGTHS = 4096;
/**
 * A cursor past its tier's last posting: above every row ordinal, and a small integer to V8 (an
 * unsigned 0xffffffff read back from a typed array deoptimized the walk, "lost precision").
 */
const END = 0x7fffffff;

export interface KeywordHit {
  /** Row ordinal in the postings. */
  row: number;
  seq: number;
  score: number;
}

/** FTS5's IDF: ln((N − n + 0.5)/(n + 0.5)), floored at 1e-6 for terms in over half the rows. */
export function bm25Idf(rows: number, frequency: number): number {
  const idf = Math.log((rows - frequency + 0.5) / (frequency + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

/** One term's BM25 contribution, written as FTS5 writes it (so equal inputs give equal doubles). */
export function bm25Term(idf: number, tf: number, length: number, averageLength: number): number {
  return idf * bm25Factor(tf, length, averageLength);
}

/** The term factor of `bm25Term` (its contribution over the IDF). */
function bm25Factor(tf: number, length: number, averageLength: number): number {
  return (tf * (K1 + 1.0)) / (tf + K1 * (1 - B + (B * length) / averageLength));
}

/**
 * The query's phrases as the index reads them: each term tokenized like an index row; a term
 * that is not exactly one token (never one the kb engine analyzed) cannot match a bag of terms
 * and is left out.
 */
export function keywordPhrases(terms: readonly string[]): string[] {
  const phrases: string[] = [];
  for (const term of terms) {
    const tokens = keywordTokens(term);
    if (tokens.length === 1) phrases.push(tokens[0] as string);
  }
  return phrases;
}

export interface KeywordTopKOptions {
  /**
   * Read each term as two tiers (single and repeated occurrences, HP38); default true. False
   * reads each term's list as one, bounded by its highest frequency (the benchmark's baseline).
   */
  tiers?: boolean;
}

/** The best `k` live rows (of allowed documents) by BM25, best first. */
export function keywordTopK(
  postings: KeywordPostings,
  terms: readonly string[],
  k: number,
  allowed: Uint8Array | null,
  options: KeywordTopKOptions = {},
): KeywordHit[] {
  const rowsLive = postings.liveRows;
  if (k <= 0 || rowsLive === 0) return [];
  const averageLength = postings.liveLength / rowsLive;
  // Unique terms with postings; each phrase points at its term.
  const phrases = keywordPhrases(terms);
  const byTerm = new Map<string, { list: PostingList; weight: number; index: number }>();
  const phraseTerm: number[] = [];
  const phraseIdf: number[] = [];
  for (const phrase of phrases) {
    const list = postings.list(phrase);
    if (list === undefined) continue;
    const frequency = postings.documentFrequency(phrase);
    if (frequency === 0) continue;
    const idf = bm25Idf(rowsLive, frequency);
    phraseIdf.push(idf);
    let known = byTerm.get(phrase);
    if (known !== undefined) known.weight += idf;
    else {
      known = { list, weight: idf, index: byTerm.size };
      byTerm.set(phrase, known);
    }
    phraseTerm.push(known.index);
  }
  if (byTerm.size === 0) return [];
  // Each term is read as up to two tiers (HP38): its single occurrences in rows that are not short
  // (the whole list, skipping the others) and its repeated postings (frequency ≥ 2 or a short row,
  // a short copy). A row's contribution comes from exactly one of them, and the single tier's
  // bound is far below the list's, so the long tiers of common terms turn non-essential sooner.
  const tiers: Tier[] = [];
  const shortBelow = postings.shortBelow;
  for (const { list, weight, index: term } of byTerm.values()) {
    const whole = bm25Term(weight, list.maxTf, list.minLength, averageLength);
    if (list.repeated.count === 0 || options.tiers === false)
      tiers.push(tier(term, weight, list, false, whole));
    else {
      const single = bm25Term(weight, 1, Math.max(list.minLength, shortBelow), averageLength);
      tiers.push(tier(term, weight, list, true, single), tier(term, weight, list.repeated, false, whole));
    }
  }
  tiers.sort((a, b) => a.upper - b.upper);
  const n = tiers.length;
  // The walk reads each tier's fields from flat arrays (the typed-array ones built by `push`: V8
  // deoptimized the walk on the map of arrays `Array#map` built).
  const rowsOf: Uint32Array[] = [];
  const tfsOf: Uint16Array[] = [];
  const countOf = new Int32Array(n);
  const termOf = new Int32Array(n);
  const singleOf = new Uint8Array(n);
  const weightOf = new Float64Array(n);
  const prefix = new Float64Array(n);
  for (let i = 0, sum = 0; i < n; i++) {
    const tier = tiers[i] as Tier;
    rowsOf.push(tier.rows);
    tfsOf.push(tier.tfs);
    countOf[i] = tier.count;
    termOf[i] = tier.term;
    singleOf[i] = tier.single ? 1 : 0;
    weightOf[i] = tier.weight;
    sum += tier.upper;
    prefix[i] = sum * SLACK;
  }
  const heap = new TopHeap(k);
  walk(
    {
      terms: byTerm.size,
      rowsOf,
      tfsOf,
      countOf,
      termOf,
      singleOf,
      weightOf,
      prefix,
      phraseTerm: Int32Array.from(phraseTerm),
      phraseIdf: Float64Array.from(phraseIdf),
      averageLength,
      shortBelow,
      allowed,
      postings,
    },
    heap,
  );
  return heap.sorted();
}

/** What the walk reads: the query's tiers as flat arrays (sorted by bound), its phrases, the postings. */
interface Walk {
  /** Unique terms (the per-term scratch's size). */
  terms: number;
  rowsOf: Uint32Array[];
  tfsOf: Uint16Array[];
  countOf: Int32Array;
  termOf: Int32Array;
  singleOf: Uint8Array;
  weightOf: Float64Array;
  /** Per tier: the summed bounds of it and every weaker tier (with SLACK). */
  prefix: Float64Array;
  /** Per phrase, in query order: its term and IDF. */
  phraseTerm: Int32Array;
  phraseIdf: Float64Array;
  averageLength: number;
  shortBelow: number;
  allowed: Uint8Array | null;
  postings: KeywordPostings;
}

/**
 * MaxScore's walk over the tiers into `heap`. A function of its own so that V8 optimizes it once
 * and keeps it: inside keywordTopK it was compiled on the stack (OSR) in each of the first searches
 * and thrown away where the code after it had not run yet, so a new process ran its first dozen
 * searches 2–5× slower.
 */
function walk(w: Walk, heap: TopHeap): void {
  const { terms, rowsOf, tfsOf, countOf, termOf, singleOf, weightOf, prefix, phraseTerm, phraseIdf } = w;
  const { averageLength, shortBelow, allowed, postings } = w;
  const n = countOf.length;
  const pos = new Int32Array(n);
  const at = new Int32Array(n);
  for (let i = 0; i < n; i++)
    at[i] = (countOf[i] as number) > 0 ? ((rowsOf[i] as Uint32Array)[0] as number) : END;
  // A term's frequency in the row being scored: valid when `tfRow` holds that row.
  const tfAt = new Float64Array(terms);
  const tfRow = new Float64Array(terms).fill(-1);
  // Most postings have frequency 1: their factor is computed once per row length (0: not yet).
  const singleFactor = new Float64Array(FACTOR_LENGTHS);
  const { lengths, seqs, rowRevision, revisionLive, revisionDocument } = postings;
  // With nothing retired and no filter every row is admitted: no lookups per candidate.
  const everyRow = allowed === null && postings.dead === 0;
  let theta = Number.NEGATIVE_INFINITY;
  let essential = 0;
  // Each pass takes the lowest row of the essential tiers and finds the next one as it advances.
  for (let row = firstRow(at, essential, n); row !== END; ) {
    let admitted = true;
    if (!everyRow) {
      const revision = rowRevision[row] as number;
      admitted =
        revisionLive[revision] === 1 &&
        (allowed === null || allowed[revisionDocument[revision] as number] === 1);
    }
    const length = lengths[row] as number;
    let partial = 0;
    let next = END;
    for (let i = essential; i < n; i++) {
      let r = at[i] as number;
      if (r === row) {
        const p = pos[i] as number;
        pos[i] = p + 1;
        r = p + 1 < (countOf[i] as number) ? ((rowsOf[i] as Uint32Array)[p + 1] as number) : END;
        at[i] = r;
        const tf = (tfsOf[i] as Uint16Array)[p] as number;
        // A repeated posting met in the single tier is counted by its repeated tier (essential
        // too, its bound being higher).
        if (singleOf[i] === 0 || !isRepeated(tf, length, shortBelow)) {
          const t = termOf[i] as number;
          tfAt[t] = tf;
          tfRow[t] = row;
          if (admitted)
            partial += contribution(weightOf[i] as number, tf, length, averageLength, singleFactor);
        }
      }
      if (r < next) next = r;
    }
    const current = row;
    row = next;
    if (!admitted) continue;
    // Probe the non-essential tiers, strongest first, while the row can still reach θ.
    let j = essential - 1;
    for (; j >= 0; j--) {
      if ((partial + (prefix[j] as number)) * SLACK < theta) break;
      const rows = rowsOf[j] as Uint32Array;
      const p = seekRow(rows, countOf[j] as number, pos[j] as number, current);
      pos[j] = p;
      if (p < (countOf[j] as number) && rows[p] === current) {
        const tf = (tfsOf[j] as Uint16Array)[p] as number;
        if (singleOf[j] === 1 && isRepeated(tf, length, shortBelow)) continue;
        const t = termOf[j] as number;
        tfAt[t] = tf;
        tfRow[t] = current;
        partial += contribution(weightOf[j] as number, tf, length, averageLength, singleFactor);
      }
    }
    if (j >= 0) continue;
    // The exact score, summed phrase by phrase in query order as FTS5 sums it.
    let score = 0;
    for (let q = 0; q < phraseTerm.length; q++) {
      const t = phraseTerm[q] as number;
      if (tfRow[t] === current)
        score += bm25Term(phraseIdf[q] as number, tfAt[t] as number, length, averageLength);
    }
    if (heap.offer(score, seqs[current] as number, current) && heap.full) {
      theta = heap.worstScore;
      if (essential < n && (prefix[essential] as number) < theta) {
        while (essential < n && (prefix[essential] as number) < theta) essential++;
        // Tiers that left the essential set no longer supply rows.
        row = firstRow(at, essential, n);
      }
    }
  }
}

/*
 * The walk's helpers are functions of the module, not closures made per search: a closure is a
 * new call target on every search, and V8 deoptimized the walk each time it met another one
 * ("wrong call target"), so the first searches of a process ran unoptimized code for longer.
 */

/** The lowest current row of the tiers from `from` on (END when all are done). */
function firstRow(at: Int32Array, from: number, n: number): number {
  let row = END;
  for (let i = from; i < n; i++) if ((at[i] as number) < row) row = at[i] as number;
  return row;
}

/** A posting's BM25 contribution; frequency 1 in a row under FACTOR_LENGTHS reads its factor from `singleFactor`. */
function contribution(
  weight: number,
  tf: number,
  length: number,
  averageLength: number,
  singleFactor: Float64Array,
): number {
  if (tf !== 1 || length >= FACTOR_LENGTHS) return bm25Term(weight, tf, length, averageLength);
  let factor = singleFactor[length] as number;
  if (factor === 0) {
    factor = bm25Factor(1, length, averageLength);
    singleFactor[length] = factor;
  }
  return weight * factor;
}

/** A term's tier over `source` (its whole list or its repeated postings). */
function tier(term: number, weight: number, source: SortedPostings, single: boolean, upper: number): Tier {
  return { term, rows: source.rows, tfs: source.tfs, count: source.count, weight, single, upper };
}

/** One tier of a query term's postings, as the search walks it. */
interface Tier {
  /** The term's index (into the per-term frequencies of the row being scored). */
  term: number;
  rows: Uint32Array;
  tfs: Uint16Array;
  count: number;
  /** The term's IDF, summed over the phrases that name it. */
  weight: number;
  /** True for the single tier: a posting of frequency ≥ 2 or in a short row counts for nothing there. */
  single: boolean;
  /** The highest contribution a posting of the tier can make. */
  upper: number;
}

/** The k best (score, seq) so far: a binary heap with the worst at the root (lower score, then higher seq). */
class TopHeap {
  private size = 0;
  private readonly scores: Float64Array;
  private readonly seqs: Float64Array;
  private readonly rows: Uint32Array;

  constructor(private readonly k: number) {
    this.scores = new Float64Array(k);
    this.seqs = new Float64Array(k);
    this.rows = new Uint32Array(k);
  }

  get full(): boolean {
    return this.size === this.k;
  }

  get worstScore(): number {
    return this.scores[0] as number;
  }

  private worse(a: number, b: number): boolean {
    const sa = this.scores[a] as number;
    const sb = this.scores[b] as number;
    return sa < sb || (sa === sb && (this.seqs[a] as number) > (this.seqs[b] as number));
  }

  /** Adds the row when it ranks among the best k; true when it was kept. */
  offer(score: number, seq: number, row: number): boolean {
    if (this.size < this.k) {
      let i = this.size++;
      this.scores[i] = score;
      this.seqs[i] = seq;
      this.rows[i] = row;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return true;
    }
    const rootScore = this.scores[0] as number;
    if (score < rootScore || (score === rootScore && seq > (this.seqs[0] as number))) return false;
    this.scores[0] = score;
    this.seqs[0] = seq;
    this.rows[0] = row;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < this.size && this.worse(left, worst)) worst = left;
      if (right < this.size && this.worse(right, worst)) worst = right;
      if (worst === i) break;
      this.swap(i, worst);
      i = worst;
    }
    return true;
  }

  private swap(a: number, b: number): void {
    const score = this.scores[a] as number;
    this.scores[a] = this.scores[b] as number;
    this.scores[b] = score;
    const seq = this.seqs[a] as number;
    this.seqs[a] = this.seqs[b] as number;
    this.seqs[b] = seq;
    const row = this.rows[a] as number;
    this.rows[a] = this.rows[b] as number;
    this.rows[b] = row;
  }

  /** Best first. */
  sorted(): KeywordHit[] {
    const hits: KeywordHit[] = [];
    for (let i = 0; i < this.size; i++)
      hits.push({
        row: this.rows[i] as number,
        seq: this.seqs[i] as number,
        score: this.scores[i] as number,
      });
    return hits.sort((a, b) => b.score - a.score || a.seq - b.seq);
  }
}
