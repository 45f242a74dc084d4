/**
 * Token estimate used everywhere a token count is needed (extraction strategy
 * choice, chunk sizes, usage when a provider reports none).
 *
 * Why an approximation and not a tokenizer: the gateway talks to several model
 * vendors whose tokenizers differ (and some are unpublished), so no single BPE
 * vocabulary is "right"; a vocabulary also costs megabytes and start-up time in
 * every engine. This estimator mimics how byte-pair tokenizers split text — the
 * pre-tokenization of the cl100k/o200k family — and charges each piece by its
 * kind: a word of letters costs one token per started 6 characters (common words
 * are single tokens), digits cost one per 3 (BPE vocabularies hold numbers up to
 * 3 digits), CJK and other ideographic characters one each, punctuation one per
 * 2 characters, and a line break one. It is deterministic, linear in the input
 * and errs slightly high on English prose, which is the safe side for limits.
 */

const PIECE =
  /(\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}|\p{Script=Thai})|([\p{L}\p{M}]+)|(\p{N}+)|(\r?\n+)|(\s+)|([^\s\p{L}\p{M}\p{N}]+)/gu;

/** Any code unit past ASCII (no `u` flag: astral characters match through their surrogates). */
const NON_ASCII = /[\u0080-\uffff]/;

export function estimateTokens(text: string): number {
  // ASCII text (most chunks, words and prompts) is scanned by hand: the same pieces as PIECE, without
  // a match object per piece, which made this the largest cost of ingestion (HP41).
  if (!NON_ASCII.test(text)) return asciiTokens(text);
  let tokens = 0;
  for (const match of text.matchAll(PIECE)) {
    const [piece, ideograph, word, digits, newline, , symbols] = match;
    if (ideograph !== undefined) tokens += 1;
    else if (word !== undefined) tokens += Math.ceil(word.length / 6);
    else if (digits !== undefined) tokens += Math.ceil(digits.length / 3);
    else if (newline !== undefined) tokens += 1;
    else if (symbols !== undefined) tokens += Math.ceil(symbols.length / 2);
    else if (piece.length > 1) tokens += 1; // runs of spaces are tokens of their own
  }
  return tokens;
}

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number) => c >= 48 && c <= 57;
/** ASCII `\s`: tab, line feed, vertical tab, form feed, carriage return, space. */
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);

/** PIECE's alternatives in its order, over ASCII: letters, digits, `\r?\n+`, `\s+`, anything else. */
function asciiTokens(text: string): number {
  const n = text.length;
  let tokens = 0;
  let i = 0;
  while (i < n) {
    const start = i;
    const c = text.charCodeAt(i);
    if (isLetter(c)) {
      while (i < n && isLetter(text.charCodeAt(i))) i++;
      tokens += Math.ceil((i - start) / 6);
    } else if (isDigit(c)) {
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      tokens += Math.ceil((i - start) / 3);
    } else if (c === 10 || (c === 13 && text.charCodeAt(i + 1) === 10)) {
      i++;
      while (i < n && text.charCodeAt(i) === 10) i++;
      tokens += 1;
    } else if (isSpace(c)) {
      // Greedy like `\s+`: a run opened by a space takes the line breaks after it.
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      if (i - start > 1) tokens += 1;
    } else {
      while (i < n) {
        const d = text.charCodeAt(i);
        if (isLetter(d) || isDigit(d) || isSpace(d)) break;
        i++;
      }
      tokens += Math.ceil((i - start) / 2);
    }
  }
  return tokens;
}
