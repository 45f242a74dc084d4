/**
 * Top-k BM25 over a knowledge base's keyword postings (keyword-postings.ts) without scoring every
 * row that matches a term: MaxScore (Turtle & Flood). The query's terms are
 * sorted by their highest possible contribution; once the k-th best score θ exceeds the summed
 * bounds of the weakest terms, those become "non-essential": only rows holding an essential term
 * are candidates, the weaker lists are only probed (galloping) for candidates that can still
 * reach θ, and a candidate is dropped as soon as its partial score plus the remaining bounds falls
 * below θ. Common terms (low IDF) thus stop costing a pass over their long lists (HP31).
 *
 * The formula is FTS5's `bm25()` (k1 = 1.2, b = 0.75, IDF = ln((N − n + ½)/(n + ½)), at least
 * 1e-6), each query term a phrase in query order, over the knowledge base's served rows in the
 * language (N, n and the average length are theirs, HP32). Ties rank the lower chunk seq first,
 * as FTS5's `ORDER BY rank, rowid` did.
 */
import { type KeywordPostings, keywordTokens, type PostingList, seekRow } from "./keyword-postings.js";

const K1 = 1.2;
const B = 0.75;
/** Bounds are compared with this slack: a bound summed in another order may differ in its last bits. */
const SLACK = 1 + 1e-9;

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
  return idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + (B * length) / averageLength)));
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

/** The best `k` live rows (of allowed documents) by BM25, best first. */
export function keywordTopK(
  postings: KeywordPostings,
  terms: readonly string[],
  k: number,
  allowed: Uint8Array | null,
): KeywordHit[] {
  const rowsLive = postings.liveRows;
  if (k <= 0 || rowsLive === 0) return [];
  const averageLength = postings.liveLength / rowsLive;
  // Unique terms with postings; each phrase points at its term.
  const phrases = keywordPhrases(terms);
  const byTerm = new Map<string, { list: PostingList; idf: number; weight: number }>();
  const phraseTerm: string[] = [];
  const phraseIdf: number[] = [];
  for (const phrase of phrases) {
    const list = postings.list(phrase);
    if (list === undefined) continue;
    const frequency = postings.documentFrequency(phrase);
    if (frequency === 0) continue;
    const idf = bm25Idf(rowsLive, frequency);
    phraseTerm.push(phrase);
    phraseIdf.push(idf);
    const known = byTerm.get(phrase);
    if (known !== undefined) known.weight += idf;
    else byTerm.set(phrase, { list, idf, weight: idf });
  }
  if (byTerm.size === 0) return [];
  const bound = (weight: number, tf: number, length: number) => bm25Term(weight, tf, length, averageLength);
  const ranked = [...byTerm.entries()]
    .map(([term, entry]) => ({
      term,
      ...entry,
      upper: bound(entry.weight, entry.list.maxTf, entry.list.minLength),
    }))
    .sort((a, b) => a.upper - b.upper);
  const n = ranked.length;
  const lists = ranked.map((entry) => entry.list);
  const weights = ranked.map((entry) => entry.weight);
  const prefix = new Float64Array(n);
  for (let i = 0, sum = 0; i < n; i++) {
    sum += (ranked[i] as { upper: number }).upper;
    prefix[i] = sum * SLACK;
  }
  const slotOf = new Map(ranked.map((entry, i) => [entry.term, i]));
  const phraseSlot = phraseTerm.map((term) => slotOf.get(term) as number);
  const pos = new Int32Array(n);
  const tfAt = new Float64Array(n);
  const heap = new TopHeap(k);
  const { lengths, seqs, rowRevision, revisionLive, revisionDocument } = postings;
  let theta = Number.NEGATIVE_INFINITY;
  let essential = 0;
  for (;;) {
    let row = 0xffffffff;
    for (let i = essential; i < n; i++) {
      const list = lists[i] as PostingList;
      const p = pos[i] as number;
      if (p < list.count && (list.rows[p] as number) < row) row = list.rows[p] as number;
    }
    if (row === 0xffffffff) break;
    const revision = rowRevision[row] as number;
    const admitted =
      revisionLive[revision] === 1 &&
      (allowed === null || allowed[revisionDocument[revision] as number] === 1);
    const length = lengths[row] as number;
    let partial = 0;
    for (let i = essential; i < n; i++) {
      const list = lists[i] as PostingList;
      const p = pos[i] as number;
      if (p < list.count && list.rows[p] === row) {
        const tf = list.tfs[p] as number;
        tfAt[i] = tf;
        if (admitted) partial += bound(weights[i] as number, tf, length);
        pos[i] = p + 1;
      } else tfAt[i] = 0;
    }
    if (!admitted) continue;
    // Probe the non-essential lists, strongest first, while the row can still reach θ.
    let j = essential - 1;
    for (; j >= 0; j--) {
      if ((partial + (prefix[j] as number)) * SLACK < theta) break;
      const list = lists[j] as PostingList;
      const p = seekRow(list, pos[j] as number, row);
      pos[j] = p;
      if (p < list.count && list.rows[p] === row) {
        const tf = list.tfs[p] as number;
        tfAt[j] = tf;
        partial += bound(weights[j] as number, tf, length);
      } else tfAt[j] = 0;
    }
    if (j >= 0) continue;
    // The exact score, summed phrase by phrase in query order as FTS5 sums it.
    let score = 0;
    for (let q = 0; q < phraseSlot.length; q++) {
      const tf = tfAt[phraseSlot[q] as number] as number;
      if (tf > 0) score += bm25Term(phraseIdf[q] as number, tf, length, averageLength);
    }
    if (heap.offer(score, seqs[row] as number, row) && heap.full) {
      theta = heap.worstScore;
      while (essential < n && (prefix[essential] as number) < theta) essential++;
    }
  }
  return heap.sorted();
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
