/**
 * The keyword leg's text analysis, applied identically at index and query time:
 * Unicode word segmentation, lower-casing (NFKC), and for a named language a
 * Snowball stemmer (`snowball-stemmers`, a JS port of the Snowball algorithms).
 * `simple` neither stems nor drops stop words, like PostgreSQL's `simple`
 * configuration; named languages stem but keep stop words too, so a query made
 * only of short words still finds something (BM25 weighs frequent words down).
 */
import { newStemmer, type Stemmer } from "snowball-stemmers";

export const TEXT_SEARCH_LANGUAGES = [
  "simple",
  "arabic",
  "armenian",
  "basque",
  "catalan",
  "czech",
  "danish",
  "dutch",
  "english",
  "finnish",
  "french",
  "german",
  "hungarian",
  "irish",
  "italian",
  "norwegian",
  "portuguese",
  "romanian",
  "russian",
  "slovene",
  "spanish",
  "swedish",
  "tamil",
  "turkish",
] as const;
export type TextSearchLanguage = (typeof TEXT_SEARCH_LANGUAGES)[number];

export function isTextSearchLanguage(value: unknown): value is TextSearchLanguage {
  return typeof value === "string" && (TEXT_SEARCH_LANGUAGES as readonly string[]).includes(value);
}

/**
 * A stemmer with a memo of its answers: the JS Snowball port costs tens of
 * microseconds per word, and text repeats its words (Zipf), so ingestion would
 * otherwise spend most of its time stemming. The memo is dropped when full.
 */
interface MemoStemmer {
  stem(word: string): string;
}

const MEMO_LIMIT = 200_000;
const stemmers = new Map<string, MemoStemmer>();

function memoized(stemmer: Stemmer): MemoStemmer {
  let memo = new Map<string, string>();
  return {
    stem(word) {
      let stem = memo.get(word);
      if (stem === undefined) {
        stem = stemmer.stem(word);
        if (memo.size >= MEMO_LIMIT) memo = new Map();
        memo.set(word, stem);
      }
      return stem;
    },
  };
}

function stemmerFor(language: TextSearchLanguage): MemoStemmer | null {
  if (language === "simple") return null;
  let stemmer = stemmers.get(language);
  if (stemmer === undefined) {
    stemmer = memoized(newStemmer(language));
    stemmers.set(language, stemmer);
  }
  return stemmer;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
/** Terms longer than this are cut (hashes, base64 runs): they never help ranking. */
const MAX_TERM_LENGTH = 64;

/** Words of `text` as index terms: lower-cased, stemmed for named languages. */
export function analyze(text: string, language: TextSearchLanguage): string[] {
  const stemmer = stemmerFor(language);
  const out: string[] = [];
  for (const match of text.normalize("NFKC").toLowerCase().matchAll(WORD)) {
    let word = match[0].replace(/['’]s$/u, "").replace(/['’]/gu, "");
    if (word.length > MAX_TERM_LENGTH) word = word.slice(0, MAX_TERM_LENGTH);
    if (word === "") continue;
    out.push(stemmer === null ? word : stemmer.stem(word));
  }
  return out;
}

/** The index form of a passage: its terms joined by spaces (what the FTS5 table stores). */
export function indexTerms(text: string, language: TextSearchLanguage): string {
  return analyze(text, language).join(" ");
}

/** Distinct query terms, in first-seen order. */
export function queryTerms(query: string, language: TextSearchLanguage): string[] {
  return [...new Set(analyze(query, language))];
}
