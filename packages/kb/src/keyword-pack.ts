/**
 * The keyword postings of one revision in one language as a single byte string (a "keyword
 * pack"), so a store reads one BLOB per served revision on a cold start and copies posting lists
 * instead of tokenizing every row's terms again (HP44; keyword-postings.ts `appendPacked`).
 *
 * Layout, little-endian, every run aligned to its element:
 *   header: u32 rows, u32 terms, u32 postings, u32 dictionary bytes
 *   f64 seq per row · u32 length per row
 *   u32 postings per term · u32 shortest row per term
 *   u32 row (index within the revision) per posting, grouped by term, rows ascending
 *   u16 frequency per posting · u16 highest frequency per term
 *   the terms in term order as UTF-8, each followed by one space (terms never hold a space)
 */

const HEADER = 16;

export interface KeywordPackLayout {
  rows: number;
  terms: number;
  postings: number;
  dictionaryBytes: number;
  seqs: number;
  lengths: number;
  counts: number;
  minLengths: number;
  postingRows: number;
  tfs: number;
  maxTfs: number;
  dictionary: number;
  bytes: number;
}

function keywordPackLayout(
  rows: number,
  terms: number,
  postings: number,
  dictionaryBytes: number,
): KeywordPackLayout {
  const seqs = HEADER;
  const lengths = seqs + rows * 8;
  const counts = lengths + rows * 4;
  const minLengths = counts + terms * 4;
  const postingRows = minLengths + terms * 4;
  const tfs = postingRows + postings * 4;
  const maxTfs = tfs + postings * 2;
  const dictionary = maxTfs + terms * 2;
  return {
    rows,
    terms,
    postings,
    dictionaryBytes,
    seqs,
    lengths,
    counts,
    minLengths,
    postingRows,
    tfs,
    maxTfs,
    dictionary,
    bytes: dictionary + dictionaryBytes,
  };
}

/** The layout of a stored pack, or null when the bytes are not one (wrong length). */
export function readKeywordPackLayout(pack: Uint8Array): KeywordPackLayout | null {
  if (pack.byteLength < HEADER) return null;
  const view = new DataView(pack.buffer, pack.byteOffset, pack.byteLength);
  const layout = keywordPackLayout(
    view.getUint32(0, true),
    view.getUint32(4, true),
    view.getUint32(8, true),
    view.getUint32(12, true),
  );
  return layout.bytes === pack.byteLength ? layout : null;
}

/** Typed views over a pack's runs (the pack copied first when its offset breaks their alignment). */
export interface KeywordPackRuns {
  layout: KeywordPackLayout;
  seqs: Float64Array;
  lengths: Uint32Array;
  counts: Uint32Array;
  minLengths: Uint32Array;
  postingRows: Uint32Array;
  tfs: Uint16Array;
  maxTfs: Uint16Array;
  /** The terms, each followed by one space. */
  dictionary: string;
}

export function keywordPackRuns(stored: Uint8Array): KeywordPackRuns | null {
  const layout = readKeywordPackLayout(stored);
  if (layout === null) return null;
  // A Float64Array view needs an offset that is a multiple of 8; a BLOB read from SQLite may sit anywhere.
  const runs = packViews(stored.byteOffset % 8 === 0 ? stored : stored.slice(), layout);
  return consistent(runs) ? runs : null;
}

function packViews(pack: Uint8Array, layout: KeywordPackLayout): KeywordPackRuns {
  const { buffer, byteOffset: at } = pack;
  return {
    layout,
    seqs: new Float64Array(buffer, at + layout.seqs, layout.rows),
    lengths: new Uint32Array(buffer, at + layout.lengths, layout.rows),
    counts: new Uint32Array(buffer, at + layout.counts, layout.terms),
    minLengths: new Uint32Array(buffer, at + layout.minLengths, layout.terms),
    postingRows: new Uint32Array(buffer, at + layout.postingRows, layout.postings),
    tfs: new Uint16Array(buffer, at + layout.tfs, layout.postings),
    maxTfs: new Uint16Array(buffer, at + layout.maxTfs, layout.terms),
    dictionary: new TextDecoder().decode(
      pack.subarray(layout.dictionary, layout.dictionary + layout.dictionaryBytes),
    ),
  };
}

/** Whether the runs agree with each other: a reader trusts them to index its lists. */
function consistent(runs: KeywordPackRuns): boolean {
  const { layout, dictionary } = runs;
  let postings = 0;
  for (let term = 0; term < layout.terms; term++) postings += runs.counts[term] as number;
  if (postings !== layout.postings) return false;
  for (let i = 0; i < layout.postings; i++) if ((runs.postingRows[i] as number) >= layout.rows) return false;
  let terms = 0;
  for (let i = 0; i < dictionary.length; i++) if (dictionary.charCodeAt(i) === 32) terms++;
  return terms === layout.terms && (dictionary.length === 0 || dictionary.endsWith(" "));
}

/** One term's postings as a pack holds them. */
export interface PackedTerm {
  term: string;
  rows: ArrayLike<number>;
  tfs: ArrayLike<number>;
  count: number;
  maxTf: number;
  minLength: number;
}

/** Writes a pack from a revision's rows (seq, length) and its terms' postings, in term order. */
export function writeKeywordPack(
  seqs: ArrayLike<number>,
  lengths: ArrayLike<number>,
  rowCount: number,
  terms: readonly PackedTerm[],
): Uint8Array {
  const dictionary = new TextEncoder().encode(terms.map((term) => `${term.term} `).join(""));
  let postings = 0;
  for (const term of terms) postings += term.count;
  const layout = keywordPackLayout(rowCount, terms.length, postings, dictionary.byteLength);
  const pack = new Uint8Array(layout.bytes);
  const view = new DataView(pack.buffer);
  view.setUint32(0, rowCount, true);
  view.setUint32(4, terms.length, true);
  view.setUint32(8, postings, true);
  view.setUint32(12, dictionary.byteLength, true);
  const runs = packViews(pack, layout);
  for (let row = 0; row < rowCount; row++) {
    runs.seqs[row] = seqs[row] as number;
    runs.lengths[row] = lengths[row] as number;
  }
  let at = 0;
  terms.forEach((term, i) => {
    runs.counts[i] = term.count;
    runs.minLengths[i] = term.minLength;
    runs.maxTfs[i] = term.maxTf;
    for (let j = 0; j < term.count; j++) {
      runs.postingRows[at + j] = term.rows[j] as number;
      runs.tfs[at + j] = term.tfs[j] as number;
    }
    at += term.count;
  });
  pack.set(dictionary, layout.dictionary);
  return pack;
}
