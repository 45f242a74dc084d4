/**
 * `matchedSpan`: the part of `content` that matched most closely. Under
 * hierarchical chunking that is the child chunk inside its parent passage; for
 * a FIXED window it is the sentence sharing the most query terms (none when no
 * sentence shares any).
 */
import { analyze, type TextSearchLanguage } from "./text-analysis.js";

export function bestSentence(content: string, query: string, language: TextSearchLanguage): string | null {
  const wanted = new Set(analyze(query, language));
  if (wanted.size === 0) return null;
  let best: string | null = null;
  let bestScore = 0;
  for (const sentence of content.split(/(?<=[.!?;:])\s+|\n+/u)) {
    const trimmed = sentence.trim();
    if (trimmed === "") continue;
    const terms = new Set(analyze(trimmed, language));
    let score = 0;
    for (const term of wanted) if (terms.has(term)) score++;
    if (score > bestScore) {
      best = trimmed;
      bestScore = score;
    }
  }
  return best;
}
