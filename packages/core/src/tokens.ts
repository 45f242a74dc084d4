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

export function estimateTokens(text: string): number {
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
